import {
  ATTRIBUTE_SIZE,
  DIGEST_SIZE,
  FLAG_PARTIAL,
  FORMAT_LIMITS,
  HEADER_SIZE,
  MAX_CONTENT_TYPES,
  MAX_SHARED_REFS,
  SIZE_FIELD_SIZE,
} from './constants.js';
import { crc32 } from './crc32.js';
import { FormatError, FormatErrorCode } from './errors.js';
import { writeHeader } from './header.js';
import { validateBuildId, validateContentType, validateHeader, validateName } from './validate.js';

// The writer validates and measures everything first (planIndex), then writes header and object information
// field in one pass straight into the caller's buffer (writeIndex): no per-object allocations, no parts list
// to concatenate. Every string in the index is ASCII once validated (names are percent-encoded, README §1.2),
// so strings are copied code unit by code unit without a TextEncoder.

/**
 * What the index describes, one array per field (index i = object i). The encoder reads each property of
 * the caller's objects once into these: objects built with object spread can make every property load
 * megamorphic in V8, and reading them again in each step costs most of the per-object time
 * (benchmarks/format/README.md).
 */
export interface IndexInput {
  readonly buildId: string;
  readonly sharedRefs: readonly string[];
  readonly names: readonly string[];
  readonly contentTypes: readonly string[];
  readonly headers: ReadonlyArray<ReadonlyArray<readonly [string, string]> | undefined>;
  readonly sizes: readonly number[];
  readonly totalSizes: readonly number[];
  readonly digests: readonly Uint8Array[];
}

const NO_HEADERS: ReadonlyArray<readonly [string, string]> = Object.freeze([]);

/** A validated index with every length known. */
export interface IndexPlan {
  readonly info: IndexInput;
  /** The content-type table, in order of first use. */
  readonly types: readonly string[];
  /** Per object: its index into `types`. */
  readonly typeIndex: Uint8Array;
  /** Per object: bytes of its header block. */
  readonly headerLengths: Uint16Array;
  /** Bytes of the object information field (L). */
  readonly infoLength: number;
  /** Bytes of the data field (D). */
  readonly dataLength: number;
}

/** UTF-8 byte length of `s` (lone surrogates count as the 3 bytes of U+FFFD, as TextEncoder writes them). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

function writeAscii(s: string, out: Uint8Array, at: number): number {
  for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  return at + s.length;
}

/** Bytes of a header block: `name: value` lines joined by LF (all ASCII once validated). */
function headerBlockLength(headers: ReadonlyArray<readonly [string, string]>): number {
  if (headers.length === 0) return 0;
  let n = headers.length - 1;
  for (const [k, v] of headers) n += k.length + 2 + v.length;
  return n;
}

/**
 * Validates the package description and computes every length of its index. Checks run in the order a
 * reader meets the fields, so the encoder and the decoder report the same code for the same bad input.
 */
export function planIndex(info: IndexInput): IndexPlan {
  validateBuildId(info.buildId);
  const n = info.names.length;
  const types: string[] = [];
  const typeOf = new Map<string, number>();
  const typeIndex = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = info.contentTypes[i]!;
    let k = typeOf.get(t);
    if (k === undefined) {
      validateContentType(t);
      k = types.length;
      typeOf.set(t, k);
      types.push(t);
      if (types.length > MAX_CONTENT_TYPES)
        throw new FormatError(FormatErrorCode.LIMIT, `more than ${MAX_CONTENT_TYPES} distinct content types`);
    }
    typeIndex[i] = k;
  }
  if (info.sharedRefs.length > MAX_SHARED_REFS)
    throw new FormatError(FormatErrorCode.LIMIT, `more than ${MAX_SHARED_REFS} shared references`);
  // A writer must not produce what a reader with default limits refuses.
  if (n > FORMAT_LIMITS.maxObjects)
    throw new FormatError(FormatErrorCode.LIMIT, `more than ${FORMAT_LIMITS.maxObjects} objects`);

  let length = info.buildId.length + 1 + 1 + 2;
  for (const t of types) length += t.length + 1;
  for (const r of info.sharedRefs) {
    validateName(r, FORMAT_LIMITS.maxNameBytes, utf8Length(r));
    length += r.length + 1;
  }
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) {
    const name = info.names[i]!;
    validateName(name, FORMAT_LIMITS.maxNameBytes, utf8Length(name));
    if (seen.has(name)) throw new FormatError(FormatErrorCode.DUPLICATE_NAME, `duplicate object ${name}`, name);
    seen.add(name);
    length += name.length + 1;
  }
  const headerLengths = new Uint16Array(n);
  let dataLength = 0;
  for (let i = 0; i < n; i++) {
    const name = info.names[i]!;
    const size = info.sizes[i]!;
    const totalSize = info.totalSizes[i]!;
    if (!Number.isSafeInteger(size) || size < 0 || !Number.isSafeInteger(totalSize) || totalSize < size) {
      throw new FormatError(FormatErrorCode.INVALID_INPUT, `bad size for ${name}`, name);
    }
    if (info.digests[i]!.length !== DIGEST_SIZE)
      throw new FormatError(FormatErrorCode.INVALID_INPUT, `digest of ${name} is not 32 bytes`, name);
    const headers = info.headers[i] ?? NO_HEADERS;
    for (const [k, v] of headers) validateHeader(k, v, name);
    const block = headerBlockLength(headers);
    if (block > FORMAT_LIMITS.maxHeaderBytes)
      throw new FormatError(
        FormatErrorCode.LIMIT,
        `headers of ${name} exceed ${FORMAT_LIMITS.maxHeaderBytes} bytes`,
        name,
      );
    headerLengths[i] = block;
    length += block;
    dataLength += size;
  }
  if (!Number.isSafeInteger(dataLength)) throw new FormatError(FormatErrorCode.LIMIT, 'data field above 2^53-1 bytes');
  length += n * (SIZE_FIELD_SIZE + ATTRIBUTE_SIZE);
  if (length > FORMAT_LIMITS.maxIndexBytes)
    throw new FormatError(
      FormatErrorCode.LIMIT,
      `object information field of ${length} bytes exceeds ${FORMAT_LIMITS.maxIndexBytes}`,
    );
  return { info, types, typeIndex, headerLengths, infoLength: length, dataLength };
}

const setU64 = (v: DataView, at: number, n: number) => {
  v.setUint32(at, n % 0x1_0000_0000, true);
  v.setUint32(at + 4, Math.floor(n / 0x1_0000_0000), true);
};

/** Writes the fixed header and the object information field (README §1.1–1.2) into `out` at `at`. */
export function writeIndex(plan: IndexPlan, out: Uint8Array, at: number): void {
  const { info, types, typeIndex, headerLengths } = plan;
  const n = info.names.length;
  const start = at + HEADER_SIZE;
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let p = writeAscii(info.buildId, out, start);
  out[p++] = 0;
  out[p++] = types.length;
  for (const t of types) {
    p = writeAscii(t, out, p);
    out[p++] = 0;
  }
  v.setUint16(p, info.sharedRefs.length, true);
  p += 2;
  for (const r of info.sharedRefs) {
    p = writeAscii(r, out, p);
    out[p++] = 0;
  }
  for (let i = 0; i < n; i++) {
    p = writeAscii(info.names[i]!, out, p);
    out[p++] = 0;
  }
  const attrs = p + n * SIZE_FIELD_SIZE;
  for (let i = 0; i < n; i++) {
    const size = info.sizes[i]!;
    const totalSize = info.totalSizes[i]!;
    setU64(v, p + i * SIZE_FIELD_SIZE, size);
    const a = attrs + i * ATTRIBUTE_SIZE;
    setU64(v, a, totalSize);
    out.set(info.digests[i]!, a + 8);
    v.setUint16(a + 40, totalSize > size ? FLAG_PARTIAL : 0, true);
    out[a + 42] = typeIndex[i]!;
    out[a + 43] = 0;
    v.setUint16(a + 44, headerLengths[i]!, true);
    v.setUint16(a + 46, 0, true);
  }
  p = attrs + n * ATTRIBUTE_SIZE;
  for (let i = 0; i < n; i++) {
    if (headerLengths[i] === 0) continue;
    const headers = info.headers[i]!;
    for (let j = 0; j < headers.length; j++) {
      if (j > 0) out[p++] = 0x0a;
      p = writeAscii(headers[j]![0], out, p);
      out[p++] = 0x3a;
      out[p++] = 0x20;
      p = writeAscii(headers[j]![1], out, p);
    }
  }
  const indexCrc = crc32(out.subarray(start, start + plan.infoLength));
  writeHeader({ flags: 0, count: n, indexLength: plan.infoLength, dataLength: plan.dataLength, indexCrc }, out, at);
}
