#!/usr/bin/env node
/**
 * A navigation to a page not visited yet, right after Chromium stopped the idle worker (it does so ~30 s
 * after the last event: the usual case for a reader's next click), on a large built site; two or more
 * worker bundles interleaved (A/B), each run in a new browser context against a fresh `objpack serve`.
 *
 *   node benchmarks/browser/restart-nav.mjs --site DIR [--runs 8] BUNDLE.js [BUNDLE.js…]
 *
 * DIR is a site `objpack build` has built in place (e.g. the build benchmark's 10,000-page site, kept with
 * `build-bench.mjs --keep`); its `objpack-sw.js` is replaced for each run and restored at the end. Each
 * bundle is wrapped by a small worker that logs the bundle's events with timestamps (the page's clock), so
 * the output also says when the page package's request left the worker. RTT 0 (loopback): what is measured
 * is the worker's own work after a restart. Prints medians and writes nothing else.
 */
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { serve } from '@objpack/serve';
import { CHROMIUM_ARGS } from '../lib/chromium-args.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { site: { type: 'string' }, runs: { type: 'string', default: '8' } },
});
if (!values.site || positionals.length === 0) {
  console.error('usage: node benchmarks/browser/restart-nav.mjs --site DIR [--runs N] BUNDLE.js [BUNDLE.js…]');
  process.exit(2);
}
const site = values.site;
const pages = JSON.parse(readFileSync(`${site}/_objpack/routes.json`, 'utf8')).pages;
const paths = Object.keys(pages)
  .filter((p) => p.endsWith('.html') || p.endsWith('/'))
  .sort();
if (paths.length < 100) throw new Error(`${site}: ${paths.length} pages; a large site is the point`);
const original = readFileSync(`${site}/objpack-sw.js`);
const REAL = 'objpack-sw-under-test.js';
const wrapper =
  `self.__log = []; const now = () => performance.timeOrigin + performance.now();
self.objpackOptions = { onEvent: (e) => self.__log.push([now(), e.type, e.url]) };
self.addEventListener('fetch', (e) => { if (e.request.mode === 'navigate') self.__log.push([now(), 'navigate', ` +
  `e.request.url]); });
self.addEventListener('message', (e) => { if (e.data === 'bench:log') e.ports[0].postMessage(self.__log); });
importScripts('/${REAL}');`;
const browser = await chromium.launch({
  executablePath: process.env.OBJPACK_CHROMIUM ?? '/usr/bin/chromium',
  args: [...CHROMIUM_ARGS],
});
const out = new Map(positionals.map((b) => [b, []]));
try {
  for (let r = 0; r < Number(values.runs); r++) {
    for (const bundle of r % 2 ? [...positionals].reverse() : positionals) {
      copyFileSync(bundle, `${site}/${REAL}`);
      writeFileSync(`${site}/objpack-sw.js`, wrapper);
      // A new server each run: objpack serve keeps small files in memory.
      const server = await serve({ root: site, port: 0 });
      const origin = server.url.replace(/\/$/, '');
      const ctx = await browser.newContext();
      try {
        const page = await ctx.newPage();
        await page.goto(`${origin}${paths[0]}`);
        await page.evaluate(() => navigator.serviceWorker.ready);
        await page.reload();
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
        await page.waitForTimeout(2500);
        const cdp = await ctx.newCDPSession(page);
        await cdp.send('ServiceWorker.enable');
        const stopped = new Promise((res) =>
          cdp.on(
            'ServiceWorker.workerVersionUpdated',
            (e) => e.versions.some((v) => v.runningStatus === 'stopped') && res(),
          ),
        );
        await cdp.send('ServiceWorker.stopAllWorkers');
        await stopped;
        await cdp.detach();
        const target = paths[Math.floor(paths.length / 2) + r * 7];
        await page.goto(`${origin}${target}`, { waitUntil: 'load' });
        await page.waitForTimeout(300);
        const m = await page.evaluate(() => {
          const n = performance.getEntriesByType('navigation')[0];
          const res = performance.getEntriesByType('resource').filter((e) => e.name.startsWith(new URL(n.name).origin));
          return {
            timeOrigin: performance.timeOrigin,
            workerStart: n.workerStart,
            responseStart: n.responseStart,
            last: Math.max(n.responseEnd, ...res.map((e) => e.responseEnd)),
            load: n.loadEventEnd,
          };
        });
        const log = await page.evaluate(
          () =>
            new Promise((res) => {
              const ch = new MessageChannel();
              ch.port1.onmessage = (e) => res(e.data);
              navigator.serviceWorker.controller.postMessage('bench:log', [ch.port2]);
            }),
        );
        const at = (type) => log.find((l) => l[1] === type)?.[0];
        const nav = at('navigate');
        const start = at('package-start');
        out.get(bundle).push({ ...m, fetchEvent: nav - m.timeOrigin, packageStart: start - m.timeOrigin });
      } finally {
        await ctx.close();
        await server.close();
      }
    }
  }
} finally {
  await browser.close();
  writeFileSync(`${site}/objpack-sw.js`, original);
  if (existsSync(`${site}/${REAL}`)) rmSync(`${site}/${REAL}`);
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
console.log(
  `site ${site} (${paths.length} pages, routes.json ${readFileSync(`${site}/_objpack/routes.json`).length} bytes), ` +
    `${values.runs} runs each, ms from navigation start (median):`,
);
for (const [bundle, runs] of out) {
  const col = (k) => Math.round(median(runs.map((x) => x[k])));
  console.log(
    `${bundle}: fetch event ${col('fetchEvent')}, package response ${col('packageStart')}, HTML response ` +
      `${col('responseStart')}, page complete ${col('last')} [${runs.map((x) => Math.round(x.last)).join(' ')}], ` +
      `load ${col('load')}`,
  );
}
