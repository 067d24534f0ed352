import { FORMAT_LIMITS, HEADER_SIZE, MAGIC, VERSION_MAJOR, VERSION_MINOR } from './constants.js';
import { crc32 } from './crc32.js';
import { FormatError, FormatErrorCode } from './errors.js';
import type { DecoderLimits } from './types.js';

/** The fixed 32-byte header: everything needed to size and check what follows. */
export interface FixedHeader {
  major: number;
  minor: number;
  flags: number;
  count: number;
  indexLength: number;
  dataLength: number;
  indexCrc: number;
}

/** Writes the fixed header (little-endian) including its own CRC-32 into `out` at `at`. */
export function writeHeader(h: Omit<FixedHeader, 'major' | 'minor'>, out: Uint8Array, at: number): void {
  const v = new DataView(out.buffer, out.byteOffset + at, HEADER_SIZE);
  out.set(MAGIC, at);
  v.setUint8(4, VERSION_MAJOR);
  v.setUint8(5, VERSION_MINOR);
  v.setUint16(6, h.flags, true);
  v.setUint32(8, h.count, true);
  v.setUint32(12, h.indexLength, true);
  v.setUint32(16, h.dataLength % 0x1_0000_0000, true);
  v.setUint32(20, Math.floor(h.dataLength / 0x1_0000_0000), true);
  v.setUint32(24, h.indexCrc, true);
  v.setUint32(28, crc32(out.subarray(at, at + 28)), true);
}

/**
 * Parses and checks the fixed header. Every count and length is checked against `limits` here, before
 * the decoder allocates or waits for anything, so a tiny file claiming 2^32 entries fails at byte 32.
 */
export function decodeHeader(bytes: Uint8Array, limits: DecoderLimits): FixedHeader {
  for (let i = 0; i < 4; i++) {
    if (bytes[i] !== MAGIC[i]) throw new FormatError(FormatErrorCode.BAD_MAGIC, 'first four bytes are not "OBJP"');
  }
  const v = new DataView(bytes.buffer, bytes.byteOffset, HEADER_SIZE);
  const major = v.getUint8(4);
  const minor = v.getUint8(5);
  if (major !== VERSION_MAJOR)
    throw new FormatError(
      FormatErrorCode.UNSUPPORTED_VERSION,
      `major version ${major} (this reader knows ${VERSION_MAJOR})`,
    );
  if (v.getUint32(28, true) !== crc32(bytes.subarray(0, 28)))
    throw new FormatError(FormatErrorCode.HEADER_CHECK, 'header CRC-32 mismatch');
  const hi = v.getUint32(20, true);
  const h: FixedHeader = {
    major,
    minor,
    flags: v.getUint16(6, true),
    count: v.getUint32(8, true),
    indexLength: v.getUint32(12, true),
    dataLength: hi * 0x1_0000_0000 + v.getUint32(16, true),
    indexCrc: v.getUint32(24, true),
  };
  if (h.count > Math.min(limits.maxObjects, FORMAT_LIMITS.maxObjects))
    throw new FormatError(FormatErrorCode.LIMIT, `${h.count} objects exceeds the limit of ${limits.maxObjects}`);
  if (h.indexLength > Math.min(limits.maxIndexBytes, FORMAT_LIMITS.maxIndexBytes))
    throw new FormatError(
      FormatErrorCode.LIMIT,
      `index of ${h.indexLength} bytes exceeds the limit of ${limits.maxIndexBytes}`,
    );
  if (hi >= 0x20_0000 || h.dataLength > limits.maxDataBytes)
    throw new FormatError(FormatErrorCode.LIMIT, `data field of ${h.dataLength} bytes exceeds the limit`);
  return h;
}
