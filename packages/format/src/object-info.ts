import {
  ATTRIBUTE_SIZE, DIGEST_SIZE, FLAG_PARTIAL, FLAGS_MUST_UNDERSTAND, FORMAT_LIMITS, MAX_CONTENT_TYPES, MAX_SHARED_REFS, SIZE_FIELD_SIZE,
} from './constants.js';
import { FormatError } from './errors.js';
import type { DecoderLimits, ObjectEntry } from './types.js';
import { validateBuildId, validateContentType, validateHeader, validateName } from './validate.js';

/** What the object information field describes, before offsets are assigned. */
export interface ObjectInfo {
  name: string;
  contentType: string;
  headers: ReadonlyArray<readonly [string, string]>;
  size: number;
  totalSize: number;
  digest: Uint8Array;
}

export interface PackageInfo {
  buildId: string;
  sharedRefs: readonly string[];
  objects: readonly ObjectInfo[];
}

const utf8 = new TextEncoder();
const NUL = new Uint8Array(1);
const EMPTY = new Uint8Array(0);

/** UTF-8 of `s`; short ASCII strings (most names) skip TextEncoder, which dominated encoding time. */
function encodeUtf8(s: string): Uint8Array {
  if (s.length > 256) return utf8.encode(s);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return utf8.encode(s);
    out[i] = c;
  }
  return out;
}
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/** Smallest possible object information field for `count` objects (names are at least "/" + NUL). */
export const minInfoLength = (count: number): number => 1 + 1 + 2 + count * (2 + SIZE_FIELD_SIZE + ATTRIBUTE_SIZE);

const setU64 = (v: DataView, at: number, n: number) => {
  v.setUint32(at, n % 0x1_0000_0000, true);
  v.setUint32(at + 4, Math.floor(n / 0x1_0000_0000), true);
};
const getU64 = (v: DataView, at: number): number => {
  const hi = v.getUint32(at + 4, true);
  if (hi >= 0x20_0000) throw new FormatError('OBJP_LIMIT', 'size above 2^53-1');
  return hi * 0x1_0000_0000 + v.getUint32(at, true);
};

/**
 * Serialises the object information field (README "Object information field"): package subfield,
 * names (NUL-terminated, as in the paper), sizes (fixed 8 bytes), attributes (fixed 48 bytes), headers.
 */
export function encodeObjectInfo(info: PackageInfo): Uint8Array {
  validateBuildId(info.buildId);
  const types: string[] = [];
  const typeIndex = new Map<string, number>();
  for (const o of info.objects) {
    if (!typeIndex.has(o.contentType)) {
      validateContentType(o.contentType);
      typeIndex.set(o.contentType, types.length);
      types.push(o.contentType);
    }
  }
  if (types.length > MAX_CONTENT_TYPES) throw new FormatError('OBJP_LIMIT', `more than ${MAX_CONTENT_TYPES} distinct content types`);
  if (info.sharedRefs.length > MAX_SHARED_REFS) throw new FormatError('OBJP_LIMIT', `more than ${MAX_SHARED_REFS} shared references`);
  // A writer must not produce what a reader with default limits refuses.
  if (info.objects.length > FORMAT_LIMITS.maxObjects) throw new FormatError('OBJP_LIMIT', `more than ${FORMAT_LIMITS.maxObjects} objects`);

  const parts: Uint8Array[] = [];
  const cstr = (s: string) => {
    parts.push(encodeUtf8(s), NUL);
  };
  cstr(info.buildId);
  parts.push(new Uint8Array([types.length]));
  types.forEach(cstr);
  const refCount = new Uint8Array(2);
  new DataView(refCount.buffer).setUint16(0, info.sharedRefs.length, true);
  parts.push(refCount);
  for (const r of info.sharedRefs) {
    validateName(r, 4096, encodeUtf8(r).length);
    cstr(r);
  }
  const seen = new Set<string>();
  for (const o of info.objects) {
    const bytes = encodeUtf8(o.name);
    validateName(o.name, 4096, bytes.length);
    if (seen.has(o.name)) throw new FormatError('OBJP_DUPLICATE_NAME', `duplicate object ${o.name}`, o.name);
    seen.add(o.name);
    parts.push(bytes, NUL);
  }
  const n = info.objects.length;
  const sizes = new Uint8Array(n * SIZE_FIELD_SIZE);
  const attrs = new Uint8Array(n * ATTRIBUTE_SIZE);
  const sv = new DataView(sizes.buffer);
  const av = new DataView(attrs.buffer);
  const headerBlocks: Uint8Array[] = [];
  info.objects.forEach((o, i) => {
    if (!Number.isSafeInteger(o.size) || o.size < 0 || !Number.isSafeInteger(o.totalSize) || o.totalSize < o.size) {
      throw new FormatError('OBJP_INVALID_INPUT', `bad size for ${o.name}`, o.name);
    }
    if (o.digest.length !== DIGEST_SIZE) throw new FormatError('OBJP_INVALID_INPUT', `digest of ${o.name} is not 32 bytes`, o.name);
    setU64(sv, i * SIZE_FIELD_SIZE, o.size);
    const at = i * ATTRIBUTE_SIZE;
    setU64(av, at, o.totalSize);
    attrs.set(o.digest, at + 8);
    av.setUint16(at + 40, o.totalSize > o.size ? FLAG_PARTIAL : 0, true);
    av.setUint8(at + 42, typeIndex.get(o.contentType)!);
    for (const [k, val] of o.headers) validateHeader(k, val, o.name);
    const block = o.headers.length === 0 ? EMPTY : encodeUtf8(o.headers.map(([k, val]) => `${k}: ${val}`).join('\n'));
    if (block.length > FORMAT_LIMITS.maxHeaderBytes) throw new FormatError('OBJP_LIMIT', `headers of ${o.name} exceed ${FORMAT_LIMITS.maxHeaderBytes} bytes`, o.name);
    av.setUint16(at + 44, block.length, true);
    headerBlocks.push(block);
  });
  parts.push(sizes, attrs, ...headerBlocks);
  const total = parts.reduce((s, p) => s + p.length, 0);
  if (total > FORMAT_LIMITS.maxIndexBytes) throw new FormatError('OBJP_LIMIT', `object information field of ${total} bytes exceeds ${FORMAT_LIMITS.maxIndexBytes}`);
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** A cursor over the object information field that fails with OBJP_BAD_LAYOUT instead of reading past it. */
class Reader {
  pos = 0;
  readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  need(n: number, what: string): number {
    if (this.pos + n > this.bytes.length) throw new FormatError('OBJP_BAD_LAYOUT', `${what} runs past the end of the object information field`);
    const at = this.pos;
    this.pos += n;
    return at;
  }
  cstr(what: string, maxBytes: number): { text: string; bytes: number } {
    const end = this.bytes.indexOf(0, this.pos);
    if (end < 0) throw new FormatError('OBJP_BAD_LAYOUT', `${what} is not NUL-terminated`);
    const len = end - this.pos;
    if (len > maxBytes) throw new FormatError('OBJP_LIMIT', `${what} longer than ${maxBytes} bytes`);
    let text: string;
    try {
      text = utf8Strict.decode(this.bytes.subarray(this.pos, end));
    } catch {
      throw new FormatError(what === 'object name' ? 'OBJP_INVALID_NAME' : 'OBJP_BAD_LAYOUT', `${what} is not valid UTF-8`);
    }
    this.pos = end + 1;
    return { text, bytes: len };
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
  if (!/^[\x21-\x7e]*$/.test(buildId)) throw new FormatError('OBJP_BAD_LAYOUT', 'build id is not printable ASCII');
  const types: string[] = [];
  const typeCount = r.view.getUint8(r.need(1, 'content type count'));
  for (let i = 0; i < typeCount; i++) {
    const t = r.cstr('content type', 255).text;
    validateContentType(t);
    types.push(t);
  }
  const refCount = r.view.getUint16(r.need(2, 'shared reference count'), true);
  if (refCount > MAX_SHARED_REFS) throw new FormatError('OBJP_LIMIT', `${refCount} shared references`);
  const sharedRefs: string[] = [];
  for (let i = 0; i < refCount; i++) {
    const { text, bytes: len } = r.cstr('shared reference', limits.maxNameBytes);
    validateName(text, limits.maxNameBytes, len);
    sharedRefs.push(text);
  }
  const names: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const { text, bytes: len } = r.cstr('object name', limits.maxNameBytes);
    validateName(text, limits.maxNameBytes, len);
    if (seen.has(text)) throw new FormatError('OBJP_DUPLICATE_NAME', `duplicate object ${text}`, text);
    seen.add(text);
    names.push(text);
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
    if (flags & FLAGS_MUST_UNDERSTAND & ~FLAG_PARTIAL) throw new FormatError('OBJP_UNSUPPORTED_VERSION', `unknown flags 0x${flags.toString(16)} on ${name}`, name);
    const partial = (flags & FLAG_PARTIAL) !== 0;
    if (partial ? totalSize <= size : totalSize !== size) throw new FormatError('OBJP_BAD_LAYOUT', `sizes of ${name} disagree with its partial flag`, name);
    if (typeIdx >= types.length) throw new FormatError('OBJP_BAD_LAYOUT', `content type index ${typeIdx} of ${name} out of range`, name);
    if (headerLen > limits.maxHeaderBytes) throw new FormatError('OBJP_LIMIT', `headers of ${name} exceed ${limits.maxHeaderBytes} bytes`, name);
    if (offset + size > dataLength) throw new FormatError('OBJP_BAD_LAYOUT', `${name} runs past the end of the data field`, name);
    entries.push({
      index: i, name, contentType: types[typeIdx]!, headers: [], size, totalSize, partial,
      digest: bytes.slice(at + 8, at + 8 + 32), offset,
    });
    offset += size;
  }
  if (offset !== dataLength) throw new FormatError('OBJP_BAD_LAYOUT', `object sizes add up to ${offset}, data field declares ${dataLength}`);
  for (let i = 0; i < count; i++) {
    const e = entries[i]!;
    const len = r.view.getUint16(attrsAt + i * ATTRIBUTE_SIZE + 44, true);
    if (len === 0) continue;
    const at = r.need(len, 'headers subfield');
    let block: string;
    try {
      block = utf8Strict.decode(bytes.subarray(at, at + len));
    } catch {
      throw new FormatError('OBJP_INVALID_HEADER', `headers of ${e.name} are not valid UTF-8`, e.name);
    }
    const headers: Array<[string, string]> = [];
    for (const line of block.split('\n')) {
      const colon = line.indexOf(': ');
      if (colon <= 0) throw new FormatError('OBJP_INVALID_HEADER', `malformed header line in ${e.name}`, e.name);
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
