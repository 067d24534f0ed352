import { describe, expect, it } from 'vitest';
import { ratioInterval } from './stats.mjs';

/** `n` samples around `center`, spread over ±15 by a fixed rule, whatever `n`. */
const around = (center: number, n = 15) => Array.from({ length: n }, (_, i) => center + ((i * 7) % 31) - 15);

describe('ratioInterval', () => {
  it('holds the ratio of the medians, and 1 for two sets from the same spread', () => {
    const a = around(100),
      b = around(100).reverse();
    const [lo, hi] = ratioInterval(a, b)!;
    expect(lo).toBeLessThanOrEqual(1);
    expect(hi).toBeGreaterThanOrEqual(1);
    expect(hi - lo).toBeLessThan(0.3);
  });

  it('leaves 1 out when one set is clearly slower, and narrows as samples grow', () => {
    const [lo, hi] = ratioInterval(around(130), around(100))!;
    expect(lo).toBeGreaterThan(1.1);
    expect(hi).toBeLessThan(1.5);
    const [wideLo, wideHi] = ratioInterval(around(130, 7), around(100, 7))!;
    const [narrowLo, narrowHi] = ratioInterval(around(130, 61), around(100, 61))!;
    expect(narrowHi - narrowLo).toBeLessThan(wideHi - wideLo);
  });

  it('is the same on every call (seeded), skips non-finite samples, and needs 5 of each', () => {
    const a = [...around(120), NaN, Infinity];
    expect(ratioInterval(a, around(100))).toEqual(ratioInterval(a, around(100)));
    expect(ratioInterval([1, 2, 3, 4], around(100))).toBeUndefined();
    expect(ratioInterval(around(100), [NaN, NaN, NaN, NaN, NaN, 1])).toBeUndefined();
  });
});
