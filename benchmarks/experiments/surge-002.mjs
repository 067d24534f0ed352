/**
 * Paper 002: HTTP/1.0 vs HTTP/1.1 (persistent, pipelined) vs HTTP/1.1 with early close vs one package per
 * page, on a SURGE site with SURGE sessions (closed-loop user equivalents with OFF times), in a CPU-bound
 * setup (every file in memory) and a memory-bound one: RAM below the corpus size, shared by the file cache
 * and the connections, and a disk for the misses — emulated in front of the real server
 * (lib/memory-model.mjs), because loopback on a 24 GiB machine has neither.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { generateSurgeSite } from '../../fixtures/generators/surge-site.mjs';
import { surgeSessions } from '../../fixtures/generators/surge-sessions.mjs';
import { startServer } from '../lib/servers.mjs';
import { startProxyProcess } from '../lib/proxy-process.mjs';
import { mean, quantile, round } from '../lib/stats.mjs';
import { closedLoop } from './load.mjs';
import { notes, plots } from './surge-002-figures.mjs';
import { hitRatio, pct, tables } from './surge-002-tables.mjs';

export const id = '002-surge';
export const title = '002 — HTTP/1.0, HTTP/1.1, early close and packages under a SURGE workload';

/** @type {Record<string, import('./load.mjs').LoadPolicy>} */
export const POLICIES = {
  'HTTP/1.0': { mode: 'http10', keepAcrossPages: false },
  'HTTP/1.1 pipelined': { mode: 'pipelined', keepAcrossPages: true },
  'HTTP/1.1 early close': { mode: 'pipelined', keepAcrossPages: false },
  'Package per page': { mode: 'package', keepAcrossPages: true },
  'Package, early close': { mode: 'package', keepAcrossPages: false },
};

/** Package path of a page URL. @param {string} url */
export const packageOf = (url) => `/_pkg${url.replace(/\.html$/, '')}.objp`;

/**
 * 002's Apache set-up (§3, §4.3, Appendix C) that the memory-bound emulation scales. Memory is scaled by
 * our corpus / their 50 MB; times by the OFF-time scale, so a user equivalent is a paper UE in fast motion.
 */
export const PAPER_002 = Object.freeze({
  corpusBytes: 50e6,
  // 32 MB of RAM minus Apache (≈ 14 MB) and the kernel leaves ≈ 30 % of the 50 MB file set for the cache.
  cacheShare: 0.3,
  idleConnBytes: 81e3, // Fig. 9: per mostly idle (HTTP/1.1) connection
  activeConnBytes: 378e3, // Fig. 9: per active (HTTP/1.0) connection
  diskSeekMs: 10, // a 1998 disk: ≈ 10 ms per access and ≈ 10 MB/s
  diskBytesPerMs: 10e3,
  keepAliveTimeoutMs: 15_000, // Appendix C, KeepAliveTimeout 15
  // Table 6 (CPU-bound, Apache, 128 MB) at 40 / 280 / 520 UEs: HTTP/1.1 connection-seconds and
  // connections as a ratio of HTTP/1.0's; Table 7: early close's connections.
  connSecondsRatio: [29659 / 218, 206486 / 3353, 412449 / 18388],
  connectsRatio11: [2278 / 10902, 15194 / 83826, 26456 / 153231],
  connectsRatioEarlyClose: [7876 / 10902, 54667 / 83826, 96776 / 153231],
});

/**
 * @typedef {object} Row
 * @property {string} setup
 * @property {string} server
 * @property {string} policy
 * @property {number} users
 * @property {number} pages
 * @property {number} requests
 * @property {number} pagesPerSec
 * @property {number} requestsPerSec
 * @property {number} meanMs
 * @property {number} p95Ms
 * @property {number} connSecondsPerPage
 * @property {number} openConnections connections open on average (connection-seconds / seconds)
 * @property {number} connections
 * @property {number} cpuMsPerPage
 * @property {number} errors
 * @property {number} retries
 * @property {string} [firstError]
 * @property {import('../lib/memory-model.mjs').MemoryModelStats & { capacityNow: number }} [memory]
 * @property {number} [diskBusy] share of the run the emulated disk was busy
 */

/**
 * @param {import('../lib/context.mjs').BenchContext} ctx
 * @param {{ pages?: number, users?: number[], memUsers?: number[], durationMs?: number, offTimeScale?: number,
 *   memOffTimeScale?: number, cacheShare?: number, rttMs?: number, memRttMs?: number, policies?: string[], setups?:
 * string[] }} [o]
 */
export async function run(ctx, o = {}) {
  const pages = o.pages ?? (ctx.quick ? 200 : 2000);
  const durationMs = o.durationMs ?? (ctx.quick ? 2000 : 8000);
  const policyNames = o.policies ?? Object.keys(POLICIES);
  const root = join(ctx.tmp, 'site');
  ctx.log(`  generating a SURGE site of ${pages} pages`);
  const site = await generateSurgeSite({ pages, seed: 'bench-002', outDir: root });
  const types = { css: 'text/css', js: 'text/javascript', png: 'image/png', woff2: 'font/woff2', html: 'text/html' };
  let packageBytes = 0;
  for (const p of site.pages) {
    const objects = await Promise.all(
      [p.url, ...p.closure].map(async (u) => ({
        name: u,
        contentType:
          /** @type {Record<string,string>} */ (types)[u.split('.').pop() ?? ''] ?? 'application/octet-stream',
        body: new Uint8Array(await readFile(join(root, u))),
      })),
    );
    const file = join(root, packageOf(p.url));
    await mkdir(dirname(file), { recursive: true });
    const bytes = ctx.format.encodePackageSync({ objects });
    packageBytes += bytes.length;
    await writeFile(file, bytes);
  }
  const byUrl = new Map(site.pages.map((p) => [p.url, p]));
  const setups = planSetups(ctx, o, site.totalBytes);
  const wanted = o.setups ?? setups.map((s) => s.name);
  // The emulated cache starts as after a long run: the most popular pages' files (or packages) first.
  const warmFiles = [...new Set(site.pages.flatMap((p) => [p.url, ...p.closure]))];
  const warmPackages = site.pages.map((p) => packageOf(p.url));
  /** @type {Row[]} */
  const rows = [];
  for (const setup of setups.filter((s) => wanted.includes(s.name))) {
    const sessions = surgeSessions(site, { count: 4000, seed: 'bench-002', offTimeScale: setup.scale });
    for (const kind of setup.servers) {
      const srv = await startServer(/** @type {any} */ (kind), {
        root,
        dir: ctx.tmp,
        cpu: ctx.serverCpu,
        // objpack serve's closure-aware hold at every load, as in the paper's server.
        options: { holdMs: setup.holdMs, closureHoldFrom: 0, ...setup.options },
        memoryModel: setup.memoryModel,
      });
      try {
        for (const name of policyNames) {
          const policy = /** @type {import('./load.mjs').LoadPolicy} */ (
            POLICIES[/** @type {keyof typeof POLICIES} */ (name)]
          );
          for (const users of setup.users) {
            // The memory-bound setup runs on the bare LAN of the paper (no proxy: its process would compete
            // for the 2 cores and make the client side, not the server's memory, the bottleneck).
            const proxy = setup.rttMs
              ? await startProxyProcess({ targetPort: srv.port, rttMs: setup.rttMs })
              : { port: srv.port, close: async () => {} };
            /** @type {{ s: number, i: number }[]} */
            const cursor = Array.from({ length: users }, (_, u) => ({ s: u, i: 0 }));
            await srv.reset(setup.memoryModel ? (policy.mode === 'package' ? warmPackages : warmFiles) : undefined);
            const r = await closedLoop({
              origin: `http://127.0.0.1:${proxy.port}`,
              clients: users,
              durationMs,
              policy,
              Decoder: ctx.format.Decoder,
              nextPage: (u) => {
                const c = /** @type {{ s: number, i: number }} */ (cursor[u]);
                const sess = /** @type {import('../../fixtures/generators/surge-sessions.mjs').Session} */ (
                  sessions[c.s % sessions.length]
                );
                const page = /** @type {import('../../fixtures/generators/surge-site.mjs').SurgePage} */ (
                  byUrl.get(/** @type {string} */ (sess.pages[c.i]))
                );
                const last = c.i === sess.pages.length - 1;
                // Between sessions the user thinks for the shortest OFF time, then starts a new session.
                const thinkMs = last ? 1000 * setup.scale : /** @type {number} */ (sess.offTimesMs[c.i]);
                if (last) {
                  c.s += users;
                  c.i = 0;
                } else c.i++;
                return {
                  paths: [page.url, ...page.closure],
                  packagePath: packageOf(page.url),
                  thinkMs,
                  endSession: last,
                };
              },
            });
            const st = await srv.stats();
            await proxy.close();
            const n = Math.max(1, r.latencies.length);
            /** @type {Row} */
            const row = {
              setup: setup.name,
              server: srv.kind,
              policy: name,
              users,
              pages: r.latencies.length,
              requests: st.requests,
              pagesPerSec: r.latencies.length / r.seconds,
              requestsPerSec: st.requests / r.seconds,
              meanMs: mean(r.latencies),
              p95Ms: quantile(r.latencies, 0.95),
              connSecondsPerPage: st.connSeconds / n,
              openConnections: st.connSeconds / r.seconds,
              connections: st.connections,
              cpuMsPerPage: st.cpuMs / n,
              errors: r.errors,
              retries: r.retries,
              firstError: r.firstError,
            };
            if (st.memory) {
              row.memory = st.memory;
              row.diskBusy = st.memory.diskBusyMs / (1000 * r.seconds);
            }
            rows.push(row);
            ctx.log(
              `  ${setup.name} ${srv.kind} ${name} users=${users}: ${round(row.pagesPerSec)} pages/s, ` +
                `${round(row.meanMs)} ` +
                `ms${row.memory ? `, hit ${pct(hitRatio(row))}, disk ${pct(row.diskBusy ?? NaN)}` : ''}`,
            );
          }
        }
      } finally {
        await srv.close();
      }
    }
  }
  const meta = { pages, totalBytes: site.totalBytes, packageBytes, durationMs };
  return {
    id,
    title,
    raw: {
      rows,
      site: { pages, files: site.objects.length + pages, totalBytes: site.totalBytes, packageBytes },
      setups,
    },
    tables: tables(rows, setups, meta),
    plots: plots(rows),
    notes: notes(ctx),
  };
}

/**
 * @typedef {object} Setup
 * @property {string} name
 * @property {string[]} servers
 * @property {number[]} users
 * @property {number} scale OFF-time scale
 * @property {number} rttMs through the delay proxy; 0: straight to the server
 * @property {number} holdMs the server's keep-alive timeout (Apache's 15 s × scale)
 * @property {Record<string, unknown>} options
 * @property {Omit<import('../lib/memory-model.mjs').MemoryModelOptions, 'now'>} [memoryModel]
 */

/**
 * The CPU-bound setup (all servers, everything in memory) and the emulated memory-bound one: memory scales
 * with our corpus against 002's 50 MB, times with the setup's OFF-time scale (a UE is a paper UE in fast
 * motion, so its disk and its holding time run fast too).
 * @param {import('../lib/context.mjs').BenchContext} ctx
 * @param {{ users?: number[], memUsers?: number[], offTimeScale?: number, memOffTimeScale?: number, cacheShare?:
 * number, rttMs?: number, memRttMs?: number }} o
 * @param {number} corpusBytes
 * @returns {Setup[]}
 */
export function planSetups(ctx, o, corpusBytes) {
  const cpuScale = o.offTimeScale ?? 0.05;
  /** @type {Setup[]} */
  const setups = [
    {
      name: 'CPU-bound',
      servers: ctx.servers,
      users: o.users ?? (ctx.quick ? [32] : [16, 64, 160]),
      scale: cpuScale,
      rttMs: o.rttMs ?? 2,
      holdMs: holdFor(cpuScale),
      options: {},
    },
  ];
  if (!ctx.objpackReal) return setups;
  const scale = o.memOffTimeScale ?? 0.5;
  const mem = corpusBytes / PAPER_002.corpusBytes;
  setups.push({
    name: 'memory-bound',
    servers: ['objpack'],
    users: o.memUsers ?? (ctx.quick ? [64] : [32, 64, 128]),
    scale,
    rttMs: o.memRttMs ?? 0,
    holdMs: holdFor(scale),
    // objpack's own caches off: every file goes through the emulated buffer cache and is read per request.
    options: { memoryBytes: 0, prefetch: false },
    memoryModel: {
      memoryBytes: Math.round((o.cacheShare ?? PAPER_002.cacheShare) * corpusBytes),
      idleConnBytes: PAPER_002.idleConnBytes * mem,
      activeConnBytes: PAPER_002.activeConnBytes * mem,
      seekMs: PAPER_002.diskSeekMs * scale,
      bytesPerMs: PAPER_002.diskBytesPerMs / scale,
    },
  });
  return setups;
}

/**
 * Apache's 15 s keep-alive timeout at the setup's time scale, at least 1 s: Node advertises
 * `Keep-Alive: timeout=<whole seconds>`, and undici drops a connection advertised with timeout=0 at once.
 * @param {number} scale
 */
export const holdFor = (scale) => Math.max(1000, Math.round(PAPER_002.keepAliveTimeoutMs * scale));

/**
 * The paper's value at our load level: our lowest / middle / highest UE count stand for its 40 / 280 / 520
 * (one level: the middle).
 * @param {number[]} paper @param {number[]} users @param {number} u
 */
export function paperAt(paper, users, u) {
  const i = users.length === 1 ? 1 : users.indexOf(u) === 0 ? 0 : users.indexOf(u) === users.length - 1 ? 2 : 1;
  return /** @type {number} */ (paper[i]);
}
