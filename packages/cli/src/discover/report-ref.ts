import { DiscoverCodes, warning } from './diagnostic-codes.js';
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
      diagnostics.push(
        warning(DiscoverCodes.MISSING_REF, `${at}: "${ref}" → ${r.url} does not exist in the site`, where),
      );
      break;
    case 'escape':
      diagnostics.push(
        warning(DiscoverCodes.REF_ESCAPES_ROOT, `${at}: "${ref}" points outside the site root; not read`, where),
      );
      break;
    case 'dotfile':
      diagnostics.push(
        warning(DiscoverCodes.DOTFILE_REF, `${at}: "${ref}" is a dotfile; dotfiles are never packaged`, where),
      );
      break;
    case 'invalid':
      diagnostics.push(warning(DiscoverCodes.INVALID_URL, `${at}: "${ref}" is not a valid URL (${r.reason})`, where));
      break;
    default:
  }
}
