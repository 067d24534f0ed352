/**
 * Every warning and error discovery can report, with a stable code. Tests and the CLI match on the code,
 * never on the message text. Warnings are things a build can live with (the page ships without the
 * object); errors stop the build or make its result useless.
 */
import type { Diagnostic } from './types.js';

export const DiscoverCodes = {
  /** A reference resolves to a same-origin URL with no file behind it. */
  MISSING_REF: 'OBJPACK_W_MISSING_REF',
  /** A relative reference climbs above the site root, or decodes to a path separator (`%2F`, `..`). */
  REF_ESCAPES_ROOT: 'OBJPACK_W_REF_ESCAPES_ROOT',
  /** A symlink inside the site points outside it: never followed, never read. */
  SYMLINK_ESCAPES_ROOT: 'OBJPACK_W_SYMLINK_ESCAPES_ROOT',
  /** A directory symlink points to a directory that contains it (a loop): not followed. */
  SYMLINK_LOOP: 'OBJPACK_W_SYMLINK_LOOP',
  /** Stylesheets `@import` each other in a cycle: the browser ignores the import that closes it. */
  IMPORT_CYCLE: 'OBJPACK_W_IMPORT_CYCLE',
  /** A reference is not a URL a browser can resolve (bad percent-encoding, bad host…). */
  INVALID_URL: 'OBJPACK_W_INVALID_URL',
  /** A page references a dotfile (`.env`, `.git/…`): dotfiles are never packaged. */
  DOTFILE_REF: 'OBJPACK_W_DOTFILE_REF',
  /** The HTML tokenizer reported parse errors; discovery continued with what a browser would build. */
  MALFORMED_HTML: 'OBJPACK_W_MALFORMED_HTML',
  /** css-tree reported errors in a stylesheet or style attribute; the rest of the sheet was used. */
  MALFORMED_CSS: 'OBJPACK_W_MALFORMED_CSS',
  /** es-module-lexer could not parse a module; its imports are unknown. */
  MALFORMED_JS: 'OBJPACK_W_MALFORMED_JS',
  /** A file was listed but had gone when it was read (deleted mid-build). */
  FILE_VANISHED: 'OBJPACK_W_FILE_VANISHED',
  /** A file exists but cannot be read (permissions, I/O error). */
  UNREADABLE: 'OBJPACK_W_UNREADABLE',
  /** A file or directory name is not valid UTF-8, so it has no URL; skipped. */
  NON_UTF8_NAME: 'OBJPACK_W_NON_UTF8_NAME',
  /** Not a regular file (FIFO, socket, device): skipped. */
  NOT_A_FILE: 'OBJPACK_W_NOT_A_FILE',
  /** A module imports a bare specifier with no import map entry: the browser would fail too. */
  BARE_SPECIFIER: 'OBJPACK_W_BARE_SPECIFIER',
  /** The site root does not exist. */
  ROOT_NOT_FOUND: 'OBJPACK_E_ROOT_NOT_FOUND',
  /** The site root exists but is not a directory. */
  ROOT_NOT_DIRECTORY: 'OBJPACK_E_ROOT_NOT_DIRECTORY',
  /** The site root holds no HTML page at all (empty dir, or a wrong path in the pipeline): nothing to package. */
  NO_PAGES: 'OBJPACK_W_NO_PAGES',
  /** `--origin` is not an absolute http(s) URL. */
  BAD_ORIGIN: 'OBJPACK_E_BAD_ORIGIN',
  /**
   * Severity `info`: no base was given and the pages say the site is built for one (detect-base.ts); the build
   * puts it under that base. Not a problem of the site, so it counts as no warning.
   */
  BASE_DETECTED: 'OBJPACK_W_BASE_DETECTED',
  /** `tracePages` needs Chromium and could not start it. */
  NO_BROWSER: 'OBJPACK_E_NO_BROWSER',
} as const;

export type DiscoverCode = (typeof DiscoverCodes)[keyof typeof DiscoverCodes];

/** Thrown for misuse that makes discovery impossible (no root, bad origin); everything else is a Diagnostic. */
export class DiscoverError extends Error {
  readonly code: DiscoverCode;
  constructor(code: DiscoverCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DiscoverError';
    this.code = code;
  }
}

/** Builds a warning; `file` is the site-relative file that holds the reference. */
export function warning(
  code: DiscoverCode,
  message: string,
  where: Omit<Diagnostic, 'code' | 'severity' | 'message'> = {},
): Diagnostic {
  return { code, severity: 'warning', message, ...where };
}
