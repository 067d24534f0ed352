/**
 * Every error the format can raise, with a stable code (tests check codes, never message text).
 * Codes are part of the public API: never renumber, only add.
 */
export const FormatErrorCode = {
  BAD_MAGIC: 'OBJP_BAD_MAGIC',
  UNSUPPORTED_VERSION: 'OBJP_UNSUPPORTED_VERSION',
  HEADER_CHECK: 'OBJP_HEADER_CHECK',
  INDEX_CHECK: 'OBJP_INDEX_CHECK',
  TRUNCATED: 'OBJP_TRUNCATED',
  LIMIT: 'OBJP_LIMIT',
  BAD_LAYOUT: 'OBJP_BAD_LAYOUT',
  TRAILING_DATA: 'OBJP_TRAILING_DATA',
  INVALID_NAME: 'OBJP_INVALID_NAME',
  INVALID_HEADER: 'OBJP_INVALID_HEADER',
  DUPLICATE_NAME: 'OBJP_DUPLICATE_NAME',
  DIGEST_MISMATCH: 'OBJP_DIGEST_MISMATCH',
  SOURCE_CHANGED: 'OBJP_SOURCE_CHANGED',
  INVALID_INPUT: 'OBJP_INVALID_INPUT',
  DECODER_STATE: 'OBJP_DECODER_STATE',
} as const;

export type FormatErrorCode = (typeof FormatErrorCode)[keyof typeof FormatErrorCode];

/** What went wrong, per code: the end of every FormatError's message. */
const WHAT: Record<FormatErrorCode, string> = {
  OBJP_BAD_MAGIC: 'not an objpack package (expected the bytes "OBJP")',
  OBJP_UNSUPPORTED_VERSION: 'written by a newer objpack; upgrade the reader',
  OBJP_HEADER_CHECK: 'the fixed header is corrupt (CRC-32 mismatch)',
  OBJP_INDEX_CHECK: 'the object information field is corrupt (CRC-32 mismatch)',
  OBJP_TRUNCATED: 'the package ended early; the download or file was cut short',
  OBJP_LIMIT: 'a declared count or length exceeds the decoder limits',
  OBJP_BAD_LAYOUT: 'declared lengths and offsets do not fit together',
  OBJP_TRAILING_DATA: 'bytes follow the end of the data field',
  OBJP_INVALID_NAME:
    'object names must be percent-encoded URL paths (printable ASCII) starting with "/", without "..", "#", ' +
    '"\\" or encoded separators',
  OBJP_INVALID_HEADER: 'header names must be tokens and values must not contain CR, LF or NUL',
  OBJP_DUPLICATE_NAME: 'each object name may appear once per package',
  OBJP_DIGEST_MISMATCH: 'an object body does not match its SHA-256 digest',
  OBJP_SOURCE_CHANGED: 'a streamed source yielded different bytes on its second pass',
  OBJP_INVALID_INPUT: 'the encoder was given an impossible object description',
  OBJP_DECODER_STATE: 'the decoder was used after it ended or failed',
};

/**
 * What to do about each code. Kept apart from the messages so the service worker, which bundles the decoder,
 * carries none of this text; the README's codes reference is generated from both.
 */
export const FORMAT_HINTS: Record<FormatErrorCode, string> = {
  OBJP_BAD_MAGIC: 'check the URL or path: the response or file is something else (an HTML error page, say)',
  OBJP_UNSUPPORTED_VERSION: 'upgrade @objpack/format (or the worker) to the version that wrote the package',
  OBJP_HEADER_CHECK: 'rebuild the package; if it was downloaded, check what rewrites responses on the way',
  OBJP_INDEX_CHECK: 'rebuild the package; if it was downloaded, check what rewrites responses on the way',
  OBJP_TRUNCATED: 'fetch or copy the package again; check the server sends it whole',
  OBJP_LIMIT: 'raise the decoder limits if the package is genuine, or rebuild it with fewer or smaller objects',
  OBJP_BAD_LAYOUT: 'rebuild the package: a correct encoder never writes this',
  OBJP_TRAILING_DATA: 'fetch or copy the package again; something appended bytes to it',
  OBJP_INVALID_NAME: 'give each object a percent-encoded URL path starting with "/"',
  OBJP_INVALID_HEADER: 'remove the header or fix its name or value',
  OBJP_DUPLICATE_NAME: 'give each object of a package a different name',
  OBJP_DIGEST_MISMATCH: 'rebuild the package; if it was downloaded, check what rewrites responses on the way',
  OBJP_SOURCE_CHANGED: 'write the package again once its source files have stopped changing',
  OBJP_INVALID_INPUT: 'fix the object description given to the encoder (sizes, build id, types)',
  OBJP_DECODER_STATE: 'make a new Decoder for each package; a decoder is done once it has ended or failed',
};

/** Every code with what went wrong and what to do, for the README's codes reference (scripts/diagnostics-docs.mjs). */
export const codesReference = (): Array<{ code: string; level: 'error'; meaning: string; hint: string }> =>
  (Object.values(FormatErrorCode) as FormatErrorCode[]).map((code) => ({
    code,
    level: 'error',
    meaning: `${WHAT[code]}.`,
    hint: FORMAT_HINTS[code],
  }));

/** The one error class of @objpack/format. `code` is stable; `entry` names the object when there is one. */
export class FormatError extends Error {
  override readonly name = 'FormatError';
  constructor(
    readonly code: FormatErrorCode,
    detail: string,
    readonly entry?: string,
  ) {
    super(`${code}: ${detail} (${WHAT[code]})`);
  }
}

export const isFormatError = (e: unknown): e is FormatError => e instanceof FormatError;
