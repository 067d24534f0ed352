import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundle } from '../../scripts/bundle.mjs';
import type { ObjpackEvent } from '../options.js';
import { CHROMIUM } from './engines/chromium.js';
import type { EngineContext, EnginePage } from './engines/index.js';
import type { TestServer } from './server.js';
import { buildSite, type BuiltSite, type SiteFile, type SiteSpec } from './site.js';

export { CHROMIUM, launchBrowser, stopWorkers } from './engines/chromium.js';
if (!CHROMIUM)
  console.warn(
    '\n!!! /usr/bin/chromium is missing: SKIPPING the service-worker browser tests (run node ' +
      'scripts/system-tools.mjs).\n',
  );

export interface Bundles {
  worker: Buffer;
  register: Buffer;
  unregister: Buffer;
}

/** Bundles the browser files into a temp dir (unminified, for readable stack traces). */
export async function bundles(): Promise<Bundles> {
  const files = await bundle({ outdir: await mkdtemp(join(tmpdir(), 'objpack-sw-')), minify: false });
  return {
    worker: readFileSync(files['objpack-sw.js']!),
    register: readFileSync(files['objpack-register.js']!),
    unregister: readFileSync(files['objpack-sw-unregister.js']!),
  };
}

export interface WorkerConfig {
  /** JSON-able options for the worker (`self.objpackOptions`). */
  options?: Record<string, unknown>;
  /** Make every `cache.put` fail as a full disk would. */
  quota?: boolean;
  /**
   * `clients.matchAll()` leaves a page out for this long after its first request reached the worker, as
   * Chromium does until the browser has taken in the page's commit (which races the page's first requests).
   */
  listLateMs?: number;
  /**
   * The worker never goes quiet (as while other tabs keep loading): writes that wait for a quiet worker
   * (objects up to 2 s, an open page's client record up to 10 s) wait for their deadline.
   */
  busy?: boolean;
  /**
   * `caches.match` in a shared package's cache answers this much later, as Cache Storage on a busy disk
   * may: a lookup there then ends after a page package's response has arrived.
   */
  slowSharedMatchMs?: number;
}

/**
 * `/sw-test.js`: a worker that sets options, collects objpack's events for the test, then loads
 * `/objpack-sw.js` with importScripts — the same path a Workbox user takes.
 */
export function testWorker(cfg: WorkerConfig = {}): string {
  return (
    `self.__events = [];
self.__fetches = [];
self.__firstSeen = new Map();
// Registered before objpack's listener, so it sees every request the page sends the worker.
self.addEventListener('fetch', (e) => {
  if (e.clientId && !self.__firstSeen.has(e.clientId)) self.__firstSeen.set(e.clientId, Date.now());
  const u = new URL(e.request.url);
  self.__fetches.push({ url: u.pathname + u.search, mode: e.request.mode, destination: e.request.destination, ` +
    `credentials: e.request.credentials });
});
self.objpackOptions = Object.assign(${JSON.stringify(cfg.options ?? {})}, { onEvent: (e) => self.__events.push(e) });
${
  cfg.quota
    ? `Cache.prototype.put = function () {
  return Promise.reject(new DOMException('quota', 'QuotaExceededError'));
};`
    : ''
}
${
  cfg.listLateMs
    ? `const matchAll = self.clients.matchAll.bind(self.clients);
self.clients.matchAll = (o) => matchAll(o).then((list) =>
  list.filter((c) => Date.now() - (self.__firstSeen.get(c.id) ?? 0) >= ${cfg.listLateMs}));`
    : ''
}
${
  cfg.slowSharedMatchMs
    ? `const cachesMatch = CacheStorage.prototype.match;
CacheStorage.prototype.match = function (key, o) {
  const ms = o?.cacheName?.includes('-shared-') ? ${cfg.slowSharedMatchMs} : 0;
  return new Promise((r) => setTimeout(r, ms)).then(() => cachesMatch.call(this, key, o));
};`
    : ''
}
self.__frozen = 0;
self.addEventListener('message', (e) => {
  if (e.data?.type === 'objpack:frozen') self.__frozen++;
  if (e.data === 'test:frozen') e.ports[0].postMessage(self.__frozen);
  if (e.data === 'test:events') e.ports[0].postMessage(self.__events.splice(0));
  if (e.data === 'test:fetches') e.ports[0].postMessage(self.__fetches.splice(0));
  if (e.data === 'test:settled') e.waitUntil(self.objpack.settled().then(() => e.ports[0].postMessage(true)));
  if (e.data === 'test:cleanup') e.waitUntil(self.objpack.cleanup().then(() => e.ports[0].postMessage(true)));
});
importScripts('/objpack-sw.js');
${cfg.busy ? 'setInterval(() => (self.objpack.lastActivity = performance.now()), 20);' : ''}
`
  );
}

/** The worker files and the install page a test site needs besides the site itself. */
export function workerFiles(b: Bundles, cfg: WorkerConfig = {}): Map<string, SiteFile> {
  return new Map<string, SiteFile>([
    ['/objpack-sw.js', { type: 'text/javascript', body: b.worker }],
    [
      '/sw-test.js',
      { type: 'text/javascript', body: Buffer.from(testWorker(cfg)), headers: { 'cache-control': 'no-cache' } },
    ],
    [
      '/install.html',
      {
        type: 'text/html',
        body: Buffer.from(
          '<!doctype html><link rel="icon" href="data:,"><script src="/sw-register.js" data-sw="/sw-test.js" ' +
            'data-prefetch="off"></script>',
        ),
      },
    ],
  ]);
}

/** Puts a built site plus the worker files on the server. */
export function serveSite(server: TestServer, b: Bundles, spec: SiteSpec, cfg: WorkerConfig = {}): BuiltSite {
  const site = buildSite(spec);
  server.files = new Map([...site.files, ...workerFiles(b, cfg)]);
  return site;
}

/** Opens the install page and waits until the worker controls it; clears the server log. */
export async function installWorker<P extends EnginePage>(
  context: { newPage(): Promise<P> },
  server: TestServer,
): Promise<P> {
  const page = await context.newPage();
  await page.goto(`${server.origin}/install.html`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 10_000 });
  server.take();
  return page;
}

/**
 * Waits until the test page's script, JSON fetch and images are done, and the worker has stored what it
 * unpacked (it writes to Cache Storage once the page is quiet), so cache assertions see the final state.
 */
export async function pageDone(page: EnginePage): Promise<void> {
  // A worker that sends the tab to the network copy (WindowClient.navigate) may do so while this waits:
  // the page that counts is the one loaded after it, so a wait cut off by a navigation starts over.
  for (let attempt = 1; ; attempt++) {
    const ready = () => document.documentElement.dataset.ready === '1' && [...document.images].every((i) => i.complete);
    await page.waitForFunction(ready, undefined, { timeout: 10_000 });
    try {
      await page.evaluate(settledInPage);
      return;
    } catch (e) {
      if (attempt === 3) throw e;
    }
  }
}

/** In the page: resolves once the controlling worker says it has stored what it unpacked (false: no worker). */
const settledInPage = () =>
  new Promise<unknown>((resolve) => {
    const worker = navigator.serviceWorker?.controller;
    if (!worker) return resolve(false);
    // Another worker (the kill switch) does not answer.
    const timer = setTimeout(() => resolve(false), 3000);
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve(clearTimeout(timer));
    worker.postMessage('test:settled', [ch.port2]);
  });

/** Runs the worker's clean-up (as after a navigation or a new table) and waits for it to finish. */
export async function cleanup(page: EnginePage): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<unknown>((resolve) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => resolve(true);
        navigator.serviceWorker.controller!.postMessage('test:cleanup', [ch.port2]);
      }),
  );
}

/** The worker's events since the last call. */
export async function swEvents(page: EnginePage): Promise<ObjpackEvent[]> {
  return page.evaluate(
    () =>
      new Promise<ObjpackEvent[]>((resolve) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = (e) => resolve(e.data as ObjpackEvent[]);
        navigator.serviceWorker.controller!.postMessage('test:events', [ch.port2]);
      }),
  );
}

/**
 * How many pages told the worker they went into the back/forward cache (`objpack:frozen`, sent by the
 * registration snippet on a persisted `pagehide`): such a page keeps its build's caches.
 */
export async function swFrozen(page: EnginePage): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = (e) => resolve(e.data as number);
        navigator.serviceWorker.controller!.postMessage('test:frozen', [ch.port2]);
      }),
  );
}

/** A request the test worker saw (every fetch event, objpack's or not), since the last call. */
export interface SeenFetch {
  url: string;
  mode: string;
  destination: string;
  credentials: string;
}

/** The fetch events the worker has seen since the last call (ask from any page it controls). */
export async function swFetches(page: EnginePage): Promise<SeenFetch[]> {
  return page.evaluate(
    () =>
      new Promise<SeenFetch[]>((resolve) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = (e) => resolve(e.data as SeenFetch[]);
        navigator.serviceWorker.controller!.postMessage('test:fetches', [ch.port2]);
      }),
  );
}

/**
 * DOM and screenshot of a page loaded straight from the network, in a new context of the same engine. It is
 * loaded from `localhost` instead of 127.0.0.1: another origin of the same server, which answers the worker
 * scripts there with a 404 (server.ts), so no worker ever controls it, in any engine.
 */
export async function reference(opener: { newContext(): Promise<EngineContext> }, url: string): Promise<Snapshot> {
  const ctx = await opener.newContext();
  try {
    const page = await ctx.newPage();
    await page.goto(url.replace('//127.0.0.1:', '//localhost:'));
    await pageDone(page);
    return await snapshot(page);
  } finally {
    await ctx.close();
  }
}

/** A page's DOM and a PNG of its viewport. */
export interface Snapshot {
  dom: string;
  shot: Buffer;
}

/**
 * The DOM, and a screenshot once the page has painted what it loaded: WebKit's driver shoots the last frame
 * at once, which may be from before a CSS background image arrived, so the shot is taken when its CSS
 * images are decoded, two frames later, and again until two shots agree.
 */
export async function snapshot(page: EnginePage): Promise<Snapshot> {
  await page.evaluate(async () => {
    const urls = new Set<string>();
    for (const el of document.querySelectorAll('*')) {
      for (const m of getComputedStyle(el).backgroundImage.matchAll(/url\("([^"]+)"\)/g)) urls.add(m[1]!);
    }
    await Promise.all(
      [...urls].map((u) =>
        Object.assign(new Image(), { src: u })
          .decode()
          .catch(() => {}),
      ),
    );
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  let shot = Buffer.from(await page.screenshot());
  for (let i = 0; i < 5; i++) {
    const again = Buffer.from(await page.screenshot());
    if (again.equals(shot)) break;
    shot = again;
  }
  return { dom: await page.evaluate(() => document.documentElement.outerHTML), shot };
}

/** Names of objpack's caches and the URL paths in each, as the page sees them. */
/**
 * Cache names only. Polls for a deletion must use this, not `cacheContents()`: `caches.open()` creates the
 * cache again when the worker deletes it between `keys()` and `open()`.
 */
export async function cacheNames(page: EnginePage): Promise<string[]> {
  return page.evaluate(() => caches.keys());
}

/** The builds of the page copies a stopped worker's navigations are answered from (worker/stopped-route.ts). */
export async function copiedBuilds(page: EnginePage, cacheName = 'objpack-v1-pages'): Promise<string[]> {
  return page.evaluate(async (name) => {
    const cache = await caches.open(name);
    const builds = await Promise.all(
      (await cache.keys()).map(async (k) => (await cache.match(k))?.headers.get('x-objpack-build') ?? ''),
    );
    return [...new Set(builds)].sort();
  }, cacheName);
}

export async function cacheContents(page: EnginePage): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const keys = await (await caches.open(name)).keys();
      out[name] = keys.map((k) => new URL(k.url).pathname).sort();
    }
    return out;
  });
}
