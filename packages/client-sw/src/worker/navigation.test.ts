import { expect, it } from 'vitest';
import {
  cacheContents,
  installWorker,
  pageDone,
  reference,
  serveSite,
  snapshot,
  swEvents,
} from '../test-utils/browser.js';
import { describeEngines, useEngineSuite } from '../test-utils/engine-suite.js';
import { stallAfter } from '../test-utils/server.js';
import { testSite } from '../test-utils/site.js';

describeEngines('navigations', (engine) => {
  const suite = useEngineSuite(engine);

  /**
   * Installs the worker, loads the home page, then navigates to `path`: the page, and the requests that navigation
   * made.
   */
  const fromHome = async (path: string) => {
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    suite.server.take();
    await page.goto(`${suite.server.origin}${path}`);
    await pageDone(page);
    return { page, requests: suite.server.take() };
  };
  /** The test host answers `from` with a 301 to `to`. */
  const redirect = (from: string, to: string) =>
    suite.server.hooks.set(from, (_req, res) => {
      res.writeHead(301, { location: to }).end();
      return true;
    });

  it('sends one request per package and none for the objects inside; renders as without objpack', async () => {
    const site = serveSite(suite.server, suite.b, testSite(suite.b.register));
    const ref = await reference(suite.engine, `${suite.server.origin}/`);
    suite.server.take();
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    expect(suite.server.take().sort()).toEqual([site.pagePackage['/']!, site.sharedPackage.common!].sort());
    const got = await snapshot(page);
    expect(got.dom).toBe(ref.dom);
    expect(got.shot.equals(ref.shot)).toBe(true);
    const served = (await swEvents(page)).filter((e) => e.type === 'object-served').map((e) => e.url);
    expect(served).toEqual(
      expect.arrayContaining([
        '/assets/site.css',
        '/assets/base.css',
        '/assets/app.js',
        '/assets/dep.js',
        '/assets/data.json',
        '/img/home.svg',
        '/assets/bg.svg',
      ]),
    );
  });

  it('second page reuses shared objects: only its page package is fetched', async () => {
    const site = serveSite(suite.server, suite.b, testSite(suite.b.register));
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    suite.server.take();
    await page.click('#next');
    await page.waitForURL(`${suite.server.origin}/about/`);
    await pageDone(page);
    expect(suite.server.take()).toEqual([site.pagePackage['/about/']]);
    expect(await page.textContent('h1')).toBe('About v1');
    // Repeat navigation: everything is in Cache Storage, nothing goes to the network.
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    expect(suite.server.take()).toEqual([]);
    const caches = await cacheContents(page);
    expect(caches['objpack-v1-build-build-1']).toEqual(
      expect.arrayContaining(['/', '/about/', '/img/home.svg', '/img/about.svg']),
    );
    expect(caches[`objpack-v1-shared-${site.sharedPackage.common}`]).toEqual(
      expect.arrayContaining(['/assets/site.css', '/assets/app.js']),
    );
  });

  it(
    'clean URLs: with the table saying so, /contact is ' + 'the page /contact.html, answered from its package',
    async () => {
      const base = testSite(suite.b.register);
      const spec = {
        ...base,
        cleanUrls: true,
        files: { ...base.files, '/contact.html': base.files['/']! },
        pages: { ...base.pages, '/contact.html': { objects: ['/img/home.svg'], shared: ['common'] } },
      };
      const site = serveSite(suite.server, suite.b, spec);
      const { page, requests } = await fromHome('/contact');
      // The test server has no /contact (it would 404): only the page's package went to the network.
      expect(requests).toEqual([site.pagePackage['/contact.html']]);
      expect([await page.textContent('h1'), new URL(await page.url()).pathname]).toEqual(['Home v1', '/contact']);
      expect(await page.textContent('#js')).toBe('module v1');
    },
  );

  for (const bareDirUrls of [true, false]) {
    it(
      bareDirUrls
        ? 'bare directory URLs on: /about is the page /about/, answered from its package'
        : 'bare directory URLs off: /about is left to the host, which redirects it',
      async () => {
        const site = serveSite(suite.server, suite.b, { ...testSite(suite.b.register), bareDirUrls });
        // Where the table does not say otherwise the host redirects /about to /about/ (as Netlify and objpack serve
        // do).
        redirect('/about', '/about/');
        const { page, requests } = await fromHome('/about');
        // On: only the page's package goes to the network, and the page stays at /about.
        expect(requests).toEqual(bareDirUrls ? [site.pagePackage['/about/']] : ['/about', site.pagePackage['/about/']]);
        expect([await page.textContent('h1'), new URL(await page.url()).pathname]).toEqual([
          'About v1',
          bareDirUrls ? '/about' : '/about/',
        ]);
      },
    );
  }

  it(
    "a page the host redirects before its files (the table's " +
      'redirects) goes to the network and follows the redirect',
    async () => {
      const base = testSite(suite.b.register);
      const spec = {
        ...base,
        redirects: [['^\\/contact\\.html$', 'i']] as Array<[string, string]>,
        files: { ...base.files, '/contact.html': base.files['/']! },
        pages: { ...base.pages, '/contact.html': { objects: ['/img/home.svg'], shared: ['common'] } },
      };
      const site = serveSite(suite.server, suite.b, spec);
      redirect('/contact.html', '/about/');
      const { page, requests } = await fromHome('/contact.html');
      // The host's redirect, then the page it names, from its package as usual; never /contact.html's package.
      expect(requests).toEqual(['/contact.html', site.pagePackage['/about/']]);
      expect([await page.textContent('h1'), new URL(await page.url()).pathname]).toEqual(['About v1', '/about/']);
    },
  );

  it('streams the HTML before the package is complete and answers objects from the stream', async () => {
    const site = serveSite(suite.server, suite.b, testSite(suite.b.register));
    const page = await installWorker(suite.context, suite.server);
    const pkg = site.pagePackage['/']!;
    const body = suite.server.files.get(pkg)!.body;
    // Stop just after the HTML's bytes (index + HTML body = all but the image's bytes).
    const stall = stallAfter(body.length - suite.server.files.get('/img/home.svg')!.body.length);
    suite.server.hooks.set(pkg, stall.hook);
    const nav = page.goto(`${suite.server.origin}/`);
    await stall.reached;
    // The page is parsed and its shared objects applied while the page package is still open.
    await page.waitForFunction(
      () => document.querySelector('h1')?.textContent === 'Home v1' && document.documentElement.dataset.ready === '1',
    );
    expect(await page.evaluate(() => (document.getElementById('img') as HTMLImageElement).complete)).toBe(false);
    stall.release();
    await nav;
    await pageDone(page);
    expect(suite.server.take().filter((p) => !p.startsWith('/_objpack/'))).toEqual([]);
  });

  /**
   * A site with 12,000 more pages (≈ 300 KB of table, which the worker also stores in shards), the worker
   * installed, then stopped with the whole table gone from its meta cache: only the shards can answer.
   */
  async function restartedOnLargeSite() {
    // Without static routes (as in Firefox and WebKit): Chromium would send a stopped worker's navigation to
    // a page it has no copy of to the network (stopped-route.ts), and this is about the worker's answer.
    const site = serveSite(suite.server, suite.b, testSite(suite.b.register), { options: { stoppedRoute: false } });
    const routes = { ...site.routes, pages: { ...site.routes.pages } };
    for (let i = 0; i < 12_000; i++) routes.pages[`/pad/page-${i}/`] = site.routes.pages['/about/']!;
    suite.server.files.set('/_objpack/routes.json', {
      type: 'application/json',
      body: Buffer.from(JSON.stringify(routes)),
      headers: { 'cache-control': 'no-cache' },
    });
    const page = await installWorker(suite.context, suite.server);
    const keys = () =>
      page.evaluate(async () =>
        (await (await caches.open('objpack-v1-meta')).keys())
          .map((r) => new URL(r.url).search)
          .filter((s) => s.startsWith('?objpack-shard=')),
      );
    await expect.poll(keys).toContain('?objpack-shard=core');
    await page.evaluate(async () =>
      (await caches.open('objpack-v1-meta')).delete(`${location.origin}/_objpack/routes.json`),
    );
    await suite.stopWorkers(page);
    suite.server.take();
    return { site, page };
  }

  // Only Chromium's driver can stop a worker.
  it.skipIf(engine !== 'chromium')(
    'a restarted worker answers a navigation on a large site from the shard of the table that holds the page',
    async () => {
      const { site, page } = await restartedOnLargeSite();
      await page.goto(`${suite.server.origin}/about/`);
      await pageDone(page);
      const asked = suite.server.take();
      expect(asked).toContain(site.pagePackage['/about/']);
      // From the shard: the package is asked for before any table (recovering the table would ask first).
      const table = asked.indexOf('/_objpack/routes.json');
      expect(table === -1 || table > asked.indexOf(site.pagePackage['/about/']!)).toBe(true);
      // Chromium 156 sends a stopped worker's navigation to the network itself while the worker starts
      // (ServiceWorkerAutoPreload); the page is still answered from the package, so no object is asked for.
      expect(asked.filter((p) => !p.startsWith('/_objpack/') && p !== '/about/')).toEqual([]);
      expect(await page.evaluate(() => document.querySelector('h1')?.textContent)).toBe('About v1');
    },
  );

  it.skipIf(engine !== 'chromium')(
    'a restarted worker prefetches a hinted page of a large site from the shard that holds it',
    async () => {
      const { site, page } = await restartedOnLargeSite();
      await page.evaluate(() =>
        navigator.serviceWorker.controller!.postMessage({ type: 'objpack:prefetch', urls: ['/about/'] }),
      );
      await expect.poll(() => suite.server.log.some((r) => r.path === site.pagePackage['/about/'])).toBe(true);
    },
  );

  it('offline: a visited page still opens', async () => {
    serveSite(suite.server, suite.b, testSite(suite.b.register));
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    const ref = await snapshot(page);
    await suite.offline(true);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    expect((await snapshot(page)).dom).toBe(ref.dom);
    await suite.offline(false);
  });
});
