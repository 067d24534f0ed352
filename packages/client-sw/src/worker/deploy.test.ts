import { expect, it } from 'vitest';
import type { ObjpackEvent } from '../options.js';
import {
  cacheContents,
  cacheNames,
  cleanup,
  installWorker,
  launchBrowser,
  pageDone,
  reference,
  serveSite,
  snapshot,
  stopWorkers,
  swEvents,
  swFrozen,
} from '../test-utils/browser.js';
import { describeEngines, useEngineSuite } from '../test-utils/engine-suite.js';
import type { EnginePage as Page } from '../test-utils/engines/index.js';
import { svg, testSite } from '../test-utils/site.js';

const cfg = { options: { routesMaxAgeMs: 0 } };

describeEngines('v1 → v2 deploys', (engine) => {
  const suite = useEngineSuite(engine);
  // Only Chromium's driver can stop a worker, and only Playwright's Chromium launches with the back/forward
  // cache on: those tests run there alone.
  const chromiumOnly = engine !== 'chromium';

  /** v1 has an extra object in the home page's package that v2 drops. */
  const v1 = () =>
    testSite(suite.b.register, 1, {
      files: { '/img/old.svg': svg('gray') },
      pages: { '/': { objects: ['/img/home.svg', '/img/old.svg'], shared: ['common'] } },
    });
  const readState = (p: Page) =>
    p.evaluate(() => [
      document.querySelector('h1')!.textContent,
      document.getElementById('js')!.textContent,
      document.getElementById('json')!.textContent,
    ]);

  it('refetches changed objects, evicts removed ones, never mixes builds in one page', async () => {
    serveSite(suite.server, suite.b, v1(), cfg);
    const tab1 = await installWorker(suite.context, suite.server);
    await tab1.goto(`${suite.server.origin}/about/`);
    await pageDone(tab1);
    const tab2 = await suite.context.newPage();
    await tab2.goto(`${suite.server.origin}/`);
    await pageDone(tab2);

    const v2site = serveSite(suite.server, suite.b, testSite(suite.b.register, 2), cfg);
    const ref2 = await reference(suite.engine, `${suite.server.origin}/`);
    suite.server.take();
    // The open v1 page keeps getting v1 objects, though the server now has v2 at the same URLs.
    expect(await tab1.evaluate(() => fetch('/assets/data.json').then((r) => r.json()))).toEqual({ msg: 'data v1' });

    // First navigation after the deploy: v1 from cache at once (no added round trip), table checked behind it.
    await tab2.goto(`${suite.server.origin}/`);
    await pageDone(tab2);
    const state = await readState(tab2);
    // Seen once in a full CI run (Home v1 with module and data v2: a clean-up took the page, not yet listed by
    // clients.matchAll(), for gone; see the next test). Kept: the worker's and server's view if it comes back.
    if (state[1] !== 'module v1')
      console.log('DEBUG deploy mix', JSON.stringify({ state, events: await swEvents(tab2), log: suite.server.log }));
    expect(state).toEqual(['Home v1', 'module v1', 'data v1']);
    // The check runs once the page is quiet; the next navigation is v2's once the worker has adopted v2's table
    // (the table's request alone was not enough: CI of 2105f68 saw the next navigation come before its answer).
    const events: ObjpackEvent[] = [];
    await expect
      .poll(
        async () => (
          events.push(...(await swEvents(tab2))),
          events.some((e) => e.type === 'routes-updated' && e.detail === 'build-2')
        ),
        { timeout: 5_000 },
      )
      .toBe(true);
    suite.server.take();

    await tab1.close();
    await tab2.goto(`${suite.server.origin}/`);
    await pageDone(tab2);
    expect(await readState(tab2)).toEqual(['Home v2', 'module v2', 'data v2']);
    expect((await snapshot(tab2)).dom).toBe(ref2.dom);
    expect(
      suite.server
        .take()
        .filter((p) => p !== '/_objpack/routes.json')
        .sort(),
    ).toEqual([v2site.pagePackage['/']!, v2site.sharedPackage.common!].sort());

    // Once no page uses build 1, its caches go.
    await tab2.goto(`${suite.server.origin}/about/`);
    await pageDone(tab2);
    await expect.poll(async () => (await cacheNames(tab2)).filter((n) => n.includes('build-1')).length).toBe(0);
    const caches = await cacheContents(tab2);
    expect(Object.keys(caches).sort()).toEqual([
      'objpack-v1-build-build-2',
      'objpack-v1-meta',
      `objpack-v1-shared-${v2site.sharedPackage.common}`,
    ]);
    expect(caches['objpack-v1-build-build-2']).not.toContain('/img/old.svg');
    expect(await readState(tab2)).toEqual(['About v2', 'module v2', 'data v2']);
  });

  it('a page the browser does not list yet keeps its build through a clean-up after a deploy', async () => {
    // Chromium lists a page in clients.matchAll() once the browser has taken in its commit, which races the
    // page's first requests to the worker: a clean-up then took the page for gone, and its later requests
    // followed the new table (the test above once saw Home v1 with module and data v2).
    const late = { ...cfg, listLateMs: 30_000 };
    serveSite(suite.server, suite.b, testSite(suite.b.register, 1), late);
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    // The table's check after a navigation waits for the page to go quiet.
    await expect
      .poll(() => suite.server.log.some((r) => r.path === '/_objpack/routes.json'), { timeout: 5_000 })
      .toBe(true);
    serveSite(suite.server, suite.b, testSite(suite.b.register, 2), late);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    expect(await readState(page)).toEqual(['Home v1', 'module v1', 'data v1']);
    const events: ObjpackEvent[] = [];
    await expect
      .poll(
        async () => (
          events.push(...(await swEvents(page))),
          events.some((e) => e.type === 'routes-updated' && e.detail === 'build-2')
        ),
        { timeout: 5_000 },
      )
      .toBe(true);
    await cleanup(page);
    expect(await page.evaluate(() => fetch('/assets/data.json').then((r) => r.json()))).toEqual({ msg: 'data v1' });
    expect(await page.evaluate(() => fetch('/assets/dep.js').then((r) => r.text()))).toContain('module v1');
  });

  it.skipIf(chromiumOnly)(
    'an open v1 page keeps v1 objects after the worker was stopped and another tab moved it to v2',
    async () => {
      serveSite(suite.server, suite.b, v1(), cfg);
      const tab1 = await installWorker(suite.context, suite.server);
      await tab1.goto(`${suite.server.origin}/about/`);
      await pageDone(tab1);
      serveSite(suite.server, suite.b, testSite(suite.b.register, 2), cfg);
      // Another tab opens a page of build 2: the worker's table moves to build 2 behind it.
      const tab2 = await suite.context.newPage();
      await tab2.goto(`${suite.server.origin}/`);
      await pageDone(tab2);
      expect(await readState(tab2)).toEqual(['Home v2', 'module v2', 'data v2']);
      // Chromium stops idle workers (30 s); the restarted one has no bindings in memory.
      await suite.stopWorkers(tab1);
      suite.server.take();
      expect(await tab1.evaluate(() => fetch('/assets/data.json').then((r) => r.json()))).toEqual({ msg: 'data v1' });
      expect(await tab1.evaluate(() => fetch('/assets/dep.js').then((r) => r.text()))).toContain('module v1');
      expect(suite.server.take().filter((p) => !p.startsWith('/_objpack/'))).toEqual([]);
      // A navigation's clean-up after the restart keeps what the open v1 page uses.
      await tab2.goto(`${suite.server.origin}/about/`);
      await pageDone(tab2);
      expect(await tab1.evaluate(() => fetch('/assets/data.json').then((r) => r.json()))).toEqual({ msg: 'data v1' });
      // Once that page is gone, build 1 goes.
      await tab1.close();
      await tab2.goto(`${suite.server.origin}/`);
      await pageDone(tab2);
      await expect.poll(async () => (await cacheNames(tab2)).filter((n) => n.includes('build-1')).length).toBe(0);
    },
  );

  /** v1's /about/ open in a tab of a worker that never goes quiet: its packages stored, the page's record not. */
  async function v1AboutStored() {
    const busy = { ...cfg, busy: true };
    const v1site = serveSite(suite.server, suite.b, testSite(suite.b.register, 1), busy);
    const tab1 = await installWorker(suite.context, suite.server);
    await tab1.goto(`${suite.server.origin}/about/`);
    await tab1.waitForFunction(() => document.documentElement.dataset.ready === '1');
    // The package's objects are stored (at their 2 s deadline); the page's record is not.
    const common = v1site.sharedPackage.common!;
    await expect
      .poll(async () => (await cacheContents(tab1))[`objpack-v1-shared-${common}`] ?? [], { timeout: 5_000 })
      .toContain(common);
    await expect
      .poll(async () => (await cacheContents(tab1))['objpack-v1-build-build-1'] ?? [])
      .toContain(v1site.pagePackage['/about/']);
    return { busy, tab1 };
  }

  /** Build 2 deployed and opened in a second tab, until the worker has adopted its table. */
  async function deployV2(worker: typeof cfg & { busy: boolean }) {
    serveSite(suite.server, suite.b, testSite(suite.b.register, 2), worker);
    const tab2 = await suite.context.newPage();
    await tab2.goto(`${suite.server.origin}/`);
    await tab2.waitForFunction(() => document.documentElement.dataset.ready === '1');
    expect(await readState(tab2)).toEqual(['Home v2', 'module v2', 'data v2']);
    const events: ObjpackEvent[] = [];
    await expect
      .poll(
        async () => (
          events.push(...(await swEvents(tab2))),
          events.some((e) => e.type === 'routes-updated' && e.detail === 'build-2')
        ),
        { timeout: 5_000 },
      )
      .toBe(true);
  }

  /** The open v1 page still gets build 1's objects. */
  async function expectV1Objects(tab1: Page) {
    expect(await tab1.evaluate(() => fetch('/assets/data.json').then((r) => r.json()))).toEqual({ msg: 'data v1' });
    expect(await tab1.evaluate(() => fetch('/assets/dep.js').then((r) => r.text()))).toContain('module v1');
  }

  it.skipIf(chromiumOnly)(
    'an open v1 page whose record was not saved yet keeps v1 objects after the table moved to v2 and the worker restarted',
    async () => {
      // The record of an open page is saved once the worker is quiet (at most 10 s later); a worker stopped
      // before that had only the current table to go by, and served a v1 page v2's objects.
      const { busy, tab1 } = await v1AboutStored();
      await deployV2(busy);
      await suite.stopWorkers(tab1);
      await expectV1Objects(tab1);
    },
  );

  it.skipIf(chromiumOnly)(
    'an open v1 page a restarted worker knows only from its table keeps v1 objects after the table moved to v2 and another restart',
    async () => {
      const { busy, tab1 } = await v1AboutStored();
      // Stopped before the page's record was saved: the restarted worker has only its table (v1) for it.
      await suite.stopWorkers(tab1);
      await deployV2(busy);
      await suite.stopWorkers(tab1);
      await expectV1Objects(tab1);
    },
  );

  // saved: the page's record is written before the clean-up; restart: the worker is stopped while the page
  // is in the cache; busy: the worker never goes quiet, so its mark is not written before the clean-up.
  for (const variant of ['saved', 'restart', 'busy'] as const)
    it.skipIf(chromiumOnly)(
      `a v1 page restored from the back/forward cache after a deploy keeps v1 objects (${variant})`,
      async () => {
        // A page in the back/forward cache is in neither clients.matchAll() nor clients.get(): a clean-up took it
        // for closed and dropped its binding and record, and once restored it followed the newest table.
        const browser = await launchBrowser({ backForwardCache: true });
        const worker = { ...cfg, busy: variant === 'busy' };
        const loaded = (tab: Page) =>
          variant === 'busy'
            ? tab.waitForFunction(() => document.documentElement.dataset.ready === '1').then(() => {})
            : pageDone(tab);
        try {
          const context = await browser.newContext();
          const v1site = serveSite(suite.server, suite.b, testSite(suite.b.register, 1), worker);
          const tab1 = await installWorker(context, suite.server);
          await tab1.goto(`${suite.server.origin}/about/`);
          await loaded(tab1);
          const common = v1site.sharedPackage.common!;
          await expect
            .poll(async () => (await cacheContents(tab1))[`objpack-v1-shared-${common}`] ?? [], { timeout: 5_000 })
            .toContain(common);
          await tab1.evaluate(() =>
            addEventListener('pageshow', (e) => ((window as unknown as { restored: boolean }).restored = e.persisted)),
          );
          await tab1.goto(`${suite.server.origin}/`);
          await loaded(tab1);
          await cleanup(tab1);
          if (variant === 'restart') {
            // The restarted worker knows the page only from its record.
            await stopWorkers(context, tab1);
          }
          serveSite(suite.server, suite.b, testSite(suite.b.register, 2), worker);
          const tab2 = await context.newPage();
          // Held pages are answered from build 1 at once, and the table is checked behind them (once the worker
          // is quiet: the busy one at its 2 s deadline).
          await tab2.goto(`${suite.server.origin}/about/`);
          await loaded(tab2);
          const events: ObjpackEvent[] = [];
          await expect
            .poll(
              async () => (
                events.push(...(await swEvents(tab2))),
                events.some((e) => e.type === 'routes-updated' && e.detail === 'build-2')
              ),
              { timeout: 5_000 },
            )
            .toBe(true);
          await cleanup(tab2);
          await tab2.close();
          await tab1.goBack({ waitUntil: 'commit' });
          await tab1.waitForFunction(
            () =>
              (window as unknown as { restored?: boolean }).restored !== undefined ||
              document.readyState === 'complete',
          );
          expect(await tab1.evaluate(() => (window as unknown as { restored?: boolean }).restored)).toBe(true);
          expect(await readState(tab1)).toEqual(['About v1', 'module v1', 'data v1']);
          expect(await tab1.evaluate(() => fetch('/assets/data.json').then((r) => r.json()))).toEqual({
            msg: 'data v1',
          });
          expect(await tab1.evaluate(() => fetch('/assets/dep.js').then((r) => r.text()))).toContain('module v1');
        } finally {
          await browser.close();
        }
      },
    );

  it('a page package from a newer build brings its own shared packages (no stale table needed)', async () => {
    serveSite(suite.server, suite.b, v1(), { options: { routesMaxAgeMs: 3_600_000 } });
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    const v2site = serveSite(suite.server, suite.b, testSite(suite.b.register, 2), {
      options: { routesMaxAgeMs: 3_600_000 },
    });
    suite.server.take();
    await page.goto(`${suite.server.origin}/about/`);
    await pageDone(page);
    expect(await readState(page)).toEqual(['About v2', 'module v2', 'data v2']);
    const requests = suite.server.take();
    expect(requests).toEqual(expect.arrayContaining([v2site.pagePackage['/about/'], v2site.sharedPackage.common]));
    expect(requests.filter((p) => !p.startsWith('/_objpack/'))).toEqual([]);
  });

  it("after an incremental build, a page package kept from the earlier build is this build's: no table refetch, current cache", async () => {
    const long = { options: { routesMaxAgeMs: 3_600_000 } };
    const v1spec = testSite(suite.b.register, 1);
    const v1site = serveSite(suite.server, suite.b, v1spec, long);
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    // The incremental build 2 changed only the about page's image: the home package is kept byte for byte,
    // so its index still names build 1, and the route table says so.
    const v2spec = {
      ...v1spec,
      buildId: 'build-2',
      files: { ...v1spec.files, '/img/about.svg': svg('purple') },
      pageBuilds: { '/': 'build-1' },
    };
    const v2site = serveSite(suite.server, suite.b, v2spec, long);
    expect(v2site.files.get(v2site.pagePackage['/']!)!.body).toEqual(v1site.files.get(v1site.pagePackage['/']!)!.body);
    expect(v2site.routes.packageBuilds).toEqual({ [String(v2site.routes.pages['/']![0])]: 'build-1' });
    suite.server.take();
    await swEvents(page);
    // The changed page's package names build 2: a deploy newer than the worker's table, which it refetches.
    await page.goto(`${suite.server.origin}/about/`);
    await pageDone(page);
    expect(await page.evaluate(() => fetch('/img/about.svg').then((r) => r.text()))).toContain('purple');
    const events: ObjpackEvent[] = [];
    await expect
      .poll(
        async () => (
          events.push(...(await swEvents(page))),
          events.some((e) => e.type === 'routes-updated' && e.detail === 'build-2')
        ),
        { timeout: 5_000 },
      )
      .toBe(true);
    suite.server.take();

    // The unchanged page: its package (build 1 inside) matches the build-2 table, so no refetch of the table,
    // and its objects go to build 2's cache.
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    expect(await page.evaluate(() => document.querySelector('h1')!.textContent)).toBe('Home v1');
    expect(suite.server.take()).toEqual([v2site.pagePackage['/']]);
    expect((await swEvents(page)).filter((e) => e.type === 'routes-updated' || e.type === 'fallback')).toEqual([]);
    // Build 1's cache goes once no page uses it; build 2's holds both pages.
    // Firefox and WebKit keep a page left this way in the back/forward cache (Playwright's Chromium does
    // not): it may come back, so its build's caches stay (client-records.ts FROZEN_KEEP_MS).
    const kept = (await swFrozen(page)) > 0;
    const build1 = async () => (await cacheNames(page)).filter((n) => n.includes('build-build-1')).length;
    await expect.poll(build1).toBe(kept ? 1 : 0);
    const held = (await cacheContents(page))['objpack-v1-build-build-2'];
    expect(held).toEqual(expect.arrayContaining(['/', '/img/home.svg', '/about/', '/img/about.svg']));
    // So the next visit is served from it without a request.
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    expect(suite.server.take()).toEqual([]);
  });

  it('a new worker version takes over on the next page load and drops the old cache layout: no stuck stale site', async () => {
    serveSite(suite.server, suite.b, testSite(suite.b.register), cfg);
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    const names = async () => (await cacheNames(page)).filter((n) => n.startsWith('objpack-')).sort();
    expect((await names()).every((n) => n.startsWith('objpack-v1-'))).toBe(true);
    // Deploy: new content and a new worker script with another cache layout.
    serveSite(suite.server, suite.b, testSite(suite.b.register, 2), {
      options: { routesMaxAgeMs: 0, cachePrefix: 'objpack-v2' },
    });
    const ref = await reference(suite.engine, `${suite.server.origin}/about/`);
    // Every page registers the worker; that finds the new script (updateViaCache: 'none'), which takes over.
    await page.goto(`${suite.server.origin}/`);
    await expect
      .poll(async () => (await names()).some((n) => n.startsWith('objpack-v1-')), { timeout: 10_000 })
      .toBe(false);
    expect(await names()).toContain('objpack-v2-meta');
    await page.goto(`${suite.server.origin}/about/`);
    await pageDone(page);
    expect(await readState(page)).toEqual(['About v2', 'module v2', 'data v2']);
    expect((await snapshot(page)).dom).toBe(ref.dom);
    expect((await names()).every((n) => n.startsWith('objpack-v2-'))).toBe(true);
    expect(await names()).toContain('objpack-v2-build-build-2');
  });
});
