#!/usr/bin/env node
/**
 * node benchmarks/browser/page-complete.mjs [--quick] [--runs N] [--rtt 0,20,50,100,200] [--fixtures p4,p16,p32,deep]
 *
 * The headline number: page-complete time in Chromium through the userspace TCP delay proxy
 * (benchmarks/lib/delay-proxy.mjs, one process per server) for nginx HTTP/1.1, nginx HTTP/2 over TLS,
 * nginx HTTP/2 + Link preload, objpack with the worker installed and nothing cached (cold; also with the
 * worker's Link preloads off, and with the worker stopped), and objpack on a repeat visit. Variants run interleaved
 * (shuffled order in every round) in a new browser context each, so machine noise spreads over all of them. Writes
 * results/browser-page-complete.{json,md} and results/plots/browser-*.svg.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { bundle } from '../../packages/client-sw/scripts/bundle.mjs';
import { startProxyProcess } from '../lib/proxy-process.mjs';
import { median, quantile, round } from '../lib/stats.mjs';
import { phasesOf, shortRev, summarize } from './page-complete-stats.mjs';
import { barChart } from '../lib/svg.mjs';
import { loadWorkspace, REPO, TMP } from '../lib/workspace.mjs';
import { measure } from './measure.mjs';
import { FIXTURES, writeSite } from './fixtures.mjs';
import { startNginxPeers } from './nginx-tls.mjs';
import { baselineWorker } from './baseline-worker.mjs';
import { CHROMIUM_ARGS } from '../lib/chromium-args.mjs';

const ALL_VARIANTS = [
  'nginx-h1',
  'nginx-h2-tls',
  'nginx-h2-preload',
  'objpack-cold',
  'objpack-cold-nopreload',
  'objpack-cold-late',
  'objpack-cold-stopped',
  'objpack-cold-noregcache',
  'objpack-repeat',
  'objpack-cold-baseline',
];
const HELP =
  `Usage: node benchmarks/browser/page-complete.mjs [--quick] [--runs N] [--rtt LIST] [--fixtures LIST] ` +
  `[--json]
  --quick        3 runs per cell (default 15)
  --rtt          round-trip times in ms (default 0,20,50,100,200)
  --fixtures     ${Object.keys(FIXTURES).join(',')} (default all)
  --variants     ${ALL_VARIANTS.join(',')} (default all)
  --out NAME     results/NAME.json, .md and plots/NAME-*.svg (default browser-page-complete)
  --baseline REV the worker of another commit (git rev) as variant objpack-cold-baseline, in the same run:
                 the A/B of a change to client-sw or format (default variants then add it)
Examples:
  node benchmarks/browser/page-complete.mjs --quick
  node benchmarks/browser/page-complete.mjs --rtt 100 --fixtures deep --runs 15
  node benchmarks/browser/page-complete.mjs --rtt 100 --fixtures deep --variants objpack-cold,objpack-cold-baseline ` +
  `--baseline HEAD~1
`;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    runs: { type: 'string' },
    rtt: { type: 'string' },
    fixtures: { type: 'string' },
    variants: { type: 'string' },
    json: { type: 'boolean' },
    out: { type: 'string' },
    baseline: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const log = (m) => process.stderr.write(`${m}\n`);
const out = values.out ?? 'browser-page-complete';
const runs = Number(values.runs ?? (values.quick ? 3 : 15));
const rtts = (values.rtt ?? '0,20,50,100,200').split(',').map(Number);
const fixtures = (values.fixtures ?? Object.keys(FIXTURES).join(',')).split(',');
const VARIANTS = (
  values.variants ?? ALL_VARIANTS.filter((v) => values.baseline || v !== 'objpack-cold-baseline').join(',')
).split(',');
for (const v of VARIANTS)
  if (!ALL_VARIANTS.includes(v)) {
    log(`unknown variant ${v}`);
    process.exit(2);
  }
if (VARIANTS.includes('objpack-cold-baseline') && !values.baseline) {
  log('objpack-cold-baseline needs --baseline REV');
  process.exit(2);
}
const chromiumPath = process.env.OBJPACK_CHROMIUM ?? '/usr/bin/chromium';
const nginx = process.env.OBJPACK_NGINX ?? '/usr/sbin/nginx';
for (const [what, p] of [
  ['chromium', chromiumPath],
  ['nginx', nginx],
]) {
  if (!existsSync(p)) {
    log(`!!! ${p} missing: cannot run the browser benchmark (node scripts/system-tools.mjs installs ${what}).`);
    process.exit(2);
  }
}

const dir = join(TMP, 'browser');
await rm(dir, { recursive: true, force: true });
const root = join(dir, 'site');
const format = await loadWorkspace('format');
const files = await bundle({ outdir: join(dir, 'bundles') });
const baseline = values.baseline ? await baselineWorker(values.baseline, dir, log) : undefined;
const pages = await writeSite(root, fixtures, format, {
  worker: readFileSync(files['objpack-sw.js']),
  register: readFileSync(files['objpack-register.js']),
  baseline,
});

const typeOf = (p) =>
  ({ svg: 'image/svg+xml', css: 'text/css', js: 'text/javascript', woff2: 'font/woff2' })[p.split('.').pop()] ??
  'text/html';
const peers = await startNginxPeers({ nginx, root, dir: join(dir, 'nginx'), pages, types: typeOf });
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: [...CHROMIUM_ARGS, '--ignore-certificate-errors'],
});

/** @type {Record<string, any>} */
const cells = {};
/** Per RTT and proxy: how late its timers delivered chunks (a late proxy inflates every time through it). */
/** @type {Record<number, Record<string, any>>} */
const lateness = {};
const t0 = Date.now();
try {
  for (const rtt of rtts) {
    // One proxy per server, each in its own process; TLS pays a second handshake round trip on a new
    // connection. In this process, playwright's event handling around each navigation held the proxy's
    // timers back: chunks left 25–100 ms late (2026-11-25), the package of a cold objpack load most of all,
    // as it is in flight while the page commits. Their lateness is recorded with the results.
    const proxies = {
      h1: await startProxyProcess({ targetPort: peers.ports.h1, rttMs: rtt }),
      h2: await startProxyProcess({ targetPort: peers.ports.h2, rttMs: rtt, handshakeRtts: rtt > 0 ? 2 : 0 }),
      h2p: await startProxyProcess({ targetPort: peers.ports.h2p, rttMs: rtt, handshakeRtts: rtt > 0 ? 2 : 0 }),
    };
    const origins = {
      'nginx-h1': `http://127.0.0.1:${proxies.h1.port}`,
      'nginx-h2-tls': `https://127.0.0.1:${proxies.h2.port}`,
      'nginx-h2-preload': `https://127.0.0.1:${proxies.h2p.port}`,
      // objpack needs no server support: the same nginx HTTP/1.1 static host serves its packages.
      'objpack-cold': `http://127.0.0.1:${proxies.h1.port}`,
      'objpack-cold-nopreload': `http://127.0.0.1:${proxies.h1.port}`,
      'objpack-cold-late': `http://127.0.0.1:${proxies.h1.port}`,
      'objpack-cold-stopped': `http://127.0.0.1:${proxies.h1.port}`,
      'objpack-cold-noregcache': `http://127.0.0.1:${proxies.h1.port}`,
      'objpack-repeat': `http://127.0.0.1:${proxies.h1.port}`,
      'objpack-cold-baseline': `http://127.0.0.1:${proxies.h1.port}`,
    };
    try {
      for (let run = 0; run < runs; run++) {
        for (const fx of fixtures) {
          const order = [...VARIANTS].sort(() => Math.random() - 0.5);
          for (const variant of order) {
            const key = `${fx}|${rtt}|${variant}`;
            const cell = (cells[key] ??= { fixture: fx, rtt, variant, samples: [], costs: [], pageCosts: [] });
            try {
              const m = await measure(browser, { origin: origins[variant], path: pages[fx].path, variant });
              cell.samples.push({
                complete: m.complete,
                lcp: m.lcp,
                load: m.load,
                objects: m.objects,
                duplicates: m.duplicates,
                phases: m.phases,
              });
              cell.costs.push(...m.costs);
              cell.pageCosts.push(...m.pageCosts);
            } catch (err) {
              cell.errors = (cell.errors ?? 0) + 1;
              log(`  ${key}: ${err.message.split('\n')[0]}`);
            }
          }
        }
        log(`rtt ${rtt} ms: round ${run + 1}/${runs} (${Math.round((Date.now() - t0) / 1000)} s)`);
      }
      if (rtt > 0) {
        lateness[rtt] = Object.fromEntries(
          await Promise.all(
            Object.entries(proxies).map(async ([k, p]) => [k, await p.lateness().catch(() => undefined)]),
          ),
        );
      }
    } finally {
      await Promise.all(Object.values(proxies).map((p) => p.close()));
    }
  }
} finally {
  await browser.close();
  await peers.close();
}

const rows = Object.values(cells).map((c) => ({
  fixture: c.fixture,
  rtt: c.rtt,
  variant: c.variant,
  n: c.samples.length,
  errors: c.errors ?? 0,
  complete: summarize(c.samples.map((s) => s.complete)),
  lcp: summarize(c.samples.map((s) => s.lcp)),
  load: summarize(c.samples.map((s) => s.load)),
  objects: median(c.samples.map((s) => s.objects)),
  // Objects the worker served twice to one page, summed over samples (0 when every preload was used).
  duplicateServes: c.samples.reduce((n, s) => n + (s.duplicates ?? 0), 0),
  workerCostMs: c.costs.length
    ? { n: c.costs.length, ...summarize(c.costs), p90: round(quantile(c.costs, 0.9)) }
    : undefined,
  objectCostMs: c.pageCosts.length
    ? { n: c.pageCosts.length, ...summarize(c.pageCosts), p90: round(quantile(c.pageCosts, 0.9)) }
    : undefined,
  phases: phasesOf(c.samples.map((s) => s.phases).filter(Boolean)),
}));
const cellOf = (fx, rtt, v) => rows.find((r) => r.fixture === fx && r.rtt === rtt && r.variant === v);
const headline =
  cellOf('deep', 100, 'objpack-cold') && cellOf('deep', 100, 'nginx-h2-tls')
    ? (() => {
        const o = cellOf('deep', 100, 'objpack-cold')?.complete.median,
          h2 = cellOf('deep', 100, 'nginx-h2-tls')?.complete.median;
        // The issue's floor for this link: one round trip for the request plus the transfer of the page's bytes.
        // The proxy's bandwidth is unlimited (loopback), so transfer ≈ 0; every variant starts with a warm
        // connection (measure.mjs), so no method has to pay a TCP/TLS handshake on the critical path.
        const floorMs = 100;
        // What the browser itself needs for this page when the network costs nothing (fastest variant at RTT 0,
        // same run): a one-round-trip method cannot finish before RTT + this.
        const local = rtts.includes(0)
          ? Math.min(...VARIANTS.map((v) => cellOf('deep', 0, v)?.complete.median ?? Infinity))
          : undefined;
        return {
          objpackColdMs: o,
          nginxH2Ms: h2,
          ratioToH2: round(o / h2),
          floorMs,
          ratioToFloor: round(o / floorMs),
          objpackColdNoPreloadMs: cellOf('deep', 100, 'objpack-cold-nopreload')?.complete.median,
          objpackColdLateMs: cellOf('deep', 100, 'objpack-cold-late')?.complete.median,
          browserAtRtt0Ms: local,
          floorPlusBrowserMs: local === undefined ? undefined : round(floorMs + local),
          ratioToFloorPlusBrowser: local === undefined ? undefined : round(o / (floorMs + local)),
          target: 'objpack ≤ 0.5× nginx h2; ≤ 1.25× floor (1 RTT + transfer)',
        };
      })()
    : undefined;

const result = {
  id: out,
  date: new Date().toISOString(),
  machine: `${cpus().length}× ${cpus()[0]?.model.trim()}, Node ${process.version}`,
  chromium: browser.version?.() ?? '',
  runsPerCell: runs,
  rtts,
  fixtures: Object.fromEntries(
    fixtures.map((f) => [
      f,
      { bytes: pages[f].bytes, packageBytes: pages[f].packageBytes, objects: pages[f].closure.length + 1 },
    ]),
  ),
  notes: [
    'page-complete = navigation start → last same-origin responseEnd (PerformanceResourceTiming), median of ' +
      'runs; IQR = q3 − q1',
    'each sample: new browser context, one warm connection (install page for objpack, an empty page for ' +
      'nginx), empty HTTP cache',
    "objpack-cold announces the page's preload list from routes.json in a Link header on the navigation it " +
      'answers; objpack-cold-nopreload is the same worker with that off (option preload: false); objpack-cold ' +
      'answers the navigation before the package arrives (earlyResponse, the default); objpack-cold-late waits ' +
      'for the package index (earlyResponse: false)',
    'objpack pages carry the deferred registration script objpack build injects (a stand-in at ' +
      "/bench-register.js): objpack variants answer it from the worker's copy; objpack-cold-noregcache fetches " +
      "it from the host on every page (registerUrl: '', the behaviour before)",
    ...(values.baseline
      ? [
          `objpack-cold-baseline is objpack-cold with the worker of ${values.baseline} ` +
            `(${shortRev(values.baseline)}), bundled from its sources: the A/B of the worker change`,
        ]
      : []),
    'objpack runs on the nginx HTTP/1.1 static host (no server support); nginx 1.22 cannot send 103 Early ' +
      'Hints, so the preload variant sends Link: rel=preload on the 200',
    'delay proxy: RTT split over both directions, unlimited bandwidth; a new connection waits 1 RTT (TCP) or ' +
      '2 (TLS) before its first bytes; each proxy runs in its own process (at raised priority when permitted) ' +
      'and reports how late its timers were',
    'workerCostMs: per object served by the worker, ms from max(object verified, request arrived in the ' +
      "worker) to the Response handed back (worker-side clock; excludes the browser's IPC)",
    'objectCostMs: per object, ms from max(its last byte reaching the worker, the page asking for it) to the ' +
      "page's responseEnd (epoch clocks of worker and page): verification, fetch-event hop and IPC included",
  ],
  headline,
  rows,
  proxyLateness: lateness,
  seconds: Math.round((Date.now() - t0) / 1000),
};

const resultsDir = join(REPO, 'benchmarks/results');
await mkdir(join(resultsDir, 'plots'), { recursive: true });
await writeFile(join(resultsDir, `${out}.json`), `${JSON.stringify(result, null, 2)}\n`);
const md = [
  `# Browser page-complete (${result.date.slice(0, 16)}, ${runs} runs/cell, ${result.machine})`,
  '',
  ...result.notes.map((n) => `- ${n}`),
  '',
  '| fixture | RTT ms | ' + VARIANTS.join(' | ') + ' |',
  '|---|---:|' + VARIANTS.map(() => '---:').join('|') + '|',
  ...fixtures.flatMap((fx) =>
    rtts.map(
      (rtt) =>
        `| ${fx} | ${rtt} | ${VARIANTS.map((v) => {
          const c = cellOf(fx, rtt, v);
          return c ? `${c.complete.median} (IQR ${c.complete.iqr})` : '–';
        }).join(' | ')} |`,
    ),
  ),
  '',
  headline
    ? `Headline (deep page, 100 ms RTT): objpack cold ${headline.objpackColdMs} ms vs nginx HTTP/2 ` +
      `${headline.nginxH2Ms} ms = ${headline.ratioToH2}×; ${headline.ratioToFloor}× the 1-RTT floor` +
      (headline.floorPlusBrowserMs
        ? `; ${headline.ratioToFloorPlusBrowser}× (1 RTT + the ${headline.browserAtRtt0Ms} ms this browser needs for ` +
          `the page at RTT 0).`
        : '.')
    : '',
  '',
  'Worker cost per object in the worker (ms, median / p90): ' +
    fixtures
      .map((fx) => {
        const all = rows.filter((r) => r.fixture === fx && r.workerCostMs);
        return (
          `${fx}: ` +
          `${all.map((r) => `${r.rtt}ms ${r.variant}→${r.workerCostMs.median}/${r.workerCostMs.p90}`).join(', ')}`
        );
      })
      .join('; '),
  '',
  'Cost per object, last byte in the worker → page has it (ms, median / p90): ' +
    fixtures
      .map((fx) => {
        const all = rows.filter((r) => r.fixture === fx && r.objectCostMs);
        return (
          `${fx}: ` +
          `${all.map((r) => `${r.rtt}ms ${r.variant}→${r.objectCostMs.median}/${r.objectCostMs.p90}`).join(', ')}`
        );
      })
      .join('; '),
  '',
  'Delay proxy lateness (chunks delivered after their due time, ms p50 / p90 / max, per RTT and server: h1 ' +
    'serves nginx-h1 and objpack): ' +
    Object.entries(lateness)
      .map(
        ([rtt, ps]) =>
          `${rtt} ms: ${Object.entries(ps)
            .map(([k, l]) => (l ? `${k} ${l.p50Ms}/${l.p90Ms}/${l.maxMs}` : `${k} –`))
            .join(', ')}`,
      )
      .join('; '),
  '',
  'Phases (median ms from navigation start: response headers / HTML complete / first object request; most ' +
    'frequent last object):',
  '',
  ...rows
    .filter((r) => r.phases)
    .map(
      (r) =>
        `- ${r.fixture} ${r.rtt} ms ${r.variant}: ${r.phases.htmlStart} / ${r.phases.htmlEnd} / ` +
        `${r.phases.firstRequest}; last ${r.phases.last}`,
    ),
  '',
];
await writeFile(join(resultsDir, `${out}.md`), md.join('\n'));
for (const fx of fixtures) {
  const svg = barChart({
    title: `Page-complete, ${fx} (median ms, ${runs} runs)`,
    groups: rtts.map((r) => `${r} ms RTT`),
    unit: ' ms',
    series: VARIANTS.map((v) => ({ label: v, values: rtts.map((r) => cellOf(fx, r, v)?.complete.median ?? NaN) })),
  });
  await writeFile(join(resultsDir, 'plots', `${out}-${fx}.svg`), svg);
}
process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : `${md.join('\n')}\n`);
