import type { Diagnostic } from '../discover/types.js';
import { BUILD_WARNINGS } from './warnings-build.js';
import { DISCOVER_WARNINGS } from './warnings-discover.js';
import { HOST_WARNINGS } from './warnings-host.js';
import type { WarningSpec } from './warning-spec.js';

/** Every warning of `objpack`, keyed by its public code. Codes never change meaning: only add. */
export const WARNINGS = { ...DISCOVER_WARNINGS, ...BUILD_WARNINGS, ...HOST_WARNINGS } as const;
type Warnings = typeof WARNINGS;

export type WarningCode = keyof Warnings;
type ShortName<C> = C extends `OBJPACK_W_${infer N}` ? N : never;

/** The warning codes by short name (`WarningCode.MISSING_REF`), for code that matches on them. */
export const WarningCode = Object.fromEntries(
  Object.keys(WARNINGS).map((code) => [code.slice('OBJPACK_W_'.length), code]),
) as { readonly [C in WarningCode as ShortName<C>]: C };

/** The parts a warning's message is made from. */
export type WarningParts<C extends WarningCode> = Warnings[C] extends WarningSpec<infer P> ? P : never;

/** Where a diagnostic points: the site-relative file, its line and column, the reference as written. */
export type Where = Omit<Diagnostic, 'code' | 'severity' | 'message'>;

/** Makes the diagnostic for `code`: its message from the catalog, its severity, and where it is. */
export function warn<C extends WarningCode>(code: C, parts: WarningParts<C>, where: Where = {}): Diagnostic {
  const s = WARNINGS[code] as WarningSpec<WarningParts<C>>;
  return { code, severity: s.severity ?? 'warning', message: s.message(parts), ...where };
}
