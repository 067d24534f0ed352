#!/usr/bin/env node
/**
 * Does closing a connection once a page's closure is sent (closure-aware holding, `closureHoldMs`) delay the
 * browser's next navigation? Real Chromium loads page A from objpack serve through the delay proxy (RTT and
 * a TCP handshake's RTT on every new connection), waits a think time, then navigates to page B. For B the
 * Navigation Timing entry says whether a new connection was made (connectEnd > connectStart) and when its
 * first byte came (responseStart); the server says how many connections its short hold closed. Peers in
 * the same run: closure-aware holding on (default: 500 ms once the closure was sent, else 5 s) and off
 * (5 s for every connection), interleaved.
 *
 *   flock /tmp/objpack-bench.lock node benchmarks/serve/next-navigation.mjs [--rtt 50] [--runs 5] [--think
 * 200,1500,4000] [--worker]
 *
 * The site is SURGE-like (fixtures/generators), built without the worker (every navigation goes to the
 * server) or, with `--worker`, with it (installed on A's first load; A is loaded again under its control,
 * its page package carrying the whole closure on one connection, then B). Writes
 * benchmarks/results/serve-next-navigation.json.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startDelayProxy } from '../lib/delay-proxy.mjs';
import { spread } from './stats.mjs';
import { CHROMIUM_ARGS } from '../lib/chromium-args.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const { values } = parseArgs({
  options: {
    rtt: { type: 'string', default: '50' },
    runs: { type: 'string', default: '5' },
    think: { type: 'string', default: '200,1500,4000' },
    worker: { type: 'boolean' },
    out: { type: 'string' },
  },
});
const RTT = Number(values.rtt);
const THINK = values.think.split(',').map(Number);
const OUT = values.out ?? join(REPO, 'benchmarks', 'results', 'serve-next-navigation.json');
const log = (m) => process.stderr.write(`${m}\n`);

const { serve } = await import(join(REPO, 'packages', 'serve', 'dist', 'index.js'));
const { build } = await import(join(REPO, 'packages', 'cli', 'dist', 'build.js'));
const { generateSurgeSite } = await import(join(REPO, 'fixtures', 'generators', 'index.mjs'));

const dir = mkdtempSync(join(tmpdir(), 'objpack-next-nav-'));
const browser = await chromium.launch({
  executablePath: process.env.OBJPACK_CHROMIUM ?? '/usr/bin/chromium',
  args: [...CHROMIUM_ARGS],
});
const peers = {
  'closure-aware': { holdMs: 5000, closureHoldMs: 500, closureHoldFrom: 0 },
  'fixed hold': { holdMs: 5000, closureHoldMs: 5000 },
};
const results = {
  date: new Date().toISOString(),
  worker: values.worker === true,
  rttMs: RTT,
  chromium: browser.version(),
  cells: {},
};
try {
  await generateSurgeSite({ pages: 20, outDir: dir, seed: 'next-nav' });
  await build({ root: dir, serviceWorker: values.worker === true, cache: false, report: false });
  const servers = {};
  for (const [name, o] of Object.entries(peers)) {
    const server = await serve({ root: dir, port: 0, ...o });
    servers[name] = { server, proxy: await startDelayProxy({ targetPort: server.port, rttMs: RTT }) };
  }
  for (let run = 0; run < Number(values.runs); run++) {
    for (const think of THINK) {
      for (const name of run % 2 ? Object.keys(peers).reverse() : Object.keys(peers)) {
        const { server, proxy } = servers[name];
        const context = await browser.newContext();
        const page = await context.newPage();
        const before = server.stats().connections;
        await page.goto(`http://127.0.0.1:${proxy.port}/pages/p00003.html`, { waitUntil: 'load' });
        if (values.worker) {
          // Installed and in control: page A again, answered by the worker from the package it fetches.
          await page.evaluate(() => navigator.serviceWorker.ready);
          await page.goto(`http://127.0.0.1:${proxy.port}/pages/p00003.html`, { waitUntil: 'load' });
        }
        const beforeB = server.stats().connections;
        await page.waitForTimeout(think);
        const thought = server.stats().connections;
        await page.goto(`http://127.0.0.1:${proxy.port}/pages/p00011.html`, { waitUntil: 'load' });
        const nav = await page.evaluate(() => performance.getEntriesByType('navigation')[0].toJSON());
        const after = server.stats().connections;
        const controlled = await page.evaluate(() => !!navigator.serviceWorker?.controller);
        await context.close();
        const cell = (results.cells[`${name} ${think}`] ??= { name, thinkMs: think, runs: [] });
        cell.runs.push({
          newConnection: nav.connectEnd > nav.connectStart,
          connectMs: nav.connectEnd - nav.connectStart,
          ttfbMs: nav.responseStart - nav.startTime,
          loadMs: nav.loadEventStart - nav.startTime,
          shortHoldCloses: after.shortHoldCloses - before.shortHoldCloses,
          connections: after.total - before.total,
          closedBeforeB: thought.shortHoldCloses - beforeB.shortHoldCloses,
          connectionsForB: after.total - thought.total,
          controlled,
          loadavg1: loadavg()[0],
        });
      }
    }
    log(`run ${run + 1} done`);
  }
  for (const { server, proxy } of Object.values(servers)) {
    await proxy.close();
    await server.close();
  }
  log(
    `| peer${values.worker ? ' (worker)' : ''} | think | new connection for B (navigation timing) | connections the ` +
      `server accepted during B | B: first byte, ms | B: load, ms | closed by the short hold before B |`,
  );
  log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const c of Object.values(results.cells)) {
    c.ttfbMs = spread(c.runs.map((r) => r.ttfbMs));
    c.loadMs = spread(c.runs.map((r) => r.loadMs));
    const fresh = c.runs.filter((r) => r.newConnection).length;
    const fmt = (s) => `${s.median.toFixed(0)} [${s.min.toFixed(0)}–${s.max.toFixed(0)}]`;
    const sum = (k) => c.runs.reduce((n, r) => n + r[k], 0);
    log(
      `| ${c.name} | ${c.thinkMs} ms | ${fresh}/${c.runs.length} | ${sum('connectionsForB')} | ${fmt(c.ttfbMs)} | ` +
        `${fmt(c.loadMs)} | ${sum('closedBeforeB')} |`,
    );
  }
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
