// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) — the same check zip and PNG use, so other
// implementations find it in their standard library.
//
// Slicing-by-8 (eight 256-entry tables, 8 KiB): eight bytes per step instead of one. The index CRC was a
// fifth of the encoder's per-object time with the bytewise loop (benchmarks/format/README.md).
const T = (() => {
  const t = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    for (let k = 1; k < 8; k++) {
      const prev = t[(k - 1) * 256 + n]!;
      t[k * 256 + n] = (prev >>> 8) ^ t[prev & 0xff]!;
    }
  }
  return t;
})();

/** CRC-32 of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let c = -1;
  let i = 0;
  const end8 = bytes.length - 7;
  for (; i < end8; i += 8) {
    const a = c ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    c =
      T[0x700 + (a & 0xff)]! ^
      T[0x600 + ((a >>> 8) & 0xff)]! ^
      T[0x500 + ((a >>> 16) & 0xff)]! ^
      T[0x400 + (a >>> 24)]! ^
      T[0x300 + bytes[i + 4]!]! ^
      T[0x200 + bytes[i + 5]!]! ^
      T[0x100 + bytes[i + 6]!]! ^
      T[bytes[i + 7]!]!;
  }
  for (; i < bytes.length; i++) c = T[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
