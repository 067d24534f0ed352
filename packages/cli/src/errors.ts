/**
 * Every error and warning of the `objpack` package comes from one catalog (`src/diagnostics/`), with stable
 * codes (tests check codes, never message text). Codes are public API: never renumber, only add. Exit codes
 * are part of the CLI contract: 0 ok, 1 build errors, 2 usage, 3 corrupt input.
 */
import { docsAnchor } from './diagnostics/docs-anchor.js';
import { ERRORS, type ErrorCode, type ErrorSpec, type ExitCode } from './diagnostics/error-catalog.js';

export { ErrorCode, ExitCode } from './diagnostics/error-catalog.js';
export { WarningCode, warn } from './diagnostics/warnings.js';
export { docsAnchor } from './diagnostics/docs-anchor.js';

/** The one error class of `objpack`. `code` is stable; `file` names the input when there is one. */
export class ObjpackError extends Error {
  override readonly name = 'ObjpackError';
  /** What to do about it. */
  readonly hint: string;
  readonly exitCode: ExitCode;
  /** Where the code is documented: the package README's codes reference. */
  readonly docs: string;
  constructor(
    readonly code: ErrorCode,
    detail: string,
    readonly file?: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${detail}`, options);
    this.hint = ERRORS[code].hint;
    this.exitCode = ERRORS[code].exit;
    this.docs = docsAnchor(code);
  }
}

export const isObjpackError = (e: unknown): e is ObjpackError => e instanceof ObjpackError;

/** The code a discovery error reaches the user as: its own, or the build's code the catalog names for it. */
export const reportedCode = (code: ErrorCode): ErrorCode =>
  ((ERRORS[code] as ErrorSpec).reported as ErrorCode | undefined) ?? code;

/** Discovery's codes, kept as an export of the package: each is in the one catalog above. */
export { DiscoverCodes } from './discover/diagnostic-codes.js';
