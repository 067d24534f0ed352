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

/** Median and spread of every number the runs of one cell share. */
export function summarize(runs) {
  const keys = [
    'reqPerSec',
    'mbPerSec',
    'serverCpuUsPerRequest',
    'serverUserUsPerRequest',
    'serverSysUsPerRequest',
    'serverCpuPct',
    'clientCpuPct',
  ];
  const out = {};
  for (const k of keys) if (runs.some((r) => Number.isFinite(r[k]))) out[k] = spread(runs.map((r) => r[k]));
  out.clientBoundRuns = runs.filter((r) => r.clientBound).length;
  out.runs = runs;
  return out;
}

/** Per-round ratios a/b of `key` (rounds ran back to back, so drift cancels better than in medians). */
export const pairedRatio = (a, b, key = 'reqPerSec') => spread(a.map((r, i) => r[key] / b[i][key]));
export const rotate = (xs, n) => xs.map((_, i) => xs[(i + n) % xs.length]);
export const fmt = (s, d = 0) => (s ? `${s.median.toFixed(d)} [${s.min.toFixed(d)}–${s.max.toFixed(d)}]` : '–');
