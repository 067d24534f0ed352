/**
 * Does leaving the later tier to the network cost a page or a later in-page use? Real VitePress
 * output with local search (fixtures/closure/gen-vitepress-search), real Chromium through the delay proxy:
 * a cold navigation to a docs page with the worker installed (load event, LCP, last same-origin response),
 * then opening search and typing a query until the first result shows (the search box chunk and the
 * index chunk: import()ed on that click). Variants, interleaved per round, each sample a new context:
 *   plain   the site served as it is (no worker)
 *   before  objpack packages of another build (--before: its cli dist), which carry the search chunks
 *   after   this checkout's packages: critical tier only, the search chunks from the network
 *
 *   flock /tmp/objpack-bench.lock node benchmarks/browser/later-tier.mjs --before ../base/packages/cli/dist/index.js
 *   [--runs 9] [--rtt 100] [--json]
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import sirv from 'sirv';
import { startDelayProxy } from '../lib/delay-proxy.mjs';

const SITE = fileURLToPath(new URL('../../fixtures/closure/gen-vitepress-search/site', import.meta.url));
const PAGE = '/guide/getting-started.html';
const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    runs: { type: 'string', default: '9' },
    rtt: { type: 'string', default: '100' },
    json: { type: 'boolean' },
  },
});
const runs = Number(values.runs);
const rtt = Number(values.rtt);

/** A copy of the site built by `lib` (or plain), with a blank page to warm the connection (and install). */
async function prepare(name, lib) {
  const dir = mkdtempSync(path.join(tmpdir(), `objpack-later-${name}-`));
  const root = path.join(dir, 'site');
  if (lib) await lib.build({ root: SITE, out: root, report: false, cache: false });
  else cpSync(SITE, root, { recursive: true });
  const register = lib ? '<script src="/objpack-register.js" data-prefetch="off"></script>' : '';
  writeFileSync(path.join(root, 'blank.html'), `<!doctype html><link rel="icon" href="data:,">${register}`);
  const handler = sirv(root, { dev: true, extensions: [] });
  const log = [];
  const server = createServer((req, res) => {
    log.push(req.url);
    handler(req, res, () => res.writeHead(404).end());
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const proxy = await startDelayProxy({ targetPort: server.address().port, rttMs: rtt });
  return {
    name,
    worker: Boolean(lib),
    log,
    origin: `http://127.0.0.1:${proxy.port}`,
    close: async () => {
      await proxy.close();
      server.closeAllConnections();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function sample(browser, v) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${v.origin}/blank.html`);
    if (v.worker)
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
    v.log.length = 0;
    await page.goto(`${v.origin}${PAGE}`, { waitUntil: 'load' });
    await page.waitForFunction("document.querySelector('.vp-doc') !== null && document.readyState === 'complete'");
    const load = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const nav = performance.getEntriesByType('navigation')[0];
          new PerformanceObserver((list) => {
            const lcp = list.getEntries().at(-1);
            const last = Math.max(
              ...performance.getEntriesByType('resource').map((r) => r.responseEnd),
              nav.responseEnd,
            );
            resolve({ loadMs: nav.loadEventEnd, lcpMs: lcp ? lcp.startTime : NaN, completeMs: last });
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
    await page.waitForTimeout(300); // the page is idle, as a reader would be before opening search
    const pageRequests = v.log.splice(0);
    const t0 = await page.evaluate(() => performance.now());
    await page.click('#local-search button');
    await page.fill('#localsearch-input', 'widgets');
    await page.waitForSelector('.result', { timeout: 15_000 });
    const searchMs = (await page.evaluate(() => performance.now())) - t0;
    return { ...load, searchMs, pageRequests, searchRequests: v.log.splice(0) };
  } finally {
    await context.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const iqr = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length * 0.75)] - s[Math.floor(s.length * 0.25)];
};

const current = await import('objpack');
const before = values.before ? await import(pathToFileURL(path.resolve(values.before)).href) : undefined;
const variants = [
  await prepare('plain'),
  ...(before ? [await prepare('before', before)] : []),
  await prepare('after', current),
];
const browser = await chromium.launch({
  executablePath: process.env.OBJPACK_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
});
const load = [loadavg()[0]];
const results = Object.fromEntries(variants.map((v) => [v.name, []]));
try {
  for (let r = 0; r < runs; r++) {
    for (const v of [...variants].sort(() => Math.random() - 0.5)) results[v.name].push(await sample(browser, v));
    load.push(loadavg()[0]);
  }
} finally {
  await browser.close();
  for (const v of variants) await v.close();
}
const summary = Object.fromEntries(
  Object.entries(results).map(([name, xs]) => [
    name,
    Object.fromEntries(
      ['loadMs', 'lcpMs', 'completeMs', 'searchMs'].map((k) => [
        k,
        { median: median(xs.map((x) => x[k])), iqr: iqr(xs.map((x) => x[k])) },
      ]),
    ),
  ]),
);
if (values.json) console.log(JSON.stringify({ rtt, runs, load, summary, results }, null, 2));
else {
  console.log(
    `RTT ${rtt} ms, ${runs} interleaved runs, load average ` +
      `${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}`,
  );
  console.log('| variant | load event | LCP | last response | open search → first result |');
  console.log('|---|---|---|---|---|');
  const cell = (c) => `${c.median.toFixed(0)} ms (IQR ${c.iqr.toFixed(0)})`;
  for (const [name, s] of Object.entries(summary))
    console.log(`| ${name} | ${cell(s.loadMs)} | ${cell(s.lcpMs)} | ${cell(s.completeMs)} | ${cell(s.searchMs)} |`);
}
