/**
 * Plan quality on the SURGE-like site: requests per navigation and bytes sent over 10-page
 * browsing sessions against the unique bytes those pages need. Uses the emitted packages' real sizes.
 *
 *   node benchmarks/build/session-measure.mjs [--pages 1000] [--sessions 300] [--length 10] [--json]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, sessionCost } from 'objpack';
import { generateSurgeSite, surgeSessions } from '../../fixtures/generators/index.mjs';

export async function measureSessions({
  pages = 1000,
  sessions = 300,
  length = 10,
  seed = 'objpack-surge',
  plan = {},
} = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'objpack-session-'));
  try {
    const site = await generateSurgeSite({ pages, seed, outDir: path.join(dir, 'site') });
    const result = await build({
      root: path.join(dir, 'site'),
      out: path.join(dir, 'out'),
      serviceWorker: false,
      report: false,
      cache: false,
      ...plan,
    });
    const runs = surgeSessions(site, { count: sessions, length, seed: `${seed}-sessions` }).map((s) =>
      sessionCost(result, s.pages),
    );
    const sum = (f) => runs.reduce((a, r) => a + f(r), 0);
    const ratios = runs.map((r) => r.ratio).sort((a, b) => a - b);
    const q = (p) => ratios[Math.min(ratios.length - 1, Math.floor(p * ratios.length))];
    return {
      pages,
      sessions,
      length,
      plan: result.plan.stats,
      // Aggregate ratio: all bytes sent over all bytes needed (robust to tiny sessions).
      bytesRatio: sum((r) => r.bytesSent) / sum((r) => r.uniqueBytes),
      medianSessionRatio: q(0.5),
      p95SessionRatio: q(0.95),
      requestsPerNavigation: sum((r) => r.requests) / sum((r) => r.navigations),
      objectsPerNavigation: result.summary.requestsBefore / result.summary.pages,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, def) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : def;
  };
  const r = await measureSessions({
    pages: arg('pages', 1000),
    sessions: arg('sessions', 300),
    length: arg('length', 10),
  });
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
}
