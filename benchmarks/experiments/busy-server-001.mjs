/**
 * Paper 001: a busy server with a pool of 20 (a connection cap of 20 in front of the server: later
 * connections wait, as in a listen backlog), clients loading pages of 10 objects of 45 KB with think
 * times; a fixed holding time (the client keeps its connection, the server closes it when idle) vs the
 * client closing its connection when the page's last object has arrived (CHCM), and HTTP/1.0.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFiller, padTo, paragraphPad, pngOfSize } from '../../fixtures/generators/content.mjs';
import { createRng } from '../../fixtures/generators/prng.mjs';
import { offTime } from '../../fixtures/generators/surge-sessions.mjs';
import { writeBenchManifest } from '../lib/bench-manifest.mjs';
import { startServer } from '../lib/servers.mjs';
import { startProxyProcess } from '../lib/proxy-process.mjs';
import { mean, quantile, round } from '../lib/stats.mjs';
import { closedLoop } from './load.mjs';

export const id = '001-busy-server';
export const title = '001 — Busy server with a pool of 20: fixed holding time vs client-side closure-aware closing';

const SERVER_CLOSURE = 'server closes after closure (objpack closureHoldMs)';
const POLICIES = {
  'HTTP/1.0': { mode: 'http10', keepAcrossPages: false },
  'holding time': { mode: 'keepalive', keepAcrossPages: true },
  'CHCM (client closes after last object)': { mode: 'keepalive', keepAcrossPages: false },
  // The client keeps its connection like a browser; objpack serve knows the page's closure from the
  // manifest and closes the connection closureHoldMs after sending the last object.
  [SERVER_CLOSURE]: { mode: 'keepalive', keepAcrossPages: true, serverClosure: true },
};

/**
 * @param {import('../lib/context.mjs').BenchContext} ctx
 * @param {{ clients?: number[], durationMs?: number, holdMs?: number, closureHoldMs?: number, thinkScale?: number,
 * rttMs?: number, servers?: string[] }} [o]
 */
export async function run(ctx, o = {}) {
  const clientsList = o.clients ?? (ctx.quick ? [10, 40] : [5, 10, 20, 30, 40, 60]);
  const durationMs = o.durationMs ?? (ctx.quick ? 3000 : 10_000);
  const holdMs = o.holdMs ?? 2000;
  const closureHoldMs = o.closureHoldMs ?? 100;
  const thinkScale = o.thinkScale ?? 0.2; // Pareto k 1 s α 1.4 OFF times, compressed to keep runs short
  const rttMs = o.rttMs ?? 10;
  const servers = o.servers ?? (ctx.quick ? ctx.servers.slice(0, 1) : ctx.servers);
  const site = join(ctx.tmp, 'site');
  await mkdir(join(site, 'img'), { recursive: true });
  const f = createFiller('001');
  const imgs = Array.from({ length: 10 }, (_, i) => `/img/i${i}.png`);
  for (const p of imgs) await writeFile(join(site, p), pngOfSize(f, 45_000, p));
  await writeFile(
    join(site, 'index.html'),
    padTo(
      `<!doctype html><title>001</title>\n${imgs.map((p) => `<img src="${p}">`).join('\n')}\n`,
      '',
      2000,
      paragraphPad(f, 'html'),
    ),
  );
  const paths = ['/index.html', ...imgs];
  await writeBenchManifest(site, [{ url: '/index.html', closure: imgs }]);
  const rows = [];
  for (const kind of servers) {
    for (const [name, policy] of Object.entries(POLICIES)) {
      if ('serverClosure' in policy && kind !== 'objpack') continue;
      const srv = await startServer(/** @type {any} */ (kind), {
        root: site,
        dir: ctx.tmp,
        cpu: ctx.serverCpu,
        // The paper's policy: the short hold whatever the number of open connections.
        options: { holdMs, closureHoldMs: 'serverClosure' in policy ? closureHoldMs : holdMs, closureHoldFrom: 0 },
      });
      if ('serverClosure' in policy && srv.kind !== 'objpack') {
        await srv.close();
        continue;
      }
      try {
        for (const clients of clientsList) {
          const proxy = await startProxyProcess({ targetPort: srv.port, rttMs, maxConnections: 20 });
          const rng = createRng(`001/${name}/${clients}`);
          await srv.reset();
          const r = await closedLoop({
            origin: `http://127.0.0.1:${proxy.port}`,
            clients,
            durationMs,
            policy: /** @type {any} */ (policy),
            nextPage: () => ({ paths, thinkMs: offTime(rng) * 1000 * thinkScale }),
          });
          const st = await srv.stats();
          await proxy.close();
          const row = {
            server: srv.kind,
            policy: name,
            clients,
            pages: r.latencies.length,
            errors: r.errors,
            retries: r.retries,
            firstError: r.firstError,
            meanMs: mean(r.latencies),
            p95Ms: quantile(r.latencies, 0.95),
            cpuMsPerPage: st.cpuMs / Math.max(1, r.latencies.length),
            pagesPerSec: r.latencies.length / r.seconds,
            connSeconds: st.connSeconds,
          };
          rows.push(row);
          ctx.log(`  ${srv.kind} ${name} clients=${clients}: mean ${round(row.meanMs)} ms, ${row.pages} pages`);
        }
      } finally {
        await srv.close();
      }
    }
  }
  const tables = [];
  const plots = [];
  for (const server of [...new Set(rows.map((r) => r.server))]) {
    const mine = rows.filter((r) => r.server === server);
    const base = (/** @type {number} */ c) => mine.find((r) => r.clients === c && r.policy === 'holding time');
    tables.push({
      title:
        `${server}: pages of 10 × 45 KB, cap 20, holding time ${holdMs} ms (closure hold ${closureHoldMs} ms), ` +
        `RTT ${rttMs} ms, ${durationMs / 1000} s per point`,
      columns: [
        'Policy',
        'Clients',
        'Pages',
        'Mean latency ms',
        'p95 ms',
        'vs holding time',
        'Server CPU ms/page',
        'Conn-s',
        'Retries / errors',
      ],
      rows: mine.map((r) => [
        r.policy,
        r.clients,
        r.pages,
        round(r.meanMs),
        round(r.p95Ms),
        `${Math.round((100 * r.meanMs) / (base(r.clients)?.meanMs ?? NaN))}%`,
        round(r.cpuMsPerPage),
        Number.isFinite(r.connSeconds) ? round(r.connSeconds) : 'n/a',
        `${r.retries} / ${r.errors}`,
      ]),
    });
    plots.push({
      name: `${server}-latency`,
      title: `001 on ${server}: mean page latency (ms) by clients`,
      unit: ' ms',
      groups: clientsList.map((c) => `${c} clients`),
      series: Object.keys(POLICIES)
        .filter((p) => mine.some((r) => r.policy === p))
        .map((p) => ({
          label: p,
          values: clientsList.map((c) => mine.find((r) => r.clients === c && r.policy === p)?.meanMs ?? NaN),
        })),
    });
  }
  const notes = [
    'Paper 001: CHCM lowers latency by about 5–20% and server CPU by 5–15% once clients exceed the pool of ' +
      '20; below 20 clients holding time is slightly faster.',
  ];
  if (!ctx.objpackReal) notes.push('The server-side closure-aware policy needs @objpack/serve and was not measured.');
  return { id, title, raw: rows, tables, plots, notes };
}
