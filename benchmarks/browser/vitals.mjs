#!/usr/bin/env node
/**
 * node benchmarks/browser/vitals.mjs [--scenarios session,first] [--sites deep,vitepress,docusaurus] [--rtt 0,20,100]
 *   [--bandwidth 0,10] [--variants nginx-h2,objpack-static,objpack-serve] [--runs 15] [--out NAME]
 *
 * What a reader sees, beside nginx HTTP/2 over TLS in the same run: LCP, FCP, DOMContentLoaded, load and
 * page-complete of a page in three scenarios (vitals-measure.mjs): the second page of a visit (`session`),
 * a first visit with a fresh profile (`first`), the second page after the browser restarted (`return`) and
 * the second page with the worker stopped by the browser in between (`idle`).
 * Sites (vitals-sites.mjs): the synthetic depth-3 page and real generator output, each served as it is
 * (nginx-h2) and after `objpack build` (objpack-static: the same nginx, no server support; objpack-serve:
 * `objpack serve` over HTTP/2 with 103 Early Hints).
 * Every server is behind its own userspace delay proxy (benchmarks/lib/delay-proxy.mjs, own process) with
 * the RTT, 2 RTTs of TLS handshake per new connection and, with --bandwidth, one link of that many Mbit/s
 * per direction shared by all connections (DevTools throttling does not shape a worker's fetches).
 * Variants run interleaved, in a shuffled order every round. Writes results/NAME.json and .md.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startProxyProcess } from '../lib/proxy-process.mjs';
import { REPO, TMP } from '../lib/workspace.mjs';
import { baselineWorker } from './baseline-worker.mjs';
import { engineBinary, ENGINES, launchEngine } from './engines.mjs';
import { certificate, startNginxSites } from './nginx-tls.mjs';
import { startServeProcess } from './serve-child.mjs';
import { measureVisit } from './vitals-measure.mjs';
import { renderVitals, summarizeCells } from './vitals-report.mjs';
import { benchWorker, buildCopy, prepareSites, SITES } from './vitals-sites.mjs';

const VARIANTS = [
  'nginx-h2',
  'objpack-static',
  'objpack-serve',
  'serve-plain',
  'objpack-serve-baseline',
  'objpack-static-baseline',
  'objpack-static-build-baseline',
  'objpack-serve-build-baseline',
];
/** Variants without objpack: the site as its generator wrote it. */
const PLAIN = new Set(['nginx-h2', 'serve-plain']);
const SCENARIOS = ['session', 'first', 'return', 'idle'];
const HELP =
  `Usage: node benchmarks/browser/vitals.mjs [options]
  --scenarios LIST  ${SCENARIOS.join(',')} (default session,first): second page of a visit / first visit,
                    fresh profile / the second page after the browser was quit and started again (not WebKit) /
                    the second page with the worker stopped in between, as after a reader's 30 s on the first
                    page (Chromium)
  --sites LIST      ${Object.keys(SITES).join(',')} (default all)
  --rtt LIST        round-trip times in ms (default 0,20,100)
  --bandwidth LIST  Mbit/s per direction, one link all connections share; 0 = unlimited (default 0)
  --variants LIST   ${VARIANTS.join(',')}
                    (default: the first three); serve-plain: objpack serve of the site without objpack
                    (no worker), the same host and caching as objpack-serve
  --serve-baseline DIR  another checkout (built) whose objpack serve runs as objpack-serve-baseline on the
                    same built site: the A/B of a server change in one run
  --baseline REV    the worker of another commit (git rev) as objpack-static-baseline: the built site with
                    that worker (and today's snippet), on the same nginx: the A/B of a worker change
  --build-baseline DIR  another checkout (built) whose objpack build writes the site for
                    objpack-static-build-baseline (on the same nginx) and objpack-serve-build-baseline (today's
                    objpack serve): the A/B of a build change
  --runs N          samples per cell, interleaved (default 15)
  --dwell MS        session: open the measured page MS after the first page's load (the worker in control),
                    instead of once the page is idle and every package is stored: prefetches still in flight
  --visits N        return: measure the reader's Nth visit (default 2); the visits between the first page and it
                    open the measured page, each in a browser started again (V8 code caches count from the third)
  --browser NAME    chromium (default), firefox (firefox-esr over WebDriver BiDi) or webkit (MiniBrowser)
  --out NAME        results/NAME.json and .md (default browser-vitals)
Needs the built packages (pnpm build), nginx and the browser (node scripts/system-tools.mjs installs them).
Examples:
  flock /tmp/objpack-bench.lock node benchmarks/browser/vitals.mjs --scenarios session --sites deep --rtt 0,20,100
  flock /tmp/objpack-bench.lock node benchmarks/browser/vitals.mjs --scenarios first --sites deep --rtt 100 ` +
  `--variants nginx-h2,objpack-serve
  flock /tmp/objpack-bench.lock node benchmarks/browser/vitals.mjs --scenarios session --sites vitepress,docusaurus ` +
  `--rtt 100 --bandwidth 10
  flock /tmp/objpack-bench.lock node benchmarks/browser/vitals.mjs --scenarios session,first --sites deep --rtt 100 ` +
  `--browser firefox
`;
const { values } = parseArgs({
  options: {
    scenarios: { type: 'string' },
    sites: { type: 'string' },
    rtt: { type: 'string' },
    bandwidth: { type: 'string' },
    variants: { type: 'string' },
    runs: { type: 'string' },
    browser: { type: 'string' },
    out: { type: 'string' },
    dwell: { type: 'string' },
    visits: { type: 'string' },
    'serve-baseline': { type: 'string' },
    baseline: { type: 'string' },
    'build-baseline': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const log = (m) => process.stderr.write(`${m}\n`);
const list = (v, all) => (v ?? all.join(',')).split(',').filter(Boolean);
const scenarios = list(values.scenarios, ['session', 'first']);
const sites = list(values.sites, Object.keys(SITES));
const variants = list(
  values.variants,
  VARIANTS.filter(
    (v) =>
      (values['serve-baseline'] || v !== 'objpack-serve-baseline') &&
      (values.baseline || v !== 'objpack-static-baseline') &&
      (values['build-baseline'] || !v.endsWith('-build-baseline')) &&
      v !== 'serve-plain',
  ),
);
if (variants.includes('objpack-serve-baseline') && !values['serve-baseline']) {
  log('objpack-serve-baseline needs --serve-baseline DIR');
  process.exit(2);
}
if (variants.includes('objpack-static-baseline') && !values.baseline) {
  log('objpack-static-baseline needs --baseline REV');
  process.exit(2);
}
if (variants.some((v) => v.endsWith('-build-baseline')) && !values['build-baseline']) {
  log(`${variants.find((v) => v.endsWith('-build-baseline'))} needs --build-baseline DIR`);
  process.exit(2);
}
const rtts = list(values.rtt, ['0', '20', '100']).map(Number);
const bandwidths = list(values.bandwidth, ['0']).map(Number);
const runs = Number(values.runs ?? 15);
const engine = values.browser ?? 'chromium';
const out = values.out ?? 'browser-vitals';
const dwellMs = values.dwell === undefined ? undefined : Number(values.dwell);
const visits = Number(values.visits ?? 2);
if (!Number.isInteger(visits) || visits < 2) {
  log('--visits must be an integer of at least 2');
  process.exit(2);
}
for (const [what, got, all] of [
  ['scenario', scenarios, SCENARIOS],
  ['site', sites, Object.keys(SITES)],
  ['variant', variants, VARIANTS],
]) {
  for (const x of got)
    if (!all.includes(x)) {
      log(`unknown ${what} ${x}`);
      process.exit(2);
    }
}
if (!ENGINES.includes(engine)) {
  log(`unknown browser ${engine} (${ENGINES.join(', ')})`);
  process.exit(2);
}
if (scenarios.includes('return') && engine === 'webkit') {
  log('the return scenario needs a profile directory the browser keeps: Chromium or Firefox, not WebKit');
  process.exit(2);
}
if (scenarios.includes('idle') && engine !== 'chromium') {
  log('the idle scenario stops workers through the DevTools protocol: Chromium only');
  process.exit(2);
}
const nginx = process.env.OBJPACK_NGINX ?? '/usr/sbin/nginx';
for (const p of [nginx, engineBinary(engine) ?? engine]) {
  if (!existsSync(p)) {
    log(`!!! ${p} missing (node scripts/system-tools.mjs installs it)`);
    process.exit(2);
  }
}

const dir = join(TMP, 'vitals');
await rm(dir, { recursive: true, force: true });
const prepared = await prepareSites(join(dir, 'sites'), sites, log);
/** Site → its built root with the --baseline worker (objpack-static-baseline). */
const baselineRoots = {};
if (variants.includes('objpack-static-baseline')) {
  const worker = await baselineWorker(values.baseline, dir, log);
  for (const s of sites) {
    baselineRoots[s] = `${prepared[s].built}-baseline`;
    cpSync(prepared[s].built, baselineRoots[s], { recursive: true });
    writeFileSync(join(baselineRoots[s], 'objpack-sw.js'), benchWorker(worker));
  }
}
/** Site → its root built by the --build-baseline checkout (objpack-static-build-baseline). */
const buildBaselineRoots = {};
if (variants.some((v) => v.endsWith('-build-baseline'))) {
  for (const s of sites) {
    buildBaselineRoots[s] = `${prepared[s].built}-build-baseline`;
    await buildCopy(resolve(values['build-baseline']), s, prepared[s].plain, buildBaselineRoots[s]);
    log(`${s}: built with ${values['build-baseline']}`);
  }
}
const roots = sites.flatMap((s) => [
  prepared[s].plain,
  prepared[s].built,
  ...(baselineRoots[s] ? [baselineRoots[s]] : []),
  ...(buildBaselineRoots[s] ? [buildBaselineRoots[s]] : []),
]);
await mkdir(join(dir, 'tls'), { recursive: true });
// One certificate for every server, accepted by its key's hash (see certificate()): the HTTP cache works.
const tls = certificate(join(dir, 'tls'));
const nginxSites = await startNginxSites({ nginx, dir: join(dir, 'nginx'), roots, cert: tls });
/** Site → objpack serve of its built root, over HTTP/2 with TLS and 103 Early Hints (its defaults). */
const serveProcs = {};
/** The same with another checkout's server (--serve-baseline). */
const baselineProcs = {};
/** Today's objpack serve of the root another checkout built (--build-baseline). */
const buildBaselineProcs = {};
/** objpack serve of the plain root (serve-plain). */
const plainProcs = {};
for (const s of sites) {
  const o = { root: prepared[s].built, cert: tls.cert, key: tls.key };
  if (variants.includes('objpack-serve')) serveProcs[s] = await startServeProcess(o);
  if (variants.includes('objpack-serve-baseline'))
    baselineProcs[s] = await startServeProcess(o, values['serve-baseline']);
  if (variants.includes('serve-plain')) plainProcs[s] = await startServeProcess({ ...o, root: prepared[s].plain });
  if (variants.includes('objpack-serve-build-baseline'))
    buildBaselineProcs[s] = await startServeProcess({ ...o, root: buildBaselineRoots[s] });
}
const upstream = (site, variant) =>
  variant === 'objpack-serve'
    ? serveProcs[site].port
    : variant === 'objpack-serve-baseline'
      ? baselineProcs[site].port
      : variant === 'serve-plain'
        ? plainProcs[site].port
        : variant === 'objpack-serve-build-baseline'
          ? buildBaselineProcs[site].port
          : nginxSites.ports[
              roots.indexOf(
                variant === 'nginx-h2'
                  ? prepared[site].plain
                  : variant === 'objpack-static-baseline'
                    ? baselineRoots[site]
                    : variant === 'objpack-static-build-baseline'
                      ? buildBaselineRoots[site]
                      : prepared[site].built,
              )
            ];
const browser = await launchEngine(engine, { spki: tls.spki });

/**
 * @type {Record<string, {
 *   scenario: string, site: string, rtt: number, mbps: number, variant: string, samples: any[], errors: number
 * }>}
 */
const cells = {};
const loads = [];
const t0 = Date.now();
try {
  for (const rtt of rtts) {
    for (const mbps of bandwidths) {
      loads.push({ rtt, mbps, at: new Date().toISOString(), loadavg: loadavg().map((l) => Math.round(l * 100) / 100) });
      const proxies = {};
      for (const s of sites) {
        for (const v of variants) {
          proxies[`${s}|${v}`] = await startProxyProcess({
            targetPort: upstream(s, v),
            rttMs: rtt,
            handshakeRtts: rtt > 0 ? 2 : 0,
            ...(mbps > 0 ? { bandwidthBps: mbps * 1e6, sharedLink: true } : {}),
          });
        }
      }
      try {
        for (let run = 0; run < runs; run++) {
          for (const scenario of scenarios) {
            for (const s of sites) {
              for (const variant of [...variants].sort(() => Math.random() - 0.5)) {
                const key = `${scenario}|${s}|${rtt}|${mbps}|${variant}`;
                const cell = (cells[key] ??= { scenario, site: s, rtt, mbps, variant, samples: [], errors: 0 });
                try {
                  cell.samples.push(
                    await measureVisit(browser, {
                      origin: `https://127.0.0.1:${proxies[`${s}|${variant}`].port}`,
                      scenario,
                      dwellMs,
                      visits,
                      profileDir: join(dir, 'profile'),
                      first: prepared[s].first,
                      measured: prepared[s].measured,
                      objpack: !PLAIN.has(variant),
                    }),
                  );
                } catch (err) {
                  cell.errors++;
                  log(`  ${key}: ${String(err.message).split('\n')[0]}`);
                }
              }
            }
          }
          log(
            `rtt ${rtt} ms, ${mbps || '∞'} Mbit/s: ` +
              `round ${run + 1}/${runs} (${Math.round((Date.now() - t0) / 1000)} s)`,
          );
        }
      } finally {
        await Promise.all(Object.values(proxies).map((p) => p.close()));
      }
      loads[loads.length - 1].endLoadavg = loadavg().map((l) => Math.round(l * 100) / 100);
    }
  }
} finally {
  await browser.close();
  await nginxSites.close();
  await Promise.all(
    [serveProcs, baselineProcs, plainProcs, buildBaselineProcs].flatMap((m) => Object.values(m)).map((p) => p.close()),
  );
}

const result = {
  id: out,
  date: new Date().toISOString(),
  machine: `${cpus().length}× ${cpus()[0]?.model.trim()}, Node ${process.version}`,
  browser: browser.version(),
  runsPerCell: runs,
  dwellMs,
  visits,
  serveBaseline: values['serve-baseline'],
  baseline: values.baseline,
  buildBaseline: values['build-baseline'] && describeCheckout(resolve(values['build-baseline'])),
  seconds: Math.round((Date.now() - t0) / 1000),
  loads,
  sites: Object.fromEntries(
    sites.map((s) => [
      s,
      { first: prepared[s].first, measured: prepared[s].measured, packageBytes: prepared[s].packageBytes },
    ]),
  ),
  rows: summarizeCells(
    Object.values(cells).sort(
      (a, b) =>
        scenarios.indexOf(a.scenario) - scenarios.indexOf(b.scenario) ||
        sites.indexOf(a.site) - sites.indexOf(b.site) ||
        a.rtt - b.rtt ||
        a.mbps - b.mbps ||
        variants.indexOf(a.variant) - variants.indexOf(b.variant),
    ),
  ),
};
const resultsDir = join(REPO, 'benchmarks/results');
await mkdir(resultsDir, { recursive: true });
await writeFile(join(resultsDir, `${out}.json`), `${JSON.stringify(result, null, 2)}\n`);
const md = renderVitals(result);
await writeFile(join(resultsDir, `${out}.md`), md);
process.stdout.write(md);

/** `DIR (rev)`: which commit a --build-baseline checkout is at, for the report. */
function describeCheckout(dir) {
  try {
    return `${dir} (${execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()})`;
  } catch {
    return dir;
  }
}
