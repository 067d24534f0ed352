import { ERRORS, type ErrorSpec } from './error-catalog.js';
import type { WarningSpec } from './warning-spec.js';
import { WARNINGS } from './warnings.js';

/** One code as the README's codes reference shows it (scripts/diagnostics-docs.mjs renders the rows). */
export interface CodeRow {
  code: string;
  level: 'error' | 'warning' | 'info';
  messages?: string[];
  meaning?: string;
  hint: string;
  exit?: number;
}

/** Parts that render as `{name}`: a message shows where each value goes. */
const placeholders = (fixed: object = {}): object =>
  new Proxy(fixed, { get: (t, k) => (k in t ? t[k as keyof typeof t] : `{${String(k)}}`) });

/** Every message form of a warning, with `{part}` for each value. */
export function messageShapes(s: WarningSpec<object>): string[] {
  return (s.variants ?? [{}]).map((v) => s.message(placeholders(v)));
}

/** Every error and warning of `objpack`, for the README's codes reference. */
export function codesReference(): CodeRow[] {
  const errors = Object.entries(ERRORS).map(([code, e]: [string, ErrorSpec]) => ({
    code,
    level: 'error' as const,
    meaning: e.reported ? `${e.what} Reported as ${e.reported}, with this code in its message.` : e.what,
    hint: e.hint,
    exit: e.exit,
  }));
  // Every spec takes its own parts; the placeholders stand in for any of them.
  const specs = Object.entries(WARNINGS) as Array<[string, WarningSpec<object>]>;
  const warnings = specs.map(([code, w]) => ({
    code,
    level: w.severity ?? ('warning' as const),
    messages: messageShapes(w),
    hint: w.hint,
  }));
  return [...errors, ...warnings];
}
