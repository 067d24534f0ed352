import type { RouteTable } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import {
  cacheContents,
  CHROMIUM,
  copiedBuilds,
  installWorker,
  pageDone,
  reference,
  serveSite,
  snapshot,
  stopWorkers,
} from '../test-utils/browser.js';
import { useChromiumSuite } from '../test-utils/chromium-suite.js';
import { deployCfg, readState } from '../test-utils/deploy-site.js';
import { testSite, type SiteSpec } from '../test-utils/site.js';
import { pageUrls, stoppedRoutes } from './stopped-route-rules.js';

/**
 * Chromium stops a worker after 30 s without events: the reader's next page opens with it stopped. The
 * browser answers a held page from its copy in the pages cache without starting the worker (static routing,
 * stopped-route.ts); any other page goes to the network, and its objects never mix builds.
 */
describe.skipIf(!CHROMIUM)('service worker in Chromium: navigations while the worker is stopped', () => {
  const suite = useChromiumSuite();

  /** Installs the worker and opens /about/ through it; resolves once the page's copy is written. */
  const openAbout = async () => {
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/about/`);
    await pageDone(page);
    await expect
      .poll(async () => (await cacheContents(page))['objpack-v1-pages'] ?? [], { timeout: 5_000 })
      .toContain('/about/');
    return page;
  };

  it('a held page opens from its copy: nothing asked of the server, rendered as without objpack', async () => {
    const preload: SiteSpec['preload'] = { '/about/': [['/assets/base.css', 'style']] };
    serveSite(suite.server, suite.b, testSite(suite.b.register, 1, { preload }));
    const ref = await reference(suite.browser, `${suite.server.origin}/about/`);
    const page = await openAbout();
    expect(await copiedBuilds(page)).toEqual(['build-1']);
    // The copy carries the worker's own answer's preloads.
    const link = await page.evaluate(async () =>
      (await (await caches.open('objpack-v1-pages')).match('/about/'))!.headers.get('link'),
    );
    expect(link).toContain('/assets/base.css');

    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    await stopWorkers(suite.context, page);
    suite.server.take();
    await page.goto(`${suite.server.origin}/about/`);
    await pageDone(page);
    // The copy answered: a navigation the worker answers after a restart asks the server nothing either, but
    // Chromium sends a stopped worker's navigation to the network as well (ServiceWorkerAutoPreload).
    expect(suite.server.take()).toEqual([]);
    const got = await snapshot(page);
    expect(got.dom).toBe(ref.dom);
    expect(got.shot.equals(ref.shot)).toBe(true);
  });

  it('after a deploy the copies go: the page comes from the network, and its objects from the new build', async () => {
    serveSite(suite.server, suite.b, testSite(suite.b.register, 1), deployCfg);
    const page = await openAbout();

    serveSite(suite.server, suite.b, testSite(suite.b.register, 2), deployCfg);
    // The running worker answers build 1 at once and moves its table to build 2 behind it.
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    await expect.poll(async () => copiedBuilds(page), { timeout: 5_000 }).not.toContain('build-1');

    await stopWorkers(suite.context, page);
    suite.server.take();
    await page.goto(`${suite.server.origin}/about/`);
    await pageDone(page);
    expect(suite.server.take()).toContain('/about/');
    expect(await readState(page)).toEqual(['About v2', 'module v2', 'data v2']);
  });

  it("a copy's package gone from Cache Storage comes as one package, not object by object", async () => {
    const site = serveSite(suite.server, suite.b, testSite(suite.b.register, 1));
    const ref = await reference(suite.browser, `${suite.server.origin}/about/`);
    const page = await openAbout();
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    const shared = site.sharedPackage.common!;
    await page.evaluate((name) => caches.delete(name), `objpack-v1-shared-${shared}`);
    await stopWorkers(suite.context, page);
    suite.server.take();
    await page.goto(`${suite.server.origin}/about/`);
    await pageDone(page);
    // The copy answered; the restarted worker reads the held packages' records and fetches the missing one
    // whole (the browser may take it from its HTTP cache): it is held again, and no object was asked for alone.
    const asked = suite.server.take();
    expect(asked).not.toContain('/about/');
    expect(asked.filter((p) => p.startsWith('/assets/'))).toEqual([]);
    await expect
      .poll(async () => (await cacheContents(page))[`objpack-v1-shared-${shared}`] ?? [], { timeout: 5_000 })
      .toContain(shared);
    const got = await snapshot(page);
    expect(got.dom).toBe(ref.dom);
    expect(got.shot.equals(ref.shot)).toBe(true);
  });

  it('a page without a copy opens from the network, its objects from the table checked now', async () => {
    const site = serveSite(suite.server, suite.b, testSite(suite.b.register, 1));
    const ref = await reference(suite.browser, `${suite.server.origin}/about/`);
    const page = await installWorker(suite.context, suite.server);
    await stopWorkers(suite.context, page);
    suite.server.take();
    await page.goto(`${suite.server.origin}/about/`);
    await pageDone(page);
    const asked = suite.server.take();
    expect(asked).toContain('/about/');
    expect(asked).toContain('/_objpack/routes.json');
    // Not the page package: the objects it would bring come one by one, and the page's own HTML came already.
    expect(asked).not.toContain(site.pagePackage['/about/']);
    const got = await snapshot(page);
    expect(got.dom).toBe(ref.dom);
    expect(got.shot.equals(ref.shot)).toBe(true);
  });
});

describe('the static routes for a stopped worker', () => {
  const table: RouteTable = {
    version: 1,
    buildId: 'b1',
    packages: ['/_objpack/p0.objp', '/_objpack/p1.objp', '/_objpack/p2.objp'],
    pages: { '/docs/': [0], '/docs/a.html': [1], '/b/index.html': [2] },
    cleanUrls: true,
  };

  it('copies a page under each URL the table maps to it, and no other', () => {
    expect(pageUrls(table, '/docs/').sort()).toEqual(['/docs/', '/docs/index.html']);
    expect(pageUrls(table, '/docs/a.html').sort()).toEqual(['/docs/a', '/docs/a.html']);
    expect(pageUrls(table, '/b/index.html').sort()).toEqual(['/b/', '/b/index', '/b/index.html']);
    // A spelling a navigation used is kept where the table agrees, dropped where it names another page.
    expect(pageUrls(table, '/docs/a.html', '/docs/%61.html')).toContain('/docs/%61.html');
    expect(pageUrls(table, '/docs/a.html', '/docs/')).not.toContain('/docs/');
  });

  it("routes only query-less navigations in the worker's scope to the pages cache, its own files to itself", () => {
    const [own, pages] = stoppedRoutes('/my (site)/', '/my (site)/_objpack/', 'objpack-x-pages');
    expect(own).toEqual({
      condition: { urlPattern: { pathname: '/my \\(site\\)/_objpack/*' } },
      source: 'fetch-event',
    });
    expect(pages).toEqual({
      condition: {
        requestMode: 'navigate',
        runningStatus: 'not-running',
        urlPattern: { pathname: '/my \\(site\\)/*', search: '' },
      },
      source: { cacheName: 'objpack-x-pages' },
    });
  });
});
