import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSha256, sha256 } from './sha256.js';
import { digestToSri, fromBase64, sriToDigest, toBase64 } from './sri.js';

const ref = (b: Uint8Array) => new Uint8Array(createHash('sha256').update(b).digest());

describe('sha256 (portable)', () => {
  it('matches node:crypto for every length 0..300 and a large input', () => {
    for (let n = 0; n <= 300; n++) {
      const b = randomBytes(n);
      expect(sha256(b)).toEqual(ref(b));
    }
    const big = randomBytes(1_000_003);
    expect(sha256(big)).toEqual(ref(big));
  });

  it('gives the same digest however the input is split', () => {
    const b = randomBytes(777);
    for (const step of [1, 3, 63, 64, 65, 500]) {
      const h = createSha256();
      for (let i = 0; i < b.length; i += step) h.update(b.subarray(i, i + step));
      expect(h.digest()).toEqual(ref(b));
    }
  });
});

describe('SRI and base64', () => {
  it('round-trips and matches Buffer base64', () => {
    for (let n = 0; n < 40; n++) {
      const b = randomBytes(n);
      expect(toBase64(b)).toBe(Buffer.from(b).toString('base64'));
      expect(fromBase64(toBase64(b))).toEqual(new Uint8Array(b));
    }
    const d = ref(new Uint8Array(3));
    expect(sriToDigest(digestToSri(d))).toEqual(d);
    expect(sriToDigest('sha384-abc')).toBeNull();
    expect(fromBase64('a*bc')).toBeNull();
  });
});
