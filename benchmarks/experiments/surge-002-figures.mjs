// The plots and notes of experiment 002's report (surge-002.mjs writes the tables).
/** @typedef {import('./surge-002.mjs').Row} Row */

/**
 * Mean page latency and throughput by load level, one series per policy, for each setup and server.
 * @param {Row[]} rows
 */
export function plots(rows) {
  const out = [];
  for (const key of [...new Set(rows.map((r) => `${r.setup}|${r.server}`))]) {
    const [setupName, server] = key.split('|');
    const mine = rows.filter((r) => r.setup === setupName && r.server === server);
    const users = [...new Set(mine.map((r) => r.users))];
    const policies = [...new Set(mine.map((r) => r.policy))];
    const series = (/** @type {(r: Row) => number} */ f) =>
      policies.map((p) => ({
        label: p,
        values: users.map((u) => {
          const r = mine.find((x) => x.users === u && x.policy === p);
          return r ? f(r) : NaN;
        }),
      }));
    const slug = `${setupName}-${server}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const groups = users.map((u) => `${u} UEs`);
    out.push({
      name: `${slug}-latency`,
      title: `002 ${setupName} on ${server}: mean page latency (ms)`,
      unit: ' ms',
      groups,
      series: series((r) => r.meanMs),
    });
    out.push({
      name: `${slug}-throughput`,
      title: `002 ${setupName} on ${server}: throughput (pages/s)`,
      unit: '',
      groups,
      series: series((r) => r.pagesPerSec),
    });
  }
  return out;
}

/**
 * What the paper reports and how this run differs from its setup.
 * @param {import('../lib/context.mjs').BenchContext} ctx
 */
export function notes(ctx) {
  const n = [
    'Paper 002 (Figures 3–12; no numeric tables for throughput or latency): CPU-bound, HTTP/1.0 and HTTP/1.1 ' +
      'perform about the same; memory-bound, HTTP/1.1 is much worse than HTTP/1.0 because idle persistent ' +
      'connections take memory from the file cache; early close performs as well as HTTP/1.0 in throughput, ' +
      'with 17 % more packets than HTTP/1.1.',
    'Memory-bound is emulated (benchmarks/lib/memory-model.mjs): RAM = 30 % of the corpus, shared by an LRU ' +
      'file cache and the connections (002 Fig. 9: 81 KB per idle, 378 KB per active connection, scaled by ' +
      'corpus / 50 MB); a 1998 disk (10 ms + 10 MB/s per miss, times scaled like the OFF times); the cache ' +
      "starts filled with the most popular pages. This is Apache 1.3's process-per-connection memory, not " +
      "objpack serve's (a few KB per connection).",
    'Conn-s (connection-seconds) come from the server process; nginx does not report them (n/a).',
  ];
  if (!ctx.objpackReal) n.push('Memory-bound setup not run: it needs @objpack/serve.');
  return n;
}
