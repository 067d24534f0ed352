/** Median and spread of a sample (rounds of one benchmark cell); NaN values are left out. */
export function spread(values) {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return null;
  const at = (q) => {
    const i = (s.length - 1) * q;
    const lo = Math.floor(i);
    return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo);
  };
  const median = at(0.5);
  return {
    median,
    min: s[0],
    max: s.at(-1),
    q1: at(0.25),
    q3: at(0.75),
    n: s.length,
    spreadPct: median ? ((s.at(-1) - s[0]) / median) * 100 : NaN,
  };
}
