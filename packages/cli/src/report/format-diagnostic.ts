import type { Diagnostic } from '../discover/index.js';

/** `CODE message`, the message without the `file:line:` it may start with. */
function what(d: Diagnostic): string {
  const msg = d.file && d.message.startsWith(`${d.file}:`) ? d.message.slice(d.message.indexOf(' ') + 1) : d.message;
  return `${d.code} ${msg}`;
}

/** `file:line:col CODE message` — the shape editors and CI annotators pick up. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''} ` : '';
  return `${where}${what(d)}`;
}

/**
 * Diagnostics alike in all but file and line (one missing logo that 500 pages reference) as one line:
 * the first, with how many more there are, so the site's other warnings are not buried under repeats.
 */
export function formatGrouped(ds: readonly Diagnostic[]): Array<{ line: string; count: number }> {
  const groups = new Map<string, { first: Diagnostic; more: number }>();
  for (const d of ds) {
    const g = groups.get(what(d));
    if (g) g.more++;
    else groups.set(what(d), { first: d, more: 0 });
  }
  return [...groups.values()].map(({ first, more }) => ({
    line: `${formatDiagnostic(first)}${more ? ` (and ${more} more like it)` : ''}`,
    count: more + 1,
  }));
}
