import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ObjpackServer } from '@objpack/serve';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ObjpackEvent } from '../options.js';
import { LISTING_PATH } from './delta.js';
import {
  bundles,
  CHROMIUM,
  installWorker,
  launchBrowser,
  pageDone,
  reference,
  serveSite,
  snapshot,
  swEvents,
  workerFiles,
  type Bundles,
  type WorkerConfig,
} from '../test-utils/browser.js';
import { countingProxy, listingFor, writeSite, type CountingProxy } from '../test-utils/serve-site.js';
import { TestServer, WORKER_SCRIPTS } from '../test-utils/server.js';
import { buildSite, svg, testSite, type SiteSpec } from '../test-utils/site.js';

/** Polls the worker's events until one matches (the listing is fetched in the background). */
async function waitEvent(page: Page, match: (e: ObjpackEvent) => boolean): Promise<ObjpackEvent[]> {
  const seen: ObjpackEvent[] = [];
  for (let i = 0; i < 100; i++) {
    seen.push(...(await swEvents(page)));
    if (seen.some(match)) return seen;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no such worker event; saw ${JSON.stringify(seen.map((e) => [e.type, e.detail]))}`);
}
const listingEvent = (buildId: string) => (e: ObjpackEvent) => e.type === 'delta' && e.detail === `listing ${buildId}`;

describe.skipIf(!CHROMIUM)('service worker in Chromium: delta packages', () => {
  let browser: Browser;
  let b: Bundles;
  let context: BrowserContext;

  beforeAll(async () => {
    [browser, b] = await Promise.all([launchBrowser(), bundles()]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Both pages' own packages carry a 40 KB image, so the second page's package repeats it. */
  const spec = (v: number): SiteSpec =>
    testSite(b.register, v, {
      more: '<img id="big" src="/img/big.svg" width="40" height="40">',
      files: { '/img/big.svg': svg('maroon', 40_000) },
      pages: {
        '/': { objects: ['/img/home.svg', '/img/big.svg'], shared: ['common'] },
        '/about/': { objects: ['/img/about.svg', '/img/big.svg'], shared: ['common'] },
      },
    });

  describe('against objpack serve', () => {
    let dir: string;
    let server: ObjpackServer | undefined;
    let proxy: CountingProxy | undefined;

    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'objpack-sw-delta-'));
      context = await browser.newContext();
    });
    afterEach(async () => {
      await context.close();
      await proxy?.close();
      await server?.close({ timeoutMs: 100 });
      await rm(dir, { recursive: true, force: true });
    });

    /** Writes the site, starts a real `serve()` on port 0 behind a byte-counting proxy. */
    async function start(s: SiteSpec, cfg: WorkerConfig = {}, listingBytes?: number) {
      const site = buildSite(s);
      await writeSite(dir, s, site, workerFiles(b, cfg));
      server = await serve({ root: dir, port: 0, ...(listingBytes === undefined ? {} : { listingBytes }) });
      proxy = await countingProxy(server.port);
      return site;
    }
    async function install(): Promise<Page> {
      const page = await context.newPage();
      await page.goto(`${proxy!.origin}/install.html`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 10_000 });
      return page;
    }

    it('a second page that shares objects gets a delta: one request, fewer bytes, same page', async () => {
      const site = await start(spec(1));
      const ref = await reference(browser, `${proxy!.origin}/about/`);
      const page = await install();
      await page.goto(`${proxy!.origin}/`);
      await pageDone(page);
      await waitEvent(page, listingEvent('build-1'));
      proxy!.reset();
      const before = server!.stats().packages.delta;
      await page.click('#next');
      await page.waitForURL(`${proxy!.origin}/about/`);
      await pageDone(page);
      const aboutPackage = site.pagePackage['/about/']!;
      expect(proxy!.requests()).toEqual([{ path: aboutPackage, have: true }]);
      expect(server!.stats().packages.delta).toBe(before + 1);
      // The 40 KB image stayed home: the whole exchange is smaller than the full package alone.
      const full = site.files.get(aboutPackage)!.body.length;
      expect(proxy!.bytes()).toBeLessThan(full - 30_000);
      const got = await snapshot(page);
      expect(got.dom).toBe(ref.dom);
      expect(got.shot.equals(ref.shot)).toBe(true);
      const events = await swEvents(page);
      expect(events).toContainEqual(expect.objectContaining({ type: 'delta', url: aboutPackage, detail: 'delta 1' }));
      expect(events).toContainEqual(expect.objectContaining({ type: 'object-served', url: '/img/big.svg' }));
      // The build's cache now holds the whole page: the next visit needs no network at all.
      proxy!.reset();
      await page.goto(`${proxy!.origin}/`);
      await pageDone(page);
      await page.goto(`${proxy!.origin}/about/`);
      await pageDone(page);
      expect(proxy!.requests()).toEqual([]);
    });

    it(
      'a site too big for a whole listing: an unseen page comes ' +
        'whole; a held page a deploy changed comes as a delta',
      async () => {
        const cfg = { options: { routesMaxAgeMs: 0 } };
        // listingBytes 0: the server never sends the whole listing, only the packages the worker holds.
        await start(spec(1), cfg, 0);
        const page = await install();
        await page.goto(`${proxy!.origin}/`);
        await pageDone(page);
        await waitEvent(page, (e) => e.type === 'delta' && /^listing build-1 \(\d+ packages\)$/.test(e.detail ?? ''));
        proxy!.reset();
        await page.click('#next');
        await page.waitForURL(`${proxy!.origin}/about/`);
        await pageDone(page);
        // Before, a manifest this size (the whole site's) was not read at all: no deltas ever, held pages or not.
        const about = proxy!.requests().filter((r) => r.path.endsWith('.objp'));
        expect(about).toEqual([{ path: buildSite(spec(1)).pagePackage['/about/'], have: false }]);
        const s2 = spec(2);
        const site2 = buildSite(s2);
        await writeSite(dir, s2, site2, workerFiles(b, cfg));
        await server!.reload();
        // The worker learns of build 2 after this navigation and asks the listing for the pages it holds.
        await page.goto(`${proxy!.origin}/about/`);
        await pageDone(page);
        await waitEvent(page, (e) => e.type === 'delta' && e.detail === 'listing build-2 (2 packages)');
        const ref = await reference(browser, `${proxy!.origin}/`);
        proxy!.reset();
        await page.goto(`${proxy!.origin}/`);
        await pageDone(page);
        // Build 2's shared package is new (the page before was answered from build 1's table): it comes whole.
        const shared = site2.sharedPackage.common!;
        // (The two are fetched in parallel: either may come first. No listing request: both pages are listed.)
        const seen = proxy!.requests().filter((r) => r.path !== '/_objpack/routes.json');
        expect(seen.sort((x, y) => x.path.localeCompare(y.path))).toEqual([
          { path: site2.pagePackage['/']!, have: true },
          { path: shared, have: false },
        ]);
        const full = site2.files.get(site2.pagePackage['/']!)!.body.length + site2.files.get(shared)!.body.length;
        expect(proxy!.bytes()).toBeLessThan(full - 30_000);
        const got = await snapshot(page);
        expect(got.dom).toBe(ref.dom);
        expect(got.shot.equals(ref.shot)).toBe(true);
      },
    );

    it(
      'v1 → v2: a delta of another build is refused (full ' + 'package instead); then only changed objects travel',
      async () => {
        const cfg = { options: { routesMaxAgeMs: 0 } };
        await start(spec(1), cfg);
        const page = await install();
        await page.goto(`${proxy!.origin}/`);
        await pageDone(page);
        await waitEvent(page, listingEvent('build-1'));
        const s2 = spec(2);
        const site2 = buildSite(s2);
        await writeSite(dir, s2, site2, workerFiles(b, cfg));
        await server!.reload();
        // The worker still has v1's table and listing: its claims name v1 digests, and the v2 delta is refused.
        proxy!.reset();
        await page.goto(`${proxy!.origin}/about/`);
        await pageDone(page);
        const events = await waitEvent(page, listingEvent('build-2'));
        expect(events).toContainEqual(
          expect.objectContaining({ type: 'fallback', url: site2.pagePackage['/about/'], code: 'OBJPSW_DELTA' }),
        );
        expect(proxy!.requests().filter((r) => r.path === site2.pagePackage['/about/'])).toEqual([
          { path: site2.pagePackage['/about/'], have: true },
          { path: site2.pagePackage['/about/'], have: false },
        ]);
        expect(await page.textContent('h1')).toBe('About v2');
        // With v2's table and listing, the home page's v2 package leaves out what v1 already delivered.
        const ref = await reference(browser, `${proxy!.origin}/`);
        proxy!.reset();
        await page.goto(`${proxy!.origin}/`);
        await pageDone(page);
        // (routes.json is revalidated after every navigation here: routesMaxAgeMs 0.)
        const seen = proxy!.requests().filter((r) => r.path !== '/_objpack/routes.json');
        if (seen.length !== 1) console.log('DEBUG', JSON.stringify(await swEvents(page)));
        expect(seen).toEqual([{ path: site2.pagePackage['/']!, have: true }]);
        expect(proxy!.bytes()).toBeLessThan(site2.files.get(site2.pagePackage['/']!)!.body.length - 30_000);
        const got = await snapshot(page);
        expect(got.dom).toBe(ref.dom);
        expect(got.shot.equals(ref.shot)).toBe(true);
      },
    );

    it('a held copy that vanished before the delta arrived: that object comes from the network', async () => {
      const site = await start(spec(1));
      const ref = await reference(browser, `${proxy!.origin}/about/`);
      const page = await install();
      await page.goto(`${proxy!.origin}/`);
      await pageDone(page);
      await waitEvent(page, listingEvent('build-1'));
      // Behind the worker's back (as a storage clean-up might): it still believes it holds the image.
      await page.evaluate(async () => {
        for (const k of await caches.keys()) if (k.includes('-build-')) await caches.delete(k);
      });
      proxy!.reset();
      await page.click('#next');
      await page.waitForURL(`${proxy!.origin}/about/`);
      await pageDone(page);
      expect(proxy!.requests()).toEqual([
        { path: site.pagePackage['/about/'], have: true },
        { path: '/img/big.svg', have: false },
      ]);
      const got = await snapshot(page);
      expect(got.dom).toBe(ref.dom);
      expect(got.shot.equals(ref.shot)).toBe(true);
      expect(await swEvents(page)).toContainEqual(
        expect.objectContaining({ type: 'fallback', url: '/img/big.svg', code: 'OBJPSW_DELTA' }),
      );
    });
  });

  describe('against a plain static host', () => {
    let server: TestServer;
    beforeEach(async () => {
      server = await new TestServer().start();
      context = await browser.newContext();
    });
    afterEach(async () => {
      await context.close();
      await server.close();
    });

    it('stays off: no X-Objpack-Have, no listing request, whole packages', async () => {
      const s = spec(1);
      const site = serveSite(server, b, s);
      server.files.set(LISTING_PATH, {
        type: 'application/json',
        body: Buffer.from(JSON.stringify(listingFor(s, site))),
      });
      const page = await installWorker(context, server);
      await page.goto(`${server.origin}/`);
      await pageDone(page);
      await page.click('#next');
      await page.waitForURL(`${server.origin}/about/`);
      await pageDone(page);
      const log = server.log.splice(0).filter((r) => !WORKER_SCRIPTS.has(r.path));
      expect(log.map((r) => r.path).sort()).toEqual(
        [site.pagePackage['/']!, site.sharedPackage.common!, site.pagePackage['/about/']!].sort(),
      );
      expect(log.filter((r) => r.headers['x-objpack-have'] !== undefined)).toEqual([]);
      expect(await page.textContent('h1')).toBe('About v1');
    });

    it('a delta request that fails is retried once for the whole package', async () => {
      const s = spec(1);
      const site = serveSite(server, b, s);
      server.files.set(LISTING_PATH, {
        type: 'application/json',
        body: Buffer.from(JSON.stringify(listingFor(s, site))),
      });
      // Looks like objpack serve (Vary), then fails every delta: a broken proxy or server in between.
      for (const path of Object.values(site.pagePackage)) {
        server.hooks.set(path, (req, res) => {
          res.setHeader('vary', 'X-Objpack-Have');
          if (req.headers['x-objpack-have'] === undefined) return false;
          res.writeHead(500, { 'content-type': 'text/plain' }).end('delta failed');
          return true;
        });
      }
      const ref = await reference(browser, `${server.origin}/about/`);
      const page = await installWorker(context, server);
      await page.goto(`${server.origin}/`);
      await pageDone(page);
      await waitEvent(page, listingEvent('build-1'));
      server.log.splice(0);
      await page.click('#next');
      await page.waitForURL(`${server.origin}/about/`);
      await pageDone(page);
      const log = server.log.splice(0).filter((r) => !WORKER_SCRIPTS.has(r.path));
      expect(log.map((r) => [r.path, r.headers['x-objpack-have'] !== undefined])).toEqual([
        [site.pagePackage['/about/'], true],
        [site.pagePackage['/about/'], false],
      ]);
      const got = await snapshot(page);
      expect(got.dom).toBe(ref.dom);
      expect(got.shot.equals(ref.shot)).toBe(true);
    });
  });
});
