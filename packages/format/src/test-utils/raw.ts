// Hand-built packages for error tests and broken golden vectors. These writers do no validation at all,
// so a test can put any name, header or length on the wire and still get past the CRC checks it wants to.
import { ATTRIBUTE_SIZE, HEADER_SIZE, MAGIC, SIZE_FIELD_SIZE } from '../constants.js';
import { crc32 } from '../crc32.js';
import { sha256 } from '../sha256.js';

const utf8 = new TextEncoder();

/** One object of a raw index; every field is written as given. */
export interface RawObject {
  /** Name as a string (UTF-8 encoded) or as exact bytes (no NUL is added inside). */
  name: string | Uint8Array;
  size: number;
  totalSize?: number;
  flags?: number;
  typeIndex?: number;
  digest?: Uint8Array;
  /** Header block as text or bytes; its length goes into the attribute record. */
  headers?: string | Uint8Array;
  /** Override of the header length written in the attribute record. */
  headerLength?: number;
}

export interface RawInfo {
  buildId?: string | Uint8Array;
  contentTypes?: readonly string[];
  sharedRefs?: readonly string[];
  objects: readonly RawObject[];
  /** Bytes appended after the headers subfield (reserved for later minor versions). */
  tail?: Uint8Array;
}

/**
 * UTF-8 that keeps lone surrogates as their 3-byte forms (WTF-8) instead of replacing them with U+FFFD,
 * so a test can put exactly the code units of a JS string on the wire.
 */
export function wtf8(s: string): Uint8Array {
  const out: number[] = [];
  for (const cp of Array.from(s, (c) => c.codePointAt(0)!)) {
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return new Uint8Array(out);
}

const bytesOf = (s: string | Uint8Array): Uint8Array => (typeof s === 'string' ? wtf8(s) : s);

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const u16 = (n: number) => new Uint8Array([n & 0xff, (n >>> 8) & 0xff]);
const u64 = (n: number): Uint8Array => {
  const b = new Uint8Array(8);
  const v = new DataView(b.buffer);
  v.setUint32(0, n % 0x1_0000_0000, true);
  v.setUint32(4, Math.floor(n / 0x1_0000_0000), true);
  return b;
};

/** Serialises an object information field exactly as described, without any checks. */
export function rawObjectInfo(info: RawInfo): Uint8Array {
  const cstr = (s: string | Uint8Array) => [bytesOf(s), new Uint8Array(1)];
  const types = info.contentTypes ?? ['application/octet-stream'];
  const refs = info.sharedRefs ?? [];
  const parts: Uint8Array[] = [...cstr(info.buildId ?? ''), new Uint8Array([types.length])];
  for (const t of types) parts.push(...cstr(t));
  parts.push(u16(refs.length));
  for (const r of refs) parts.push(...cstr(r));
  for (const o of info.objects) parts.push(...cstr(o.name));
  for (const o of info.objects) parts.push(u64(o.size));
  for (const o of info.objects) {
    const rec = new Uint8Array(ATTRIBUTE_SIZE);
    const v = new DataView(rec.buffer);
    rec.set(u64(o.totalSize ?? o.size), 0);
    rec.set(o.digest ?? new Uint8Array(32), 8);
    v.setUint16(40, o.flags ?? 0, true);
    v.setUint8(42, o.typeIndex ?? 0);
    v.setUint16(44, o.headerLength ?? (o.headers === undefined ? 0 : bytesOf(o.headers).length), true);
    parts.push(rec);
  }
  for (const o of info.objects) if (o.headers !== undefined) parts.push(bytesOf(o.headers));
  if (info.tail) parts.push(info.tail);
  return concat(parts);
}

/** Fields of the fixed header; anything not given is derived from the index and data. */
export interface RawHeader {
  magic?: Uint8Array;
  major?: number;
  minor?: number;
  flags?: number;
  count?: number;
  indexLength?: number;
  dataLength?: number;
  /** Written instead of the real CRC-32 of the index. */
  indexCrc?: number;
  /** Written instead of the real CRC-32 of header bytes 0–27. */
  headerCrc?: number;
}

/** The 32-byte fixed header with correct CRCs unless overridden. */
export function rawHeader(
  h: Required<Pick<RawHeader, 'count' | 'indexLength' | 'dataLength'>> & RawHeader,
  index: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(HEADER_SIZE);
  const v = new DataView(out.buffer);
  out.set(h.magic ?? MAGIC, 0);
  v.setUint8(4, h.major ?? 1);
  v.setUint8(5, h.minor ?? 0);
  v.setUint16(6, h.flags ?? 0, true);
  v.setUint32(8, h.count, true);
  v.setUint32(12, h.indexLength, true);
  v.setUint32(16, h.dataLength % 0x1_0000_0000, true);
  v.setUint32(20, Math.floor(h.dataLength / 0x1_0000_0000), true);
  v.setUint32(24, h.indexCrc ?? crc32(index), true);
  v.setUint32(28, h.headerCrc ?? crc32(out.subarray(0, 28)), true);
  return out;
}

/**
 * A whole package from a raw index and data field. Count, lengths and CRCs are correct unless `header`
 * overrides them, so each test breaks exactly the one thing it is about.
 */
export function rawPackage(
  info: RawInfo | Uint8Array,
  data: Uint8Array = new Uint8Array(0),
  header: RawHeader = {},
): Uint8Array {
  const index = info instanceof Uint8Array ? info : rawObjectInfo(info);
  const count = header.count ?? (info instanceof Uint8Array ? 0 : info.objects.length);
  const head = rawHeader(
    { ...header, count, indexLength: header.indexLength ?? index.length, dataLength: header.dataLength ?? data.length },
    index,
  );
  return concat([head, index, data]);
}

/** A valid-looking one-object package whose name, headers or attributes a test chooses (CRCs correct). */
export function singleObjectPackage(
  over: Partial<RawObject> & { contentTypes?: readonly string[]; buildId?: string | Uint8Array } = {},
): Uint8Array {
  const body = over.size === undefined ? utf8.encode('hello') : new Uint8Array(over.size);
  const { contentTypes, buildId, ...obj } = over;
  return rawPackage(
    { buildId, contentTypes, objects: [{ name: '/a.txt', digest: sha256(body), ...obj, size: body.length }] },
    body,
  );
}

/** Recomputes both CRCs of a package in place (for fuzzing what lies behind them). */
export function fixCrcs(pkg: Uint8Array): Uint8Array {
  if (pkg.length < HEADER_SIZE) return pkg;
  const v = new DataView(pkg.buffer, pkg.byteOffset, pkg.byteLength);
  const indexLength = v.getUint32(12, true);
  if (HEADER_SIZE + indexLength <= pkg.length)
    v.setUint32(24, crc32(pkg.subarray(HEADER_SIZE, HEADER_SIZE + indexLength)), true);
  v.setUint32(28, crc32(pkg.subarray(0, 28)), true);
  return pkg;
}

export { SIZE_FIELD_SIZE, ATTRIBUTE_SIZE, HEADER_SIZE, concat };
