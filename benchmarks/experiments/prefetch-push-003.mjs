/**
 * Thesis 003: (a) disk-to-memory prefetch of a page's embedded objects when its HTML is served: memory
 * hit ratio with and without, replaying SURGE sessions serially (as the thesis replays a day of log);
 * (b) sequential one-object-at-a-time fetching vs push (one package after the request) for pages of
 * 1/15/28/34/60 objects, on loopback ("LAN") and at 100 ms RTT.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { generateSurgeSite, embeddedFileSize } from '../../fixtures/generators/surge-site.mjs';
import { surgeSessions } from '../../fixtures/generators/surge-sessions.mjs';
import { createFiller, padTo, paragraphPad, pngOfSize } from '../../fixtures/generators/content.mjs';
import { createRng } from '../../fixtures/generators/prng.mjs';
import { writeBenchManifest } from '../lib/bench-manifest.mjs';
import { fetchPage } from '../lib/page-client.mjs';
import { startServer } from '../lib/servers.mjs';
import { startProxyProcess } from '../lib/proxy-process.mjs';
import { median, round } from '../lib/stats.mjs';
import { simulateHitRatio } from './hit-ratio-sim.mjs';

export const id = '003-prefetch-push';
export const title = '003 — Server prefetch (hit ratio) and push vs sequential fetching';

/** Thesis Table 3.2 (100 ms-class WAN) and 3.3 (LAN): prefetching time as % of standard, by objects. */
export const PAPER_PUSH = {
  1: [69.57, 128.11],
  15: [27.61, 40.31],
  28: [31.15, 34.06],
  34: [30.3, 34.54],
  60: [24.48, 28.55],
};
const PKG_DIR = '/_objpack/pages';

/**
 * @param {import('../lib/context.mjs').BenchContext} ctx
 * @param {{ pages?: number, sessions?: number, counts?: number[], runs?: number, rtts?: number[] }} [o]
 */
export async function run(ctx, o = {}) {
  const tables = [],
    plots = [],
    raw = {},
    notes = [];
  // (a) prefetch hit ratio.
  const pages = o.pages ?? (ctx.quick ? 150 : 1000);
  const root = join(ctx.tmp, 'surge');
  const site = await generateSurgeSite({ pages, seed: 'bench-003', outDir: root });
  await writePackages(ctx, root, site.pages);
  await writeBenchManifest(root, site.pages);
  const sessions = surgeSessions(site, { count: o.sessions ?? (ctx.quick ? 25 : 300), seed: 'bench-003' });
  const byUrl = new Map(site.pages.map((p) => [p.url, p]));
  const cacheBytes = Math.floor(site.totalBytes / 4);
  const hitRows = [];
  if (ctx.objpackReal) {
    for (const prefetch of [false, true]) {
      // memoryBytes 0: every file is disk-backed, so only the prefetch can make a memory hit.
      const srv = await startServer('objpack', {
        root,
        dir: ctx.tmp,
        cpu: ctx.serverCpu,
        options: { memoryBytes: 0, prefetch: prefetch ? cacheBytes : false },
      });
      const proxy = await startProxyProcess({ targetPort: srv.port, rttMs: 2 });
      try {
        await srv.reset();
        for (const s of sessions) {
          /** @type {import('undici').Dispatcher | null} */
          let d = null;
          for (const url of s.pages) {
            const p = /** @type {any} */ (byUrl.get(url));
            d = (
              await fetchPage({
                origin: `http://127.0.0.1:${proxy.port}`,
                paths: [p.url, ...p.closure],
                mode: 'keepalive',
                closeWhenDone: false,
                dispatcher: d,
              })
            ).dispatcher;
          }
          await d?.destroy();
        }
        const st = /** @type {any} */ (await srv.stats());
        const pf = st.own?.prefetch ?? { hits: NaN, misses: NaN };
        hitRows.push({
          prefetch,
          requests: st.requests,
          hits: pf.hits,
          misses: pf.misses,
          hitRatio: pf.hits / (pf.hits + pf.misses),
        });
      } finally {
        await proxy.close();
        await srv.close();
      }
    }
  } else {
    notes.push("Hit ratio on the server not measured: it needs @objpack/serve's prefetch counters.");
  }
  const sim = simulateHitRatio({ sessions, byUrl, objects: site.objects, cacheBytes });
  raw.hitRatio = { server: hitRows, simulation: sim, cacheBytes, corpusBytes: site.totalBytes };
  const rel = (/** @type {number} */ a, /** @type {number} */ b) =>
    b > 0 ? `+${Math.round((100 * (a - b)) / b)}%` : 'n/a (no hits without prefetch)';
  const off = hitRows.find((r) => !r.prefetch),
    on = hitRows.find((r) => r.prefetch);
  tables.push({
    title:
      `Memory hit ratio, ${pages}-page SURGE site (${(site.totalBytes / 1e6).toFixed(1)} MB), ` +
      `${sessions.length} sessions replayed serially, cache ${(cacheBytes / 1e6).toFixed(1)} MB (¼ of the corpus)`,
    columns: ['Setup', 'Without prefetch', 'With prefetch', 'Relative change', 'Paper (bo2 / ny / pa)'],
    rows: [
      ...(off && on
        ? [
            [
              'objpack serve (measured: prefetch hits / file requests)',
              pct(off.hitRatio),
              pct(on.hitRatio),
              rel(on.hitRatio, off.hitRatio),
              '+27.8% / +23.5% / +24.3%',
            ],
          ]
        : []),
      [
        'Demand LRU like Apache mod_cache (trace simulation)',
        pct(sim.without.hitRatio),
        pct(sim.with.hitRatio),
        rel(sim.with.hitRatio, sim.without.hitRatio),
        '+27.8% / +23.5% / +24.3%',
      ],
      [
        '… byte hit ratio (simulation)',
        pct(sim.without.byteHitRatio),
        pct(sim.with.byteHitRatio),
        rel(sim.with.byteHitRatio, sim.without.byteHitRatio),
        '+3.0% / +2.3% / +0.7%',
      ],
    ],
  });

  // (b) sequential vs push.
  const counts = o.counts ?? [1, 15, 28, 34, 60];
  const runs = o.runs ?? (ctx.quick ? 2 : 10);
  const rtts = o.rtts ?? [0, 100];
  const proot = join(ctx.tmp, 'push');
  const pushPages = await writePushPages(ctx, proot, counts);
  await writeBenchManifest(
    proot,
    pushPages.map((p) => ({ url: p.url, closure: p.closure })),
  );
  const pushRows = [];
  for (const [k, kind] of ctx.servers.entries()) {
    const srv = await startServer(kind, { root: proot, dir: ctx.tmp, cpu: ctx.serverCpu });
    try {
      // Quick mode: the 100 ms runs (≈ 15 s of RTTs per server) on the first server only.
      for (const rtt of ctx.quick && k > 0 ? rtts.filter((r) => r === 0) : rtts) {
        const proxy = rtt ? await startProxyProcess({ targetPort: srv.port, rttMs: rtt }) : null;
        const origin = proxy ? `http://127.0.0.1:${proxy.port}` : srv.url;
        try {
          for (const p of pushPages) {
            const paths = [p.url, ...p.closure];
            // objpack serve negotiates the package on the page URL (the thesis' request header); nginx serves the file.
            const packagePath = srv.kind === 'objpack' ? p.url : `${PKG_DIR}${p.url}.objp`;
            const times = {
              sequential: /** @type {number[]} */ ([]),
              concurrent: /** @type {number[]} */ ([]),
              push: /** @type {number[]} */ ([]),
            };
            // Thesis Table 3.1 also tried a browser's concurrent connections: 6 keep-alive connections here.
            const seq = () => fetchPage({ origin, paths, mode: 'keepalive' });
            const conc = () => fetchPage({ origin, paths, mode: 'keepalive', connections: 6, htmlFirst: true });
            const push = () => fetchPage({ origin, paths, mode: 'package', packagePath, Decoder: ctx.format.Decoder });
            if (!rtt) {
              await seq();
              await conc();
              await push();
            }
            for (let i = 0; i < (rtt ? Math.max(1, Math.ceil(runs / 2)) : runs * 5); i++) {
              times.sequential.push((await seq()).ms);
              times.concurrent.push((await conc()).ms);
              times.push.push((await push()).ms);
            }
            pushRows.push({
              server: srv.kind,
              rtt,
              objects: paths.length,
              bytes: p.bytes,
              sequentialMs: median(times.sequential),
              concurrentMs: median(times.concurrent),
              pushMs: median(times.push),
            });
            ctx.log(
              `  ${srv.kind} rtt=${rtt} ${paths.length} objects: sequential ${round(median(times.sequential))} ms, ` +
                `concurrent ${round(median(times.concurrent))} ms, push ${round(median(times.push))} ms`,
            );
          }
        } finally {
          await proxy?.close();
        }
      }
    } finally {
      await srv.close();
    }
  }
  raw.push = pushRows;
  for (const server of [...new Set(pushRows.map((r) => r.server))]) {
    const mine = pushRows.filter((r) => r.server === server);
    tables.push({
      title:
        `Push (one package) vs sequential keep-alive fetching on ${server}: median ms; concurrent (6 ` +
        `connections) and push as % of sequential (paper: push WAN / LAN)`,
      columns: [
        'Objects',
        'KB',
        ...rtts.flatMap((r) => [`RTT ${r}: seq ms`, 'conc ms', 'push ms', 'conc %', 'push %']),
        'Paper push % WAN / LAN',
      ],
      rows: counts.map((n) => {
        const cells = rtts.flatMap((rtt) => {
          const r = mine.find((x) => x.objects === n && x.rtt === rtt);
          return r
            ? [
                round(r.sequentialMs),
                round(r.concurrentMs),
                round(r.pushMs),
                `${Math.round((100 * r.concurrentMs) / r.sequentialMs)}%`,
                `${Math.round((100 * r.pushMs) / r.sequentialMs)}%`,
              ]
            : ['', '', '', '', ''];
        });
        const paper = /** @type {Record<number, number[]>} */ (PAPER_PUSH)[n];
        return [
          n,
          round((mine.find((x) => x.objects === n)?.bytes ?? 0) / 1024),
          ...cells,
          paper ? `${paper[0]}% / ${paper[1]}%` : '',
        ];
      }),
    });
    plots.push({
      name: `${server}-push`,
      title: `003 on ${server}: push time as % of sequential (paper hatched, WAN)`,
      unit: '%',
      groups: counts.map((n) => `${n} objects`),
      series: [
        ...rtts.map((rtt) => ({
          label: `ours, RTT ${rtt} ms`,
          values: counts.map((n) => {
            const r = mine.find((x) => x.objects === n && x.rtt === rtt);
            return r ? (100 * r.pushMs) / r.sequentialMs : NaN;
          }),
        })),
        {
          label: 'paper, WAN',
          values: counts.map((n) => /** @type {Record<number, number[]>} */ (PAPER_PUSH)[n]?.[0] ?? NaN),
          paper: true,
        },
      ],
    });
  }
  notes.push(
    'Sequential = one HTTP/1.1 keep-alive connection, one object at a time (the thesis used GNU Wget); ' +
      'concurrent = the page, then its objects over 6 keep-alive connections; push = one request answered with ' +
      'the page and all its objects (an object package). Thesis Table 3.1 found concurrency worth little next ' +
      'to push.',
  );
  return { id, title, raw, tables, plots, notes };
}

const pct = (/** @type {number} */ x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a');

/**
 * @param {import('../lib/context.mjs').BenchContext} ctx
 * @param {string} root
 * @param {{ url: string, closure: string[] }[]} pages
 */
async function writePackages(ctx, root, pages) {
  for (const p of pages) {
    const objects = await Promise.all(
      [p.url, ...p.closure].map(async (u) => ({
        name: u,
        contentType: 'application/octet-stream',
        body: new Uint8Array(await readFile(join(root, u))),
      })),
    );
    const file = join(root, `${PKG_DIR}${p.url}.objp`);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, ctx.format.encodePackageSync({ objects }));
  }
}

/**
 * Pages of n objects (the page plus n − 1 images with SURGE embedded sizes).
 * @param {import('../lib/context.mjs').BenchContext} ctx
 * @param {string} root
 * @param {number[]} counts
 */
async function writePushPages(ctx, root, counts) {
  const f = createFiller('003');
  const rng = createRng('003/sizes');
  await mkdir(join(root, 'img'), { recursive: true });
  const out = [];
  for (const n of counts) {
    const imgs = Array.from({ length: n - 1 }, (_, i) => `/img/p${n}-${i}.png`);
    let bytes = 0;
    for (const u of imgs) {
      const b = pngOfSize(f, Math.round(embeddedFileSize(rng)), u);
      bytes += b.length;
      await writeFile(join(root, u), b);
    }
    const url = `/page-${n}.html`;
    const html = padTo(
      `<!doctype html><title>${n} objects</title>\n${imgs.map((u) => `<img src="${u}">`).join('\n')}\n`,
      '',
      8000,
      paragraphPad(f, url),
    );
    await writeFile(join(root, url), html);
    out.push({ url, closure: imgs, bytes: bytes + html.length });
  }
  await writePackages(ctx, root, out);
  return out;
}
