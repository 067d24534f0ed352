import type { PreloadEntry } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, pageDone, serveSite, swEvents, swFetches } from '../test-utils/browser.js';
import { useChromiumSuite } from '../test-utils/chromium-suite.js';
import { classicScriptSite, testSite } from '../test-utils/site.js';

/** What the build announces for both pages of the test site: its shared CSS, modules and CSS image. */
const shared: PreloadEntry[] = [
  ['/assets/site.css', 'style'],
  ['/assets/base.css', 'style'],
  ['/assets/app.js', 'module'],
  ['/assets/dep.js', 'module'],
  ['/assets/bg.svg', 'image'],
];
const preload = { '/': shared, '/about/': [...shared, ['/img/about.svg', 'image'] as PreloadEntry] };
/** A `_headers` rule that lets a browser reuse the site's assets for ten minutes. */
const objectCache: Array<[string, string, string]> = [['^/assets/', 'iu', 'public, max-age=600']];
/** The worker knows the test site's snippet as a build's worker knows `objpack-register.js`. */
const worker = { options: { registerUrl: '/sw-register.js' } };

describe.skipIf(!CHROMIUM)('service worker in Chromium: the warm page after a first visit', () => {
  const suite = useChromiumSuite();

  /** A first visit to `/` (no worker yet) until the worker controls it and its warm page, if any, is gone. */
  const firstVisit = async (warmExpected: boolean) => {
    const page = await suite.context.newPage();
    await page.goto(`${suite.server.origin}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 10_000 });
    await pageDone(page);
    if (warmExpected) {
      await expect
        .poll(async () => (await swEvents(page)).some((e) => e.type === 'warm'), { timeout: 15_000 })
        .toBe(true);
    }
    await page.waitForFunction(() => !document.querySelector('iframe[data-objpack-warm]'), undefined, {
      timeout: 15_000,
    });
    await swFetches(page);
    return page;
  };

  it("takes the first page's shared objects into the next page from the memory cache, not the worker", async () => {
    serveSite(suite.server, suite.b, testSite(suite.b.register, 1, { prefetch: true, preload, objectCache }), worker);
    const page = await suite.context.newPage();
    await page.goto(`${suite.server.origin}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 10_000 });
    await expect
      .poll(async () => (await swEvents(page)).find((e) => e.type === 'warm')?.detail, { timeout: 15_000 })
      .toBe(String(shared.length + 1));
    await page.waitForFunction(() => !document.querySelector('iframe[data-objpack-warm]'), undefined, {
      timeout: 15_000,
    });
    // The worker's answers carry the host's rule, as the host's own responses would.
    const cc = await page.evaluate(async () => (await fetch('/assets/data.json')).headers.get('cache-control'));
    expect(cc).toBe('public, max-age=600');
    await swFetches(page);
    await page.click('#next');
    await page.waitForURL(`${suite.server.origin}/about/`);
    await pageDone(page);
    expect(await page.locator('#js').textContent()).toBe('module v1');
    const asked = (await swFetches(page)).map((f) => f.url);
    // Its own image and the data the script fetches go through the worker; what the warm page loaded does not,
    // the registration snippet included (the worker answers it with a few minutes of reuse).
    expect(asked).toContain('/img/about.svg');
    for (const url of ['/sw-register.js', ...shared.map(([u]) => u)]) expect(asked).not.toContain(url);
  });

  it("loads the first page's classic scripts without running them; the next page takes them from memory", async () => {
    serveSite(suite.server, suite.b, classicScriptSite(suite.b.register, preload, objectCache), worker);
    const page = await suite.context.newPage();
    await page.goto(`${suite.server.origin}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 10_000 });
    await expect
      .poll(async () => (await swEvents(page)).find((e) => e.type === 'warm')?.detail, { timeout: 15_000 })
      .toBe(String(shared.length + 2));
    // Well before the snippet's own 10 s limit: the page said it was done.
    await page.waitForFunction(() => !document.querySelector('iframe[data-objpack-warm]'), undefined, {
      timeout: 4_000,
    });
    // The warm frame fetched it from the worker (the page itself, without a worker, did not ask it) and went
    // without running it.
    expect((await swFetches(page)).map((f) => f.url)).toContain('/assets/legacy.js');
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { ran?: string[] }).ran)).toEqual(['/']);
    await page.click('#next');
    await page.waitForURL(`${suite.server.origin}/about/`);
    await pageDone(page);
    expect(await page.evaluate(() => (window as unknown as { ran?: string[] }).ran)).toEqual(['/about/']);
    const asked = (await swFetches(page)).map((f) => f.url);
    expect(asked).toContain('/img/about.svg');
    // Nor what the frame loaded beside it: it waited for all of it before it stopped.
    for (const url of ['/assets/legacy.js', ...shared.map(([u]) => u)]) expect(asked).not.toContain(url);
  });

  it('preloads nothing when the host gives objects no freshness: the next page asks the worker as before', async () => {
    serveSite(suite.server, suite.b, testSite(suite.b.register, 1, { prefetch: true, preload }), worker);
    const page = await firstVisit(true);
    const warm = (await swEvents(page)).find((e) => e.type === 'warm');
    expect(warm?.detail ?? '0').toBe('0');
    await page.click('#next');
    await page.waitForURL(`${suite.server.origin}/about/`);
    await pageDone(page);
    const asked = (await swFetches(page)).map((f) => f.url);
    expect(asked).toEqual(
      expect.arrayContaining(['/assets/site.css', '/assets/app.js', '/img/about.svg', '/sw-register.js']),
    );
  });

  it('loads no warm page with data-warm="off", nor on a page the worker answered', async () => {
    serveSite(
      suite.server,
      suite.b,
      testSite(suite.b.register, 1, { prefetch: true, preload, objectCache, warm: 'off' }),
      worker,
    );
    const page = await firstVisit(false);
    await page.waitForTimeout(1500);
    expect((await swEvents(page)).filter((e) => e.type === 'warm')).toEqual([]);
    suite.server.take();
    serveSite(suite.server, suite.b, testSite(suite.b.register, 1, { prefetch: true, preload, objectCache }), worker);
    await page.goto(`${suite.server.origin}/about/`);
    await pageDone(page);
    await page.waitForTimeout(1500);
    expect((await swEvents(page)).filter((e) => e.type === 'warm')).toEqual([]);
    expect(suite.server.log.some((r) => r.path?.includes('warm'))).toBe(false);
  });
});
