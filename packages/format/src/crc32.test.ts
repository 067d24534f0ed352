import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32.js';

// zlib.crc32 exists from Node 20.15/22.2; the check value below is the standard one for "123456789".
const reference = (zlib as { crc32?: (b: Uint8Array) => number }).crc32;

describe('crc32', () => {
  it('gives the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it.skipIf(!reference)('matches zlib for every length 0..100 and at odd offsets', () => {
    const b = randomBytes(4096);
    for (let n = 0; n <= 100; n++) expect(crc32(b.subarray(0, n))).toBe(reference!(b.subarray(0, n)));
    for (const at of [1, 3, 7]) expect(crc32(b.subarray(at))).toBe(reference!(b.subarray(at)));
  });
});
