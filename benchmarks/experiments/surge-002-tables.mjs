/** The result tables of experiment 002 (surge-002.mjs): throughput, latency and connections per policy. */
import { round } from '../lib/stats.mjs';
import { PAPER_002, paperAt } from './surge-002.mjs';

/** @typedef {import('./surge-002.mjs').Row} Row @typedef {import('./surge-002.mjs').Setup} Setup */

export const pct = (/** @type {number} */ x) => (Number.isFinite(x) ? `${Math.round(100 * x)}%` : 'n/a');
export const hitRatio = (/** @type {Row} */ r) =>
  r.memory ? r.memory.hits / Math.max(1, r.memory.hits + r.memory.misses) : NaN;

/**
 * @param {Row[]} rows @param {Setup[]} setups
 * @param {{ pages: number, totalBytes: number, packageBytes: number, durationMs: number }} m
 */
export function tables(rows, setups, m) {
  const out = [];
  for (const key of [...new Set(rows.map((r) => `${r.setup}|${r.server}`))]) {
    const [setupName, server] = key.split('|');
    const setup = /** @type {Setup} */ (setups.find((s) => s.name === setupName));
    const mine = rows.filter((r) => r.setup === setupName && r.server === server);
    const base = (/** @type {Row} */ r) => mine.find((b) => b.users === r.users && b.policy === 'HTTP/1.0');
    const vs = (/** @type {number} */ a, /** @type {number | undefined} */ b) => pct(a / (b ?? NaN));
    const where =
      `${m.pages}-page SURGE site (${(m.totalBytes / 1e6).toFixed(1)} MB of files, ` +
      `${(m.packageBytes / 1e6).toFixed(1)} MB of packages), ` +
      `${setup.rttMs ? `RTT ${setup.rttMs} ms (delay proxy)` : 'loopback, no proxy'}, OFF times × ${setup.scale}, ` +
      `holding time ${setup.holdMs} ms, ${m.durationMs / 1000} s per point`;
    const mm = setup.memoryModel;
    if (!mm) {
      out.push({
        title:
          `${setupName} on ${server}: ${where}. Ratios: % of HTTP/1.0 at the same load — ours (paper, Tables ` +
          `6–7, Apache at 40/280/520 UEs)`,
        columns: [
          'Policy',
          'UEs',
          'Pages/s',
          'Pages/s vs HTTP/1.0',
          'Mean page latency ms',
          'Latency vs HTTP/1.0',
          'p95 ms',
          'Conn-s per page',
          'Conn-s vs HTTP/1.0',
          'Connections vs HTTP/1.0',
          'Server CPU ms/page',
          'Retries / errors',
        ],
        rows: mine.map((r) => {
          const b = base(r);
          const p11 = r.policy === 'HTTP/1.1 pipelined',
            pec = r.policy === 'HTTP/1.1 early close';
          const paperCs = p11 ? ` (${pct(paperAt(PAPER_002.connSecondsRatio, setup.users, r.users))})` : '';
          const paperConn = p11
            ? ` (${pct(paperAt(PAPER_002.connectsRatio11, setup.users, r.users))})`
            : pec
              ? ` (${pct(paperAt(PAPER_002.connectsRatioEarlyClose, setup.users, r.users))})`
              : '';
          const cs = Number.isFinite(r.connSecondsPerPage);
          return [
            r.policy,
            r.users,
            round(r.pagesPerSec),
            vs(r.pagesPerSec, b?.pagesPerSec),
            round(r.meanMs),
            vs(r.meanMs, b?.meanMs),
            round(r.p95Ms),
            cs ? round(r.connSecondsPerPage) : 'n/a',
            cs ? `${vs(r.connSecondsPerPage, b?.connSecondsPerPage)}${paperCs}` : 'n/a',
            Number.isFinite(r.connections) ? `${vs(r.connections, b?.connections)}${paperConn}` : 'n/a',
            round(r.cpuMsPerPage),
            `${r.retries} / ${r.errors}`,
          ];
        }),
      });
      continue;
    }
    out.push({
      title:
        `${setupName} on ${server} (emulated): RAM ${(mm.memoryBytes / 1e6).toFixed(2)} MB = ` +
        `${Math.round(100 * PAPER_002.cacheShare)} % of the files, ${(mm.idleConnBytes / 1e3).toFixed(1)} KB per ` +
        `idle and ${(mm.activeConnBytes / 1e3).toFixed(1)} KB per active connection, disk ${round(mm.seekMs)} ms + ` +
        `size at ${round(mm.bytesPerMs / 1e3)} MB/s per miss; ${where}`,
      columns: [
        'Policy',
        'UEs',
        'Pages/s',
        'Pages/s vs HTTP/1.0',
        'Mean page latency ms',
        'Latency vs HTTP/1.0',
        'p95 ms',
        'Conn-s per page',
        'Conn-s vs HTTP/1.0',
        'Mean open connections',
        'Cache hit ratio',
        'Smallest cache (% of RAM)',
        'Disk busy',
        'Server CPU ms/page',
        'Retries / errors',
      ],
      rows: mine.map((r) => {
        const b = base(r);
        return [
          r.policy,
          r.users,
          round(r.pagesPerSec),
          vs(r.pagesPerSec, b?.pagesPerSec),
          round(r.meanMs),
          vs(r.meanMs, b?.meanMs),
          round(r.p95Ms),
          round(r.connSecondsPerPage),
          vs(r.connSecondsPerPage, b?.connSecondsPerPage),
          round(r.openConnections),
          pct(hitRatio(r)),
          pct((r.memory?.minCacheBytes ?? NaN) / mm.memoryBytes),
          pct(r.diskBusy ?? NaN),
          round(r.cpuMsPerPage),
          `${r.retries} / ${r.errors}`,
        ];
      }),
    });
  }
  return out;
}
