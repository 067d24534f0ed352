import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, installWorker, pageDone, serveSite, swEvents } from '../test-utils/browser.js';
import { useChromiumSuite } from '../test-utils/chromium-suite.js';
import { stallAfter } from '../test-utils/server.js';
import { svg, testSite, type SiteSpec } from '../test-utils/site.js';

/** The test site with a link to `/far/` below the fold: hinted only by an intent (hover), never by the viewport. */
const farSite = (register: Buffer, extra: Partial<SiteSpec> & { more?: string } = {}) => {
  const far = { type: 'text/html; charset=utf-8', body: Buffer.from('<!doctype html><title>Far</title><h1>Far</h1>') };
  return testSite(register, 1, {
    prefetch: true,
    more: `${extra.more ?? ''}<div style="height:5000px"></div><a id="far" href="/far/">far</a>`,
    files: { '/far/': far, ...extra.files },
    pages: { '/far/': { objects: [], shared: ['common'] } },
  });
};

describe.skipIf(!CHROMIUM)('service worker in Chromium: prefetch never competes with the page', () => {
  const suite = useChromiumSuite();
  const asked = (path: string | undefined) => suite.server.log.filter((r) => r.path === path).length;

  it('a hover while the page is still loading is hinted only after its load event', async () => {
    // An image from the network that the server holds keeps the page's load event back.
    const site = serveSite(
      suite.server,
      suite.b,
      farSite(suite.b.register, {
        more: '<img src="/slow.svg" width="4" height="4">',
        files: { '/slow.svg': svg('red') },
      }),
    );
    const slow = stallAfter(0);
    suite.server.hooks.set('/slow.svg', slow.hook);
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`, { waitUntil: 'domcontentloaded' });
    await slow.reached;
    // The snippet is a defer script: it listens from DOMContentLoaded on.
    await page.dispatchEvent('#far', 'mouseover');
    await page.waitForTimeout(700);
    expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
    expect(asked(site.pagePackage['/far/'])).toBe(0);
    slow.release();
    await page.waitForFunction(() => document.readyState === 'complete');
    await expect.poll(() => asked(site.pagePackage['/far/']), { timeout: 15_000 }).toBe(1);
  });

  it('a navigation cancels packages fetched ahead for other pages at once', async () => {
    const site = serveSite(suite.server, suite.b, farSite(suite.b.register));
    // The hinted page's package starts and then stalls, as on a slow link: its request stays open.
    let started!: () => void;
    const startedP = new Promise<void>((r) => (started = r));
    let cutEarly = false;
    suite.server.hooks.set(site.pagePackage['/far/']!, (_req, res: ServerResponse, file) => {
      res.writeHead(200, { 'content-type': file!.type, 'content-length': file!.body.length });
      res.write(file!.body.subarray(0, 16));
      res.on('close', () => (cutEarly = !res.writableFinished));
      started();
      return new Promise<boolean>(() => {});
    });
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    await page.dispatchEvent('#far', 'mouseover');
    await startedP;
    await page.click('#next');
    await page.waitForURL(`${suite.server.origin}/about/`);
    await pageDone(page);
    // Well before the 10 s stall watchdog would give up on it.
    await expect.poll(() => cutEarly, { timeout: 3000 }).toBe(true);
    expect(await page.locator('h1').textContent()).toBe('About v1');
  });

  it('a package past the prefetch byte budget is not fetched ahead; the click still gets the page', async () => {
    // The shared package's record is read late (a busy disk): the page package's headers arrive before it
    // is found held, and must meet the budget all the same.
    const site = serveSite(suite.server, suite.b, farSite(suite.b.register), {
      options: { prefetchBytes: 64 },
      slowSharedMatchMs: 500,
    });
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    await page.dispatchEvent('#far', 'mouseover');
    await expect
      .poll(
        async () =>
          (await swEvents(page)).some(
            (e) => e.type === 'fallback' && e.url === site.pagePackage['/far/'] && e.code === 'OBJPSW_ABORTED',
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    await page.click('#far');
    await page.waitForURL(`${suite.server.origin}/far/`);
    expect(await page.locator('h1').textContent()).toBe('Far');
    // Once cut at its headers by the budget, once for the navigation.
    expect(asked(site.pagePackage['/far/'])).toBe(2);
  });

  it(
    "a page fetched ahead is answered from the prefetch's " + 'verified bytes in memory, not from Cache Storage',
    async () => {
      const site = serveSite(suite.server, suite.b, testSite(suite.b.register, 1, { prefetch: true }));
      const page = await installWorker(suite.context, suite.server);
      await page.goto(`${suite.server.origin}/`);
      await pageDone(page);
      // The on-screen link's page package is fetched ahead once the page is idle (its shared package is held).
      await expect.poll(() => asked(site.pagePackage['/about/']), { timeout: 15_000 }).toBe(1);
      await pageDone(page);
      await swEvents(page);
      suite.server.take();
      await page.click('#next');
      await page.waitForURL(`${suite.server.origin}/about/`);
      await pageDone(page);
      // `object-served` is the event of an object answered from a package's bytes in memory.
      const served = (await swEvents(page)).filter((e) => e.type === 'object-served').map((e) => e.url);
      expect(served).toContain('/img/about.svg');
      expect(suite.server.take()).toEqual([]);
      expect(await page.locator('h1').textContent()).toBe('About v1');
    },
  );
});
