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
