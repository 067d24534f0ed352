/**
 * Paper 002: HTTP/1.0 vs HTTP/1.1 (persistent, pipelined) vs HTTP/1.1 with early close vs one package per
 * page, on a SURGE site with SURGE sessions (closed-loop user equivalents with OFF times), in a CPU-bound
 * setup (everything in the server's memory) and a memory-bound one (the server's in-memory cache limited
 * to a quarter of the corpus; objpack serve only, as nginx and the stand-in have no such cache).
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { generateSurgeSite } from '../../fixtures/generators/surge-site.mjs';
import { surgeSessions } from '../../fixtures/generators/surge-sessions.mjs';
import { startServer } from '../lib/servers.mjs';
import { startProxyProcess } from '../lib/proxy-process.mjs';
import { mean, round } from '../lib/stats.mjs';
import { closedLoop } from './load.mjs';

export const id = '002-surge';
export const title = '002 — HTTP/1.0, HTTP/1.1, early close and packages under a SURGE workload';

const POLICIES = {
  'HTTP/1.0': { mode: 'http10', keepAcrossPages: false },
  'HTTP/1.1 pipelined': { mode: 'pipelined', keepAcrossPages: true },
  'HTTP/1.1 early close': { mode: 'pipelined', keepAcrossPages: false },
  'Package per page': { mode: 'package', keepAcrossPages: true },
};

/** Package path of a page URL. @param {string} url */
export const packageOf = (url) => `/_pkg${url.replace(/\.html$/, '')}.objp`;

/**
 * @param {import('../lib/context.mjs').BenchContext} ctx
 * @param {{ pages?: number, users?: number[], durationMs?: number, offTimeScale?: number, rttMs?: number }} [o]
 */
export async function run(ctx, o = {}) {
  const pages = o.pages ?? (ctx.quick ? 200 : 2000);
  const usersList = o.users ?? (ctx.quick ? [32] : [16, 64, 160]);
  const durationMs = o.durationMs ?? (ctx.quick ? 3000 : 10_000);
  const offTimeScale = o.offTimeScale ?? 0.05;
  const rttMs = o.rttMs ?? 2;
  const root = join(ctx.tmp, 'site');
  ctx.log(`  generating a SURGE site of ${pages} pages`);
  const site = await generateSurgeSite({ pages, seed: 'bench-002', outDir: root });
  const types = { css: 'text/css', js: 'text/javascript', png: 'image/png', woff2: 'font/woff2', html: 'text/html' };
  for (const p of site.pages) {
    const objects = await Promise.all([p.url, ...p.closure].map(async (u) => ({ name: u, contentType: /** @type {Record<string,string>} */ (types)[u.split('.').pop() ?? ''] ?? 'application/octet-stream', body: new Uint8Array(await readFile(join(root, u))) })));
    const file = join(root, packageOf(p.url));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, ctx.format.encodePackageSync({ objects }));
  }
  const sessions = surgeSessions(site, { count: 4000, seed: 'bench-002', offTimeScale });
  const byUrl = new Map(site.pages.map((p) => [p.url, p]));
  const setups = [{ name: 'CPU-bound', options: {} }];
  if (ctx.objpackReal) setups.push({ name: 'memory-bound', options: { memoryBytes: Math.floor(site.totalBytes / 4), prefetch: false, maxMemoryFileBytes: 256 * 1024 } });
  const rows = [];
  for (const setup of setups) {
    for (const kind of setup.name === 'CPU-bound' ? ctx.servers : ['objpack']) {
      const srv = await startServer(/** @type {any} */ (kind), { root, dir: ctx.tmp, cpu: ctx.serverCpu, options: { holdMs: 5000, ...setup.options } });
      try {
        for (const [name, policy] of Object.entries(POLICIES)) {
          for (const users of usersList) {
            const proxy = await startProxyProcess({ targetPort: srv.port, rttMs });
            /** @type {{ s: number, i: number }[]} */
            const cursor = Array.from({ length: users }, (_, u) => ({ s: u, i: 0 }));
            await srv.reset();
            const r = await closedLoop({
              origin: `http://127.0.0.1:${proxy.port}`, clients: users, durationMs, policy: /** @type {any} */ (policy), Decoder: ctx.format.Decoder,
              nextPage: (u) => {
                const c = /** @type {{ s: number, i: number }} */ (cursor[u]);
                const sess = /** @type {import('../../fixtures/generators/surge-sessions.mjs').Session} */ (sessions[c.s % sessions.length]);
                const page = /** @type {import('../../fixtures/generators/surge-site.mjs').SurgePage} */ (byUrl.get(/** @type {string} */ (sess.pages[c.i])));
                const last = c.i === sess.pages.length - 1;
                const thinkMs = last ? 1000 * offTimeScale : /** @type {number} */ (sess.offTimesMs[c.i]);
                if (last) { c.s += users; c.i = 0; } else c.i++;
                return { paths: [page.url, ...page.closure], packagePath: packageOf(page.url), thinkMs, endSession: last };
              },
            });
            const st = await srv.stats();
            await proxy.close();
            const row = { setup: setup.name, server: srv.kind, policy: name, users, pages: r.latencies.length, requests: st.requests,
              pagesPerSec: r.latencies.length / r.seconds, requestsPerSec: st.requests / r.seconds, meanMs: mean(r.latencies),
              connSecondsPerPage: st.connSeconds / Math.max(1, r.latencies.length), connections: st.connections, cpuMsPerPage: st.cpuMs / Math.max(1, r.latencies.length), errors: r.errors, retries: r.retries, firstError: r.firstError };
            rows.push(row);
            ctx.log(`  ${setup.name} ${srv.kind} ${name} users=${users}: ${round(row.pagesPerSec)} pages/s, ${round(row.meanMs)} ms`);
          }
        }
      } finally {
        await srv.close();
      }
    }
  }
  const tables = [];
  const plots = [];
  for (const key of [...new Set(rows.map((r) => `${r.setup}|${r.server}`))]) {
    const [setupName, server] = key.split('|');
    const mine = rows.filter((r) => r.setup === setupName && r.server === server);
    tables.push({
      title: `${setupName} on ${server}: ${pages}-page SURGE site (${(site.totalBytes / 1e6).toFixed(1)} MB), RTT ${rttMs} ms, OFF times × ${offTimeScale}, ${durationMs / 1000} s per point`,
      columns: ['Policy', 'UEs', 'Pages/s', 'Requests/s', 'Mean page latency ms', 'vs HTTP/1.0', 'Conn-s per page', 'Server CPU ms/page', 'Retries / errors'],
      rows: mine.map((r) => {
        const base = mine.find((b) => b.users === r.users && b.policy === 'HTTP/1.0');
        return [r.policy, r.users, round(r.pagesPerSec), round(r.requestsPerSec), round(r.meanMs), `${Math.round((100 * r.meanMs) / (base?.meanMs ?? NaN))}%`,
          Number.isFinite(r.connSecondsPerPage) ? round(r.connSecondsPerPage) : 'n/a', round(r.cpuMsPerPage), `${r.retries} / ${r.errors}`];
      }),
    });
    plots.push({ name: `${setupName}-${server}-latency`.toLowerCase().replace(/[^a-z0-9]+/g, '-'), title: `002 ${setupName} on ${server}: mean page latency (ms)`, unit: ' ms',
      groups: usersList.map((u) => `${u} UEs`),
      series: Object.keys(POLICIES).map((p) => ({ label: p, values: usersList.map((u) => mine.find((r) => r.users === u && r.policy === p)?.meanMs ?? NaN) })) });
  }
  const notes = ['Paper 002: with the CPU as bottleneck HTTP/1.1 beats HTTP/1.0 in throughput; with memory as bottleneck HTTP/1.1 is much worse because idle persistent connections hold memory; early close recovers most of it with 17% more packets than HTTP/1.1.',
    'Conn-s (connection-seconds) come from the server process; nginx does not report them (n/a).'];
  if (!ctx.objpackReal) notes.push('Memory-bound setup not run: it needs @objpack/serve\'s memoryBytes limit.');
  return { id, title, raw: rows, tables, plots, notes };
}
