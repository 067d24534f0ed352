/**
 * Paper 004: (a) persistent vs per-object connections for a page of 10 objects of 2.8 KB; (b) mirror
 * racing (the proxy query protocol): time to first byte with 3 mirrors (one near, one slow, one down)
 * vs the origin alone, and when the near mirror lacks the object or every mirror fails.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { createFiller, padTo, paragraphPad, pngOfSize } from '../../fixtures/generators/content.mjs';
import { fetchPage } from '../lib/page-client.mjs';
import { directTtfb, raceMirrors } from '../lib/mirror-race.mjs';
import { startServer } from '../lib/servers.mjs';
import { startProxyProcess } from '../lib/proxy-process.mjs';
import { median, round } from '../lib/stats.mjs';

export const id = '004-persistent-mirrors';
export const title = '004 — Persistent connections and mirror racing (proxy query protocol)';

/**
 * @param {import('../lib/context.mjs').BenchContext} ctx
 * @param {{ runs?: number, rtts?: number[], raceRuns?: number, raceTimeoutMs?: number }} [o]
 */
export async function run(ctx, o = {}) {
  const runs = o.runs ?? (ctx.quick ? 5 : 20);
  const rtts = o.rtts ?? (ctx.quick ? [0, 20] : [0, 20, 100]);
  const root = join(ctx.tmp, 'site');
  await mkdir(join(root, 'img'), { recursive: true });
  const f = createFiller('004');
  const imgs = Array.from({ length: 10 }, (_, i) => `/img/o${i}.png`);
  for (const u of imgs) await writeFile(join(root, u), pngOfSize(f, 2800, u));
  await writeFile(
    join(root, 'index.html'),
    padTo(
      `<!doctype html><title>004</title>\n${imgs.map((u) => `<img src="${u}">`).join('\n')}\n`,
      '',
      2800,
      paragraphPad(f, '004'),
    ),
  );
  const paths = ['/index.html', ...imgs];
  const rows = [];
  for (const kind of ctx.servers) {
    const srv = await startServer(kind, { root, dir: ctx.tmp, cpu: ctx.serverCpu });
    try {
      for (const rtt of rtts) {
        const proxy = rtt ? await startProxyProcess({ targetPort: srv.port, rttMs: rtt }) : null;
        const origin = proxy ? `http://127.0.0.1:${proxy.port}` : srv.url;
        try {
          const t = { perObject: /** @type {number[]} */ ([]), persistent: /** @type {number[]} */ ([]) };
          const n = rtt ? Math.max(2, Math.ceil(runs / 2)) : runs * 4;
          if (!rtt) await fetchPage({ origin, paths, mode: 'keepalive' });
          for (let i = 0; i < n; i++) {
            t.perObject.push((await fetchPage({ origin, paths, mode: 'http10', htmlFirst: true })).ms);
            t.persistent.push((await fetchPage({ origin, paths, mode: 'keepalive' })).ms);
          }
          rows.push({ server: srv.kind, rtt, perObjectMs: median(t.perObject), persistentMs: median(t.persistent) });
        } finally {
          await proxy?.close();
        }
      }
    } finally {
      await srv.close();
    }
  }
  const tables = [
    {
      title:
        'Page of 10 objects of 2.8 KB: per-object connections vs one persistent connection, median ms ' +
        '(paper: ≈55% less latency)',
      columns: ['Server', 'RTT ms', 'Per-object', 'Persistent', 'Persistent saves'],
      rows: rows.map((r) => [
        r.server,
        r.rtt,
        round(r.perObjectMs),
        round(r.persistentMs),
        `${Math.round(100 - (100 * r.persistentMs) / r.perObjectMs)}%`,
      ]),
    },
  ];
  const plots = [
    {
      name: 'persistent',
      title: '004: page of 10 × 2.8 KB, median ms',
      unit: ' ms',
      groups: rows.map((r) => `${r.server} ${r.rtt} ms`),
      series: [
        { label: 'per-object connections', values: rows.map((r) => r.perObjectMs) },
        { label: 'persistent', values: rows.map((r) => r.persistentMs) },
      ],
    },
  ];

  // (b) Mirror racing.
  const raceRows = await mirrorRace(ctx, o.raceRuns ?? (ctx.quick ? 5 : 20), o.raceTimeoutMs ?? 400);
  tables.push({
    title:
      'Mirror racing: time to first byte of a 2.8 KB object, median ms (origin RTT 80 ms; near mirror 5 ms, ' +
      'slow mirror 150 ms, third mirror down: accepts and never answers; race timeout 400 ms)',
    columns: ['Scenario', 'TTFB ms', 'vs origin only', 'Served by'],
    rows: raceRows.map((r) => [
      r.scenario,
      round(r.ttfbMs),
      `${Math.round((100 * r.ttfbMs) / (raceRows[0]?.ttfbMs ?? NaN))}%`,
      r.source,
    ]),
  });
  plots.push({
    name: 'mirrors',
    title: '004: mirror racing, TTFB (ms)',
    unit: ' ms',
    groups: raceRows.map((r) => r.scenario),
    series: [{ label: 'TTFB', values: raceRows.map((r) => r.ttfbMs) }],
  });
  return {
    id,
    title,
    raw: { persistent: rows, mirrors: raceRows },
    tables,
    plots,
    notes: [
      'Paper 004 measured about 55% less latency with persistent connections over a WAN between Taichung and ' +
        'Taipei; the proxy query protocol used UDP queries to caches with a timer, falling back to the origin.',
    ],
  };
}

/**
 * @param {import('../lib/context.mjs').BenchContext} ctx
 * @param {number} runs
 * @param {number} timeoutMs how long a race waits for a mirror before it asks the origin
 */
async function mirrorRace(ctx, runs, timeoutMs) {
  const full = join(ctx.tmp, 'mirror-full'),
    partial = join(ctx.tmp, 'mirror-partial');
  const f = createFiller('004-mirrors');
  for (const d of [full, partial]) await mkdir(join(d, 'o'), { recursive: true });
  const common = pngOfSize(f, 2800, 'common'),
    rare = pngOfSize(f, 2800, 'rare');
  await writeFile(join(full, 'o/common.png'), common);
  await writeFile(join(full, 'o/rare.png'), rare);
  await writeFile(join(partial, 'o/common.png'), common);
  const kind = ctx.servers[0] ?? 'objpack';
  const originSrv = await startServer(kind, { root: full, dir: join(ctx.tmp, 'o1'), cpu: ctx.serverCpu });
  const nearSrv = await startServer(kind, { root: partial, dir: join(ctx.tmp, 'o2'), cpu: ctx.serverCpu });
  const slowSrv = await startServer(kind, { root: full, dir: join(ctx.tmp, 'o3'), cpu: ctx.serverCpu });
  // "Down": accepts connections and never answers (worse than a refused connection: only a timer helps).
  /** @type {Set<net.Socket>} */
  const held = new Set();
  const blackhole = net.createServer((sock) => {
    held.add(sock);
    sock.on('error', () => {});
    sock.resume();
  });
  await new Promise((r) => blackhole.listen(0, '127.0.0.1', () => r(undefined)));
  const down = `http://127.0.0.1:${/** @type {net.AddressInfo} */ (blackhole.address()).port}`;
  const proxies = await Promise.all([
    startProxyProcess({ targetPort: originSrv.port, rttMs: 80 }),
    startProxyProcess({ targetPort: nearSrv.port, rttMs: 5 }),
    startProxyProcess({ targetPort: slowSrv.port, rttMs: 150 }),
  ]);
  const [origin, near, slow] = proxies.map((p) => `http://127.0.0.1:${p.port}`);
  const name = new Map([
    [origin, 'origin'],
    [near, 'near mirror'],
    [slow, 'slow mirror'],
    [down, 'down mirror'],
  ]);
  /** @type {{ scenario: string, ttfbMs: number, source: string }[]} */
  const rows = [];
  try {
    const scenario = async (
      /** @type {string} */ label,
      /** @type {() => Promise<{ ttfbMs: number, source: string }>} */ once,
    ) => {
      const xs = [];
      let source = '';
      for (let i = 0; i < runs; i++) {
        const r = await once();
        xs.push(r.ttfbMs);
        source = r.source;
      }
      rows.push({ scenario: label, ttfbMs: median(xs), source: name.get(source) ?? source });
    };
    await scenario('origin only', async () => ({
      ttfbMs: await directTtfb(/** @type {string} */ (origin), '/o/common.png'),
      source: /** @type {string} */ (origin),
    }));
    await scenario('race 3 mirrors (near has it)', () =>
      raceMirrors({
        mirrors: [/** @type {string} */ (near), /** @type {string} */ (slow), down],
        origin: /** @type {string} */ (origin),
        path: '/o/common.png',
        timeoutMs,
      }),
    );
    await scenario('race 3 mirrors (near lacks it)', () =>
      raceMirrors({
        mirrors: [/** @type {string} */ (near), /** @type {string} */ (slow), down],
        origin: /** @type {string} */ (origin),
        path: '/o/rare.png',
        timeoutMs,
      }),
    );
    await scenario('race, only the down mirror', () =>
      raceMirrors({ mirrors: [down], origin: /** @type {string} */ (origin), path: '/o/common.png', timeoutMs }),
    );
  } finally {
    await Promise.all(proxies.map((p) => p.close()));
    await Promise.all([originSrv, nearSrv, slowSrv].map((s) => s.close()));
    for (const sock of held) sock.destroy();
    await new Promise((r) => blackhole.close(() => r(undefined)));
  }
  ctx.log(`  mirrors: ${rows.map((r) => `${r.scenario} ${round(r.ttfbMs)} ms`).join(', ')}`);
  return rows;
}
