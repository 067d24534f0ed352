import { describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  installWorker,
  pageDone,
  reference,
  serveSite,
  snapshot,
  stopWorkers,
  swEvents,
} from '../test-utils/browser.js';
import { useChromiumSuite } from '../test-utils/chromium-suite.js';
import { svg, testSite } from '../test-utils/site.js';

/**
 * The browser evicted the origin's Cache Storage while the worker stayed registered (storage pressure):
 * the route table, the packages and the worker's memory are gone. The next navigation must rebuild from
 * one request for the table and one per package, not fetch the page and each of its objects.
 */
describe.skipIf(!CHROMIUM)('service worker in Chromium: Cache Storage evicted', () => {
  const suite = useChromiumSuite();

  /** The test site's home page with 30 more images in its own package: 37 objects in all. */
  const bigHome = () => {
    const names = Array.from({ length: 30 }, (_, i) => `/img/tile-${i}.svg`);
    const files = Object.fromEntries(names.map((n, i) => [n, svg(`hsl(${i * 12} 60% 50%)`)]));
    const more = names.map((n) => `<img src="${n}" width="40" height="40">`).join('');
    return testSite(suite.b.register, 1, {
      files,
      more,
      pages: { '/': { objects: ['/img/home.svg', ...names], shared: ['common'] } },
    });
  };

  it('recovers with one request for the route table and one per package', async () => {
    const site = serveSite(suite.server, suite.b, bigHome());
    const ref = await reference(suite.browser, `${suite.server.origin}/`);
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    // Eviction: every cache of the origin, then the worker's memory (Chromium stops idle workers).
    await page.evaluate(async () => {
      for (const name of await caches.keys()) await caches.delete(name);
    });
    await stopWorkers(suite.context, page);
    suite.server.take();
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    const requests = suite.server.take();
    // The shared package may come from the HTTP cache (immutable). The page itself ('/') comes from the
    // network: with the pages cache gone too, the browser's static route (stopped-route.ts) sends a stopped
    // worker's navigation there; the worker then recovers the table and the packages for the page's objects.
    const allowed = ['/', '/_objpack/routes.json', site.pagePackage['/']!, site.sharedPackage.common!];
    expect(requests.filter((r) => !allowed.includes(r))).toEqual([]);
    expect(requests.filter((r) => r === '/_objpack/routes.json' || r === site.pagePackage['/'])).toHaveLength(2);
    const events = await swEvents(page);
    expect(events.filter((e) => e.type === 'fallback')).toEqual([]);
    const served = events.filter((e) => e.type === 'object-served').map((e) => e.url);
    expect(served).toEqual(expect.arrayContaining(['/assets/site.css', '/img/tile-0.svg', '/img/tile-29.svg']));
    const got = await snapshot(page);
    expect(got.dom).toBe(ref.dom);
    expect(got.shot.equals(ref.shot)).toBe(true);
    // And the table is held again: the next visit needs no request at all.
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    expect(suite.server.take()).toEqual([]);
  });

  it('without a table to be had, the page and its objects come from the network as without objpack', async () => {
    const site = serveSite(suite.server, suite.b, bigHome());
    const ref = await reference(suite.browser, `${suite.server.origin}/`);
    const page = await installWorker(suite.context, suite.server);
    await page.evaluate(async () => {
      for (const name of await caches.keys()) await caches.delete(name);
    });
    await stopWorkers(suite.context, page);
    suite.server.files.delete('/_objpack/routes.json');
    suite.server.take();
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    const requests = suite.server.take();
    expect(requests).toEqual(expect.arrayContaining(['/_objpack/routes.json', '/', '/img/tile-29.svg']));
    expect(requests).not.toContain(site.pagePackage['/']);
    const got = await snapshot(page);
    expect(got.dom).toBe(ref.dom);
    expect(got.shot.equals(ref.shot)).toBe(true);
  });
});
