import { ATTRIBUTE_SIZE, FLAG_PARTIAL, FLAGS_MUST_UNDERSTAND, MAX_SHARED_REFS, SIZE_FIELD_SIZE } from './constants.js';
import { FormatError, FormatErrorCode } from './errors.js';
import type { DecoderLimits, ObjectEntry } from './types.js';
import { validateContentType, validateHeader, validateName } from './validate.js';

/** One row of the object information field, before offsets are assigned (input of `encodeIndex`). */
export interface ObjectInfo {
  name: string;
  contentType: string;
  headers: ReadonlyArray<readonly [string, string]>;
  size: number;
  totalSize: number;
  digest: Uint8Array;
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/** Smallest possible object information field for `count` objects (names are at least "/" + NUL). */
export const minInfoLength = (count: number): number => 1 + 1 + 2 + count * (2 + SIZE_FIELD_SIZE + ATTRIBUTE_SIZE);

const getU64 = (v: DataView, at: number): number => {
  const hi = v.getUint32(at + 4, true);
  if (hi >= 0x20_0000) throw new FormatError(FormatErrorCode.LIMIT, 'size above 2^53-1');
  return hi * 0x1_0000_0000 + v.getUint32(at, true);
};

/** A cursor over the object information field that fails with OBJP_BAD_LAYOUT instead of reading past it. */
class Reader {
  pos = 0;
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  need(n: number, what: string): number {
    if (this.pos + n > this.bytes.length)
      throw new FormatError(FormatErrorCode.BAD_LAYOUT, `${what} runs past the end of the object information field`);
    const at = this.pos;
    this.pos += n;
    return at;
  }
  cstr(what: string, maxBytes: number): { text: string; bytes: number } {
    const end = this.bytes.indexOf(0, this.pos);
    if (end < 0) throw new FormatError(FormatErrorCode.BAD_LAYOUT, `${what} is not NUL-terminated`);
    const len = end - this.pos;
    if (len > maxBytes) throw new FormatError(FormatErrorCode.LIMIT, `${what} longer than ${maxBytes} bytes`);
    let text: string;
    try {
      text = utf8Strict.decode(this.bytes.subarray(this.pos, end));
    } catch {
      throw new FormatError(
        what === 'object name' ? FormatErrorCode.INVALID_NAME : FormatErrorCode.BAD_LAYOUT,
        `${what} is not valid UTF-8`,
      );
    }
    this.pos = end + 1;
    return { text, bytes: len };
  }

  /**
   * The names subfield: `count` NUL-terminated strings, decoded with one TextDecoder call for all of them
   * (a call per name was a sixth of the decoder's per-object time). Same checks, in the same order per
   * name, as cstr().
   */
  names(count: number, maxBytes: number): string[] {
    const start = this.pos;
    let at = start;
    for (let i = 0; i < count; i++) {
      const end = this.bytes.indexOf(0, at);
      if (end < 0) throw new FormatError(FormatErrorCode.BAD_LAYOUT, 'object name is not NUL-terminated');
      if (end - at > maxBytes)
        throw new FormatError(FormatErrorCode.LIMIT, `object name longer than ${maxBytes} bytes`);
      at = end + 1;
    }
    this.pos = at;
    if (count === 0) return [];
    let text: string;
    try {
      text = utf8Strict.decode(this.bytes.subarray(start, at - 1));
    } catch {
      throw new FormatError(FormatErrorCode.INVALID_NAME, 'object name is not valid UTF-8');
    }
    return text.split('\0');
  }
}

/** Parses and validates the whole object information field (call only once all of it has arrived). */
export function decodeObjectInfo(
  bytes: Uint8Array,
  count: number,
  dataLength: number,
  limits: DecoderLimits,
): { buildId: string; sharedRefs: string[]; entries: ObjectEntry[] } {
  const r = new Reader(bytes);
  const buildId = r.cstr('build id', 64).text;
  if (!/^[\x21-\x7e]*$/.test(buildId))
    throw new FormatError(FormatErrorCode.BAD_LAYOUT, 'build id is not printable ASCII');
  const types: string[] = [];
  const typeCount = r.view.getUint8(r.need(1, 'content type count'));
  for (let i = 0; i < typeCount; i++) {
    const t = r.cstr('content type', 255).text;
    validateContentType(t);
    types.push(t);
  }
  const refCount = r.view.getUint16(r.need(2, 'shared reference count'), true);
  if (refCount > MAX_SHARED_REFS) throw new FormatError(FormatErrorCode.LIMIT, `${refCount} shared references`);
  const sharedRefs: string[] = [];
  for (let i = 0; i < refCount; i++) {
    const { text, bytes: len } = r.cstr('shared reference', limits.maxNameBytes);
    validateName(text, limits.maxNameBytes, len);
    sharedRefs.push(text);
  }
  const names = r.names(count, limits.maxNameBytes);
  const seen = new Set<string>();
  for (const name of names) {
    // Valid names are ASCII, so a name's length in characters is its length in bytes (checked in names()).
    validateName(name, limits.maxNameBytes, name.length);
    if (seen.has(name)) throw new FormatError(FormatErrorCode.DUPLICATE_NAME, `duplicate object ${name}`, name);
    seen.add(name);
  }
  const sizesAt = r.need(count * SIZE_FIELD_SIZE, 'sizes subfield');
  const attrsAt = r.need(count * ATTRIBUTE_SIZE, 'attributes subfield');
  const entries: ObjectEntry[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const name = names[i]!;
    const size = getU64(r.view, sizesAt + i * SIZE_FIELD_SIZE);
    const at = attrsAt + i * ATTRIBUTE_SIZE;
    const totalSize = getU64(r.view, at);
    const flags = r.view.getUint16(at + 40, true);
    const typeIdx = r.view.getUint8(at + 42);
    const headerLen = r.view.getUint16(at + 44, true);
    if (flags & FLAGS_MUST_UNDERSTAND & ~FLAG_PARTIAL)
      throw new FormatError(
        FormatErrorCode.UNSUPPORTED_VERSION,
        `unknown flags 0x${flags.toString(16)} on ${name}`,
        name,
      );
    const partial = (flags & FLAG_PARTIAL) !== 0;
    if (partial ? totalSize <= size : totalSize !== size)
      throw new FormatError(FormatErrorCode.BAD_LAYOUT, `sizes of ${name} disagree with its partial flag`, name);
    if (typeIdx >= types.length)
      throw new FormatError(FormatErrorCode.BAD_LAYOUT, `content type index ${typeIdx} of ${name} out of range`, name);
    if (headerLen > limits.maxHeaderBytes)
      throw new FormatError(FormatErrorCode.LIMIT, `headers of ${name} exceed ${limits.maxHeaderBytes} bytes`, name);
    if (offset + size > dataLength)
      throw new FormatError(FormatErrorCode.BAD_LAYOUT, `${name} runs past the end of the data field`, name);
    entries.push({
      index: i,
      name,
      contentType: types[typeIdx]!,
      headers: [],
      size,
      totalSize,
      partial,
      digest: bytes.slice(at + 8, at + 8 + 32),
      offset,
    });
    offset += size;
  }
  if (offset !== dataLength)
    throw new FormatError(
      FormatErrorCode.BAD_LAYOUT,
      `object sizes add up to ${offset}, data field declares ${dataLength}`,
    );
  for (let i = 0; i < count; i++) {
    const e = entries[i]!;
    const len = r.view.getUint16(attrsAt + i * ATTRIBUTE_SIZE + 44, true);
    if (len === 0) continue;
    const at = r.need(len, 'headers subfield');
    let block: string;
    try {
      block = utf8Strict.decode(bytes.subarray(at, at + len));
    } catch {
      throw new FormatError(FormatErrorCode.INVALID_HEADER, `headers of ${e.name} are not valid UTF-8`, e.name);
    }
    const headers: Array<[string, string]> = [];
    for (const line of block.split('\n')) {
      const colon = line.indexOf(': ');
      if (colon <= 0)
        throw new FormatError(FormatErrorCode.INVALID_HEADER, `malformed header line in ${e.name}`, e.name);
      const k = line.slice(0, colon);
      const val = line.slice(colon + 2);
      validateHeader(k, val, e.name);
      headers.push([k, val]);
    }
    (e as { headers: ReadonlyArray<readonly [string, string]> }).headers = headers;
  }
  // Bytes after the headers subfield are reserved for later minor versions and skipped (README "Versioning").
  return { buildId, sharedRefs, entries };
}
