import { WarningCode, warn } from '../diagnostics/warnings.js';
import type { Resolved } from './resolve-url.js';
import type { Diagnostic } from './types.js';

/** Turns an unusable resolution into a warning naming the referring file and line; no-op otherwise. */
export function reportRef(
  diagnostics: Diagnostic[],
  r: Resolved,
  ref: string,
  file: string,
  line: number | undefined,
): void {
  const where = { file, ref, ...(line !== undefined ? { line } : {}) };
  const at = line !== undefined ? `${file}:${line}` : file;
  switch (r.kind) {
    case 'missing':
      diagnostics.push(warn(WarningCode.MISSING_REF, { at, what: `"${ref}" → ${r.url}` }, where));
      break;
    case 'escape':
      diagnostics.push(warn(WarningCode.REF_ESCAPES_ROOT, { at, ref }, where));
      break;
    case 'dotfile':
      diagnostics.push(warn(WarningCode.DOTFILE_REF, { at, ref }, where));
      break;
    case 'invalid':
      diagnostics.push(warn(WarningCode.INVALID_URL, { at, ref, reason: r.reason }, where));
      break;
    default:
  }
}
