import { MAX_BUILD_ID_BYTES, MAX_CONTENT_TYPE_BYTES } from './constants.js';
import { FormatError, FormatErrorCode } from './errors.js';
import { isHeaderName, isHeaderValue } from './header-field.js';

// Names become cache keys and request URLs in a browser, and header values go straight into Response
// objects, so anything that could escape a path, smuggle a header or confuse a URL parser is refused.

/** Headers an entry may not carry (a subset of NOT_CARRIED_HEADERS, header-field.ts: what the build leaves out). */
export const FORBIDDEN_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'set-cookie',
  'keep-alive',
  'upgrade',
]);

/**
 * Throws OBJP_INVALID_NAME unless `name` is a safe same-origin URL path (optionally with a query) in the
 * percent-encoded form a browser requests (README §1.2 "Names"): printable ASCII only.
 */
export function validateName(name: string, maxBytes: number, byteLength: number): void {
  // One pass without allocations: the decoder runs this for every object of every package.
  const fail = (why: string): never => {
    throw new FormatError(FormatErrorCode.INVALID_NAME, `${why}: ${JSON.stringify(name.slice(0, 200))}`, name);
  };
  if (byteLength > maxBytes) fail(`name longer than ${maxBytes} bytes`);
  if (name.charCodeAt(0) !== 0x2f) fail('name must start with "/"');
  if (name.charCodeAt(1) === 0x2f) fail('protocol-relative name');
  let inPath = true;
  let segStart = 1;
  let percent = false;
  for (let i = 1; i <= name.length; i++) {
    const c = i < name.length ? name.charCodeAt(i) : -1;
    if (c <= 0x20 && c !== -1) fail('control character, space or NUL in name');
    // Raw non-ASCII would give one resource two names (a browser requests `/caf%C3%A9`, never `/café`).
    if (c >= 0x7f)
      fail(
        c === 0x7f
          ? 'control character, space or NUL in name'
          : 'non-ASCII character in name (percent-encode it as UTF-8)',
      );
    if (c === 0x5c) fail('backslash in name');
    if (c === 0x23) fail('fragment in name');
    if (inPath && (c === 0x2f || c === 0x3f || c === -1)) {
      checkSegment(name, segStart, i, percent, fail);
      segStart = i + 1;
      percent = false;
      if (c === 0x3f) inPath = false;
    } else if (c === 0x25) {
      percent = true;
    }
  }
}

/** Refuses `.`/`..` segments, also percent-encoded, and encoded separators or NUL inside a segment. */
function checkSegment(name: string, start: number, end: number, percent: boolean, fail: (why: string) => never): void {
  if (!percent) {
    const len = end - start;
    if ((len === 1 || len === 2) && name.charCodeAt(start) === 0x2e && name.charCodeAt(end - 1) === 0x2e)
      fail('dot segment in name');
    return;
  }
  const seg = name.slice(start, end);
  let decoded = seg;
  try {
    decoded = decodeURIComponent(seg);
  } catch {
    fail('malformed percent-encoding');
  }
  if (decoded === '.' || decoded === '..') fail('dot segment in name');
  if (/[/\\\0]/.test(decoded)) fail('encoded separator or NUL in name');
}

/** Throws OBJP_INVALID_HEADER unless the content type is a non-empty printable-ASCII header value. */
export function validateContentType(type: string): void {
  if (type.length === 0 || type.length > MAX_CONTENT_TYPE_BYTES || !isHeaderValue(type)) {
    throw new FormatError(FormatErrorCode.INVALID_HEADER, `bad content type ${JSON.stringify(type.slice(0, 100))}`);
  }
}

/** Throws OBJP_INVALID_HEADER for a header a package may not set or that could inject another header. */
export function validateHeader(name: string, value: string, entry?: string): void {
  if (!isHeaderName(name)) {
    throw new FormatError(
      FormatErrorCode.INVALID_HEADER,
      `bad header name ${JSON.stringify(String(name).slice(0, 100))}`,
      entry,
    );
  }
  if (FORBIDDEN_HEADERS.has(name))
    throw new FormatError(FormatErrorCode.INVALID_HEADER, `header "${name}" may not be set by a package`, entry);
  if (!isHeaderValue(value)) {
    throw new FormatError(
      FormatErrorCode.INVALID_HEADER,
      `header "${name}" has CR, LF, NUL or non-ASCII in its value`,
      entry,
    );
  }
}

/** Throws OBJP_INVALID_INPUT unless the build id is printable ASCII without spaces, at most 64 bytes. */
export function validateBuildId(id: string): void {
  if (id.length > MAX_BUILD_ID_BYTES || !/^[\x21-\x7e]*$/.test(id)) {
    throw new FormatError(
      FormatErrorCode.INVALID_INPUT,
      `build id must be printable ASCII, at most ${MAX_BUILD_ID_BYTES} bytes`,
    );
  }
}
