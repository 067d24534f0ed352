/** Small summary statistics for benchmark samples. */

/** @param {number[]} xs */
export const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/** @param {number[]} xs @param {number} q in [0, 1] */
export function quantile(xs, q) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos),
    hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/** @param {number[]} xs */
export const median = (xs) => quantile(xs, 0.5);

/** Round for tables: 3 significant digits, at most 2 decimals. @param {number} x */
export function round(x) {
  if (!Number.isFinite(x)) return x;
  const d = Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : 2;
  return Number(x.toFixed(d));
}

/** mulberry32: a small seeded generator, so that the same samples always give the same interval. */
function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Percentile-bootstrap interval of median(a) / median(b): each draw resamples both sets with replacement.
 * It says how far a ratio of medians may move from sampling alone, which one run's IQRs do not; it knows
 * nothing of what changes between runs (the machine's load). Undefined with fewer than 5 finite samples in
 * either set. @param {number[]} a @param {number[]} b
 * @param {{ draws?: number, level?: number, seed?: number }} [o]
 * @returns {[number, number] | undefined}
 */
export function ratioInterval(a, b, { draws = 2000, level = 0.95, seed = 1 } = {}) {
  const x = a.filter(Number.isFinite),
    y = b.filter(Number.isFinite);
  if (x.length < 5 || y.length < 5) return undefined;
  const random = seeded(seed);
  const draw = (xs) => median(Array.from(xs, () => xs[Math.floor(random() * xs.length)]));
  const ratios = [];
  for (let i = 0; i < draws; i++) {
    const d = draw(y);
    if (d > 0) ratios.push(draw(x) / d);
  }
  if (ratios.length === 0) return undefined;
  return [quantile(ratios, (1 - level) / 2), quantile(ratios, 1 - (1 - level) / 2)];
}
