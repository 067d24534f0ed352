import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHROMIUM, installWorker, pageDone, serveSite } from '../test-utils/browser.js';
import { useChromiumSuite } from '../test-utils/chromium-suite.js';
import { TestServer } from '../test-utils/server.js';
import { testSite } from '../test-utils/site.js';

describe.skipIf(!CHROMIUM)('service worker in Chromium: prefetch, large media, mirrors', () => {
  const suite = useChromiumSuite();

  it('hover and touchstart prefetch links below the fold (and only then)', async () => {
    const far = (title: string) => ({
      type: 'text/html; charset=utf-8',
      body: Buffer.from(`<!doctype html><title>${title}</title><h1>${title}</h1>`),
    });
    const site = serveSite(
      suite.server,
      suite.b,
      testSite(suite.b.register, 1, {
        prefetch: true,
        more: '<div style="height:5000px"></div><a id="far" href="/far/">far</a> <a id="far2" href="/far2/">far 2</a>',
        files: { '/far/': far('Far'), '/far2/': far('Far 2') },
        pages: { '/far/': { objects: [], shared: ['common'] }, '/far2/': { objects: [], shared: ['common'] } },
      }),
    );
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    const asked = (p: string) => suite.server.log.some((r) => r.path === site.pagePackage[p]);
    // The on-screen link is hinted once idle; the ones below the fold are not (absence needs a wait).
    await expect.poll(() => asked('/about/'), { timeout: 5000 }).toBe(true);
    await page.waitForTimeout(500);
    expect([asked('/far/'), asked('/far2/')]).toEqual([false, false]);
    await page.dispatchEvent('#far', 'mouseover');
    await expect.poll(() => asked('/far/')).toBe(true);
    expect(asked('/far2/')).toBe(false);
    await page.dispatchEvent('#far2', 'touchstart');
    await expect.poll(() => asked('/far2/')).toBe(true);
  });

  it('on a first visit, links on screen are hinted once the new worker controls the page', async () => {
    const site = serveSite(suite.server, suite.b, testSite(suite.b.register, 1, { prefetch: true }));
    // No install page: this load registers the worker, which takes the page over when it activates.
    const page = await suite.context.newPage();
    await page.goto(`${suite.server.origin}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 10_000 });
    await expect
      .poll(() => suite.server.log.some((r) => r.path === site.pagePackage['/about/']), { timeout: 5000 })
      .toBe(true);
  });

  it('prefetches links a client-side router adds after load, once they are on screen', async () => {
    const late = {
      type: 'text/html; charset=utf-8',
      body: Buffer.from('<!doctype html><title>Late</title><h1>Late</h1>'),
    };
    const site = serveSite(
      suite.server,
      suite.b,
      testSite(suite.b.register, 1, {
        prefetch: true,
        more: '<div id="view"></div>',
        files: { '/late/': late },
        pages: { '/late/': { objects: [], shared: ['common'] } },
      }),
    );
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    const asked = (p: string) => suite.server.log.some((r) => r.path === site.pagePackage[p]);
    await expect.poll(() => asked('/about/'), { timeout: 5000 }).toBe(true);
    // What a router does on a click: a new URL without a navigation, then the new view's DOM.
    await page.evaluate(() => {
      history.pushState({}, '', '/view/');
      document.getElementById('view')!.innerHTML = '<p>next view</p><a id="late" href="/late/">late</a>';
    });
    await expect.poll(() => asked('/late/'), { timeout: 5000 }).toBe(true);
  });

  it(
    'hint budgets are per view and per kind: the viewport ' + 'cannot use up a hover, a press or keyboard focus',
    async () => {
      const onScreen = Array.from({ length: 30 }, (_, i) => `<a href="/n${i}/">${i}</a>`).join(' ');
      serveSite(
        suite.server,
        suite.b,
        testSite(suite.b.register, 1, {
          prefetch: true,
          more:
            `<p>${onScreen}</p><div id="view"></div><div style="height:5000px"></div><a id="far" ` +
            `href="/far/">far</a> <a id="far2" href="/far2/">far 2</a>`,
        }),
      );
      // The snippet's messages to the worker, as sent (the worker takes at most maxPrefetch of each).
      await suite.context.addInitScript(() => {
        const post = ServiceWorker.prototype.postMessage;
        ServiceWorker.prototype.postMessage = function (this: ServiceWorker, message: unknown, ...rest: unknown[]) {
          const w = window as unknown as { hints?: string[] };
          const m = message as { type?: string; urls?: string[] };
          if (m?.type === 'objpack:prefetch') (w.hints ??= []).push(...(m.urls ?? []));
          return (post as (...a: unknown[]) => void).call(this, message, ...rest);
        } as typeof post;
      });
      const page = await installWorker(suite.context, suite.server);
      await page.goto(`${suite.server.origin}/`);
      await pageDone(page);
      const hints = () => page.evaluate(() => (window as unknown as { hints?: string[] }).hints ?? []);
      await expect.poll(async () => (await hints()).length, { timeout: 5000 }).toBe(24);
      // Absence needs a wait: 31 links are on screen, 24 is the viewport's budget for a view.
      await page.waitForTimeout(500);
      expect((await hints()).length).toBe(24);
      await page.focus('#far');
      await expect.poll(async () => (await hints()).includes('/far/')).toBe(true);
      await page.dispatchEvent('#far2', 'pointerdown');
      await expect.poll(async () => (await hints()).includes('/far2/')).toBe(true);
      await page.evaluate(() => {
        history.pushState({}, '', '/view/');
        document.getElementById('view')!.innerHTML = '<a href="/fresh/">fresh</a>';
        scrollTo(0, 0);
      });
      await expect.poll(async () => (await hints()).includes('/fresh/'), { timeout: 5000 }).toBe(true);
    },
  );

  it('does not prefetch on a 2G connection', async () => {
    const site = serveSite(suite.server, suite.b, testSite(suite.b.register, 1, { prefetch: true }));
    await suite.context.addInitScript(() =>
      Object.defineProperty(navigator, 'connection', { value: { saveData: false, effectiveType: 'slow-2g' } }),
    );
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    await page.hover('#next');
    // Absence can only be shown by waiting: a hint that was going to be sent is sent within this time.
    await page.waitForTimeout(500);
    expect(suite.server.log.map((r) => r.path)).not.toContain(site.pagePackage['/about/']);
  });

  it('does not prefetch when the user asked to save data', async () => {
    const site = serveSite(suite.server, suite.b, testSite(suite.b.register, 1, { prefetch: true }));
    await suite.context.addInitScript(() =>
      Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' } }),
    );
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    await page.hover('#next');
    // Absence can only be shown by waiting: a hint that was going to be sent is sent within this time.
    await page.waitForTimeout(500);
    expect(suite.server.log.map((r) => r.path)).not.toContain(site.pagePackage['/about/']);
  });

  it('the ESM export works inside an existing module worker beside its own routes (Workbox-style)', async () => {
    const esm = await build({
      entryPoints: [fileURLToPath(new URL('../index.ts', import.meta.url))],
      bundle: true,
      format: 'esm',
      write: false,
      alias: { '@objpack/format': fileURLToPath(new URL('../../../format/src/index.ts', import.meta.url)) },
      logLevel: 'silent',
    });
    // The pages' own register script would replace this worker with the test one: make it a no-op here.
    const site = serveSite(suite.server, suite.b, testSite(Buffer.from('/* registered by the page itself */')));
    suite.server.files.set('/objpack-esm.js', {
      type: 'text/javascript',
      body: Buffer.from(esm.outputFiles[0]!.contents),
    });
    suite.server.files.set('/sw-esm.js', {
      type: 'text/javascript',
      body: Buffer.from(
        `import { createObjpackHandler } from '/objpack-esm.js';
const objpack = createObjpackHandler({ routesMaxAgeMs: 3600000 });
self.addEventListener('install', (e) => objpack.handleInstall(e));
self.addEventListener('activate', (e) => objpack.handleActivate(e));
self.addEventListener('fetch', (e) => {
  if (objpack.handleFetch(e)) return;
  if (new URL(e.request.url).pathname === '/hello') e.respondWith(new Response('from my own worker'));
});
self.addEventListener('message', (e) => { if (e.data === 'test:settled') e.waitUntil(objpack.settled().then(() => ` +
          `e.ports[0].postMessage(true))); });`,
      ),
    });
    suite.server.files.set('/install.html', {
      type: 'text/html',
      body: Buffer.from(
        `<!doctype html><link rel="icon" href="data:,"><script>navigator.serviceWorker.register('/sw-esm.js', { ` +
          `type: 'module' });</script>`,
      ),
    });
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    expect(suite.server.take().sort()).toEqual([site.pagePackage['/']!, site.sharedPackage.common!].sort());
    expect(await page.evaluate(() => fetch('/hello').then((r) => r.text()))).toBe('from my own worker');
  });

  describe('mirrors (proxy query protocol)', () => {
    let mirror: TestServer;
    beforeEach(async () => {
      mirror = await new TestServer().start();
      mirror.cors = true;
    });
    afterEach(async () => {
      await mirror.close();
    });

    it('takes packages from the first mirror that has them', async () => {
      // A generous timeout: on a loaded machine the default 250 ms can pass before the mirror answers, and
      // the fallback has its own test below.
      const site = serveSite(suite.server, suite.b, testSite(suite.b.register), {
        options: { mirrors: [mirror.origin], mirrorTimeoutMs: 10_000 },
      });
      mirror.files = new Map(site.files);
      const page = await installWorker(suite.context, suite.server);
      await page.goto(`${suite.server.origin}/`);
      await pageDone(page);
      expect(suite.server.take()).toEqual([]);
      const asked = mirror.take();
      for (const p of [site.pagePackage['/']!, site.sharedPackage.common!])
        expect(asked).toEqual(expect.arrayContaining([`HEAD ${p}`, p]));
    });

    it('falls back to the origin when mirrors miss or do not answer in time', async () => {
      const site = serveSite(suite.server, suite.b, testSite(suite.b.register), {
        options: { mirrors: [mirror.origin, 'http://127.0.0.1:9'], mirrorTimeoutMs: 200 },
      });
      // The mirror holds nothing: a 404 for the page package, and it never answers for the shared one.
      mirror.hooks.set(site.sharedPackage.common!, () => new Promise<boolean>(() => {}));
      const page = await installWorker(suite.context, suite.server);
      await page.goto(`${suite.server.origin}/`);
      await pageDone(page);
      expect(suite.server.take().sort()).toEqual([site.pagePackage['/']!, site.sharedPackage.common!].sort());
    });
  });
});
