import { expect, it } from 'vitest';
import {
  cacheContents,
  cacheNames,
  installWorker,
  pageDone,
  reference,
  serveSite,
  snapshot,
  swEvents,
  type WorkerConfig,
} from '../test-utils/browser.js';
import { describeEngines, useEngineSuite } from '../test-utils/engine-suite.js';
import type { EnginePage as Page } from '../test-utils/engines/index.js';
import { paced, serveBytes, stallAfter, TestServer } from '../test-utils/server.js';
import { bodyOffset, flip, svg, testSite, type BuiltSite, type SiteSpec } from '../test-utils/site.js';
import { MIN_PROGRESS_BYTES } from './package-run.js';

/**
 * Every failure must leave the page exactly as it is without objpack (DOM and pixels), and nothing that
 * failed verification may be in Cache Storage.
 */
describeEngines('failures fall back to the network', (engine) => {
  const suite = useEngineSuite(engine);

  /** Serves the site, breaks it with `breakIt`, loads `path` with the worker; returns the page after comparing it. */
  async function loadBroken(
    breakIt: (site: BuiltSite) => void,
    opts: { path?: string; spec?: SiteSpec; cfg?: WorkerConfig } = {},
  ): Promise<Page> {
    const path = opts.path ?? '/';
    const site = serveSite(suite.server, suite.b, opts.spec ?? testSite(suite.b.register), opts.cfg);
    const ref = await reference(suite.engine, `${suite.server.origin}${path}`);
    const page = await installWorker(suite.context, suite.server);
    breakIt(site);
    // A failure inside the HTML reloads the tab once; the first navigation may be cut short by that.
    await page.goto(`${suite.server.origin}${path}`).catch(() => {});
    await pageDone(page);
    // A broken image counts as complete: named here rather than left to the screenshot's pixel difference.
    const broken = () => [...document.images].filter((i) => i.naturalWidth === 0).map((i) => i.src);
    expect(await page.evaluate(broken)).toEqual([]);
    const got = await snapshot(page);
    expect(got.dom).toBe(ref.dom);
    expect(got.shot.equals(ref.shot)).toBe(true);
    return page;
  }

  const allCached = async (page: Page) => Object.values(await cacheContents(page)).flat();
  const breakPackage = (site: BuiltSite, pkg: string, bytes: (body: Buffer) => Buffer, destroy = false) => {
    suite.server.hooks.set(pkg, serveBytes(bytes, { destroy }));
    return site;
  };

  it('package 404: the page comes from the network', async () => {
    const page = await loadBroken((site) => suite.server.files.delete(site.pagePackage['/']!));
    const requests = suite.server.take();
    expect(requests).toEqual(expect.arrayContaining(['/', '/assets/site.css', '/img/home.svg']));
    expect((await swEvents(page)).some((e) => e.type === 'fallback' && e.code === 'OBJPSW_PACKAGE_HTTP')).toBe(true);
  });

  it('truncated stream (inside a later object): that object from the network, never cached', async () => {
    const page = await loadBroken((site) => {
      const pkg = site.pagePackage['/']!;
      const img = bodyOffset(suite.server.files.get(pkg)!.body, '/img/home.svg');
      breakPackage(site, pkg, (body) => body.subarray(0, img.start + 10), true);
    });
    expect(suite.server.take()).toContain('/img/home.svg');
    const cached = await allCached(page);
    expect(cached).not.toContain('/img/home.svg');
    expect(cached).not.toContain('/_objpack/pages/index.html.objp');
  });

  it('truncated stream (inside the HTML): the tab reloads from the network', async () => {
    const page = await loadBroken((site) => {
      const pkg = site.pagePackage['/']!;
      const html = bodyOffset(suite.server.files.get(pkg)!.body, '/');
      breakPackage(site, pkg, (body) => body.subarray(0, html.start + 100), true);
    });
    expect(await allCached(page)).not.toContain('/');
    // Depending on when the cut is seen (before or after the response was handed over), the page falls back
    // directly or through the reload; either way the page itself fell back.
    expect((await swEvents(page)).some((e) => e.type === 'fallback' && e.url === '/')).toBe(true);
  });

  it('corrupt index (CRC mismatch): the page comes from the network', async () => {
    const page = await loadBroken((site) => {
      const pkg = site.pagePackage['/']!;
      breakPackage(site, pkg, (body) => flip(body, bodyOffset(body, '/').headerBytes - 3));
    });
    expect((await swEvents(page)).some((e) => e.type === 'fallback' && e.code === 'OBJP_INDEX_CHECK')).toBe(true);
  });

  it('decode error (not a package at all): the page comes from the network', async () => {
    const page = await loadBroken((site) =>
      breakPackage(site, site.pagePackage['/']!, () => Buffer.from('<html>oops, an error page</html>')),
    );
    expect((await swEvents(page)).some((e) => e.type === 'fallback' && e.code === 'OBJP_BAD_MAGIC')).toBe(true);
  });

  it('digest mismatch in a shared object: that object from the network, never cached', async () => {
    const page = await loadBroken((site) => {
      const pkg = site.sharedPackage.common!;
      breakPackage(site, pkg, (body) => flip(body, bodyOffset(body, '/assets/site.css').start + 5));
    });
    expect(suite.server.take()).toContain('/assets/site.css');
    expect(await allCached(page)).not.toContain('/assets/site.css');
    expect((await swEvents(page)).some((e) => e.code === 'OBJP_DIGEST_MISMATCH')).toBe(true);
  });

  it('digest mismatch in the HTML: the page comes from the network', async () => {
    const page = await loadBroken((site) => {
      const pkg = site.pagePackage['/']!;
      breakPackage(site, pkg, (body) => flip(body, bodyOffset(body, '/').start + 40));
    });
    expect(await allCached(page)).not.toContain('/');
    // The HTML is verified as soon as its last byte is in: a small page fails before the navigation is
    // answered, so the network answers it directly (no refresh needed).
    expect((await swEvents(page)).some((e) => e.type === 'fallback' && e.code === 'OBJPSW_DECODE')).toBe(true);
    expect(suite.server.take().filter((p) => p === '/')).toEqual(['/']);
  });

  it(
    'digest mismatch at the end of a large HTML whose start was ' +
      'already shown: the tab is navigated to the network copy',
    async () => {
      const spec = testSite(suite.b.register);
      spec.files['/'] = {
        ...spec.files['/']!,
        body: Buffer.from(
          spec.files['/']!.body.toString().replace('</body>', `<!--${'pad '.repeat(50_000)}--></body>`),
        ),
      };
      let stall!: ReturnType<typeof stallAfter>;
      const page = await loadBroken(
        (site) => {
          const pkg = site.pagePackage['/']!;
          const file = suite.server.files.get(pkg)!;
          const html = bodyOffset(file.body, '/');
          suite.server.files.set(pkg, { ...file, body: flip(file.body, html.start + html.size - 30) });
          stall = stallAfter(html.start + 20_000);
          suite.server.hooks.set(pkg, stall.hook);
          void stall.reached.then(() => setTimeout(() => stall.release(), 50));
        },
        { spec },
      );
      expect(await allCached(page)).not.toContain('/');
      expect(
        (await swEvents(page)).some(
          (e) => e.type === 'fallback' && e.code === 'OBJPSW_DECODE' && e.detail === 'navigate',
        ),
      ).toBe(true);
    },
  );

  it('quota exceeded (cache.put throws): served from the stream, nothing cached, refetched next time', async () => {
    const page = await loadBroken(() => {}, { cfg: { quota: true } });
    expect(suite.server.take().filter((p) => !p.startsWith('/_objpack/'))).toEqual([]);
    expect(await allCached(page)).toEqual([]);
    expect((await swEvents(page)).some((e) => e.type === 'cache-error' && e.code === 'QuotaExceededError')).toBe(true);
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    expect(suite.server.take().some((p) => p.startsWith('/_objpack/pages/'))).toBe(true);
  });

  // Only Chromium's driver can stop a worker.
  it.skipIf(engine !== 'chromium')(
    'worker killed mid-stream: the next load is whole, nothing half-stored is used',
    async () => {
      const site = serveSite(suite.server, suite.b, testSite(suite.b.register));
      const ref = await reference(suite.engine, `${suite.server.origin}/`);
      const page = await installWorker(suite.context, suite.server);
      const pkg = site.pagePackage['/']!;
      const img = bodyOffset(suite.server.files.get(pkg)!.body, '/img/home.svg');
      const stall = stallAfter(img.start + 10);
      suite.server.hooks.set(pkg, stall.hook);
      void page.goto(`${suite.server.origin}/`).catch(() => {});
      await stall.reached;
      await page.waitForFunction(() => document.querySelector('h1') !== null);
      await suite.stopWorkers(page);
      suite.server.hooks.delete(pkg);
      stall.release();
      expect(await allCached(page)).not.toContain('/img/home.svg');
      await page.goto(`${suite.server.origin}/`);
      await pageDone(page);
      const got = await snapshot(page);
      expect(got.dom).toBe(ref.dom);
      expect(got.shot.equals(ref.shot)).toBe(true);
    },
  );

  /** The test site with an 80 KB image in the home page's package, after the HTML. */
  const bigImageSite = () => {
    const spec = testSite(suite.b.register);
    spec.files['/img/home.svg'] = svg('navy', 80_000);
    return spec;
  };

  it('a package that trickles bytes after the HTML is given up: the rest from the network', async () => {
    const page = await loadBroken(
      (site) => {
        const pkg = site.pagePackage['/']!;
        const img = bodyOffset(suite.server.files.get(pkg)!.body, '/img/home.svg');
        // 64 bytes every 50 ms, below the watchdog's minimum rate: a watchdog any byte re-arms would wait ~60 s.
        suite.server.hooks.set(pkg, paced(img.start + 100, 64, 50));
      },
      { spec: bigImageSite(), cfg: { options: { packageStallMs: 600 } } },
    );
    expect((await swEvents(page)).some((e) => e.type === 'fallback' && e.code === 'OBJPSW_PACKAGE_STALLED')).toBe(true);
    expect(suite.server.take()).toContain('/img/home.svg');
    expect(await allCached(page)).not.toContain('/img/home.svg');
  });

  it('a slow but steady package (40 KB/s, windows of 1 s) is not given up', async () => {
    expect(MIN_PROGRESS_BYTES).toBeLessThan(40_000);
    const spec = bigImageSite();
    const page = await loadBroken(
      (site) => {
        // 2 KiB every 50 ms: the 80 KB image alone spans two watchdog windows.
        suite.server.hooks.set(site.pagePackage['/']!, paced(0, 2048, 50));
      },
      { spec, cfg: { options: { packageStallMs: 1000 } } },
    );
    expect((await swEvents(page)).filter((e) => e.type === 'fallback')).toEqual([]);
    expect(suite.server.take().filter((p) => !p.startsWith('/_objpack/'))).toEqual([]);
    expect(await allCached(page)).toContain('/img/home.svg');
  });

  it('an object absent from every package comes from the network', async () => {
    const spec = testSite(suite.b.register);
    spec.files['/'] = {
      ...spec.files['/']!,
      body: Buffer.from(
        spec.files['/']!.body.toString().replace('</head>', '<link rel="stylesheet" href="/extra.css"></head>'),
      ),
    };
    spec.files['/extra.css'] = { type: 'text/css', body: Buffer.from('p{color:green}') };
    await loadBroken(() => {}, { spec });
    expect(suite.server.take().filter((p) => !p.startsWith('/_objpack/'))).toEqual(['/extra.css']);
  });

  it('cross-origin requests are left alone, even for a URL path the package carries', async () => {
    const other = await new TestServer().start();
    try {
      other.files.set(
        '/img/home.svg',
        suite.server.files.get('/img/home.svg') ?? {
          type: 'image/svg+xml',
          body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"/>'),
        },
      );
      const spec = testSite(suite.b.register);
      // Another port is another origin, in every engine (and resolves without a host rule).
      const img = `<img src="http://localhost:${other.port}/img/home.svg" width="40" height="40">`;
      spec.files['/'] = {
        ...spec.files['/']!,
        body: Buffer.from(spec.files['/']!.body.toString().replace('</body>', `${img}</body>`)),
      };
      other.files.set('/img/home.svg', spec.files['/img/home.svg']!);
      await loadBroken(() => {}, { spec });
      expect(other.take()).toEqual(['/img/home.svg', '/img/home.svg']); // once for the reference, once with the worker
    } finally {
      await other.close();
    }
  });

  // One test each: the request goes to the server untouched, and the plain GET after it still comes from the worker.
  it.each([
    [
      'a non-GET request',
      `fetch('/assets/data.json', { method: 'POST', body: 'x' }).then((r) => String(r.status))`,
      '200',
      'POST /assets/data.json',
    ],
    [
      'a request with credentials',
      `fetch('/assets/data.json', { credentials: 'include' }).then((r) => r.text())`,
      '{"msg":"data v1"}',
      '/assets/data.json',
    ],
    [
      'a request with an Authorization header',
      `fetch('/assets/data.json', { headers: { authorization: 'Bearer x' } }).then((r) => r.text())`,
      '{"msg":"data v1"}',
      '/assets/data.json',
    ],
    [
      'a request with a Range header',
      `fetch('/assets/data.json', { headers: { range: 'bytes=0-5' } }).then(async (r) => r.status + ' ' + await ` +
        `r.text())`,
      '206 {"msg"',
      '/assets/data.json',
    ],
  ])('%s goes to the network', async (_what, call, expected, request) => {
    const page = await loadBroken(() => {});
    suite.server.take();
    const got = await page.evaluate(
      async (code) => [await (0, eval)(code), await fetch('/assets/data.json').then((r) => r.text())],
      call,
    );
    expect(got).toEqual([expected, '{"msg":"data v1"}']);
    expect(suite.server.take()).toEqual([request]);
  });

  it('kill switch: the unregister worker deletes objpack caches and hands the site back to the network', async () => {
    const page = await loadBroken(() => {});
    expect((await allCached(page)).length).toBeGreaterThan(0);
    suite.server.files.set('/sw-test.js', { type: 'text/javascript', body: suite.b.unregister });
    suite.server.take();
    // The kill switch reloads the tab: this document is marked, and the next one is the reload.
    await page.evaluate(() => {
      (window as { stale?: boolean }).stale = true;
      void navigator.serviceWorker.getRegistration().then((r) => r!.update());
    });
    await page.waitForFunction(() => !(window as { stale?: boolean }).stale && document.readyState === 'complete');
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration()) === undefined))
      .toBe(true);
    expect((await cacheNames(page)).filter((n) => n.startsWith('objpack-'))).toEqual([]);
    suite.server.take();
    await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    expect(suite.server.take()).toEqual(expect.arrayContaining(['/', '/assets/site.css', '/img/home.svg']));
  });

  it(
    'Clear-Site-Data "storage": objpack caches go (the ' + 'worker too where the engine drops it); the site works',
    async () => {
      const page = await loadBroken(() => {});
      const ref = await reference(suite.engine, `${suite.server.origin}/about/`);
      // The engine applies the header itself and hides it from scripts and workers alike.
      suite.server.files.set('/logout', {
        type: 'application/json',
        body: Buffer.from('{}'),
        headers: { 'clear-site-data': '"storage"' },
      });
      expect((await allCached(page)).length).toBeGreaterThan(0);
      await page.evaluate(() => fetch('/logout').then((r) => r.text()));
      await expect.poll(async () => (await cacheNames(page)).filter((n) => n.startsWith('objpack-'))).toEqual([]);
      // WebKit clears Cache Storage but keeps the registration: the worker keeps running, with nothing stored.
      const dropsWorker = engine !== 'webkit';
      const unregistered = () => page.evaluate(async () => !(await navigator.serviceWorker.getRegistration()));
      await expect.poll(unregistered).toBe(dropsWorker);
      suite.server.take();
      await page.goto(`${suite.server.origin}/about/`);
      await pageDone(page);
      const got = await snapshot(page);
      expect(got.dom).toBe(ref.dom);
      expect(got.shot.equals(ref.shot)).toBe(true);
    },
  );
});
