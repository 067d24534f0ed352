import { describe, expect, it } from 'vitest';
import {
  cacheContents,
  CHROMIUM,
  installWorker,
  pageDone,
  reference,
  serveSite,
  snapshot,
  swEvents,
  swFetches,
  type SeenFetch,
} from '../test-utils/browser.js';
import { useChromiumSuite } from '../test-utils/chromium-suite.js';
import { stallAfter } from '../test-utils/server.js';
import { bodyOffset, testSite } from '../test-utils/site.js';

import {
  early,
  EARLY,
  fallbacks,
  hold,
  loadBroken,
  navigations,
  PRELOADED,
  preloadSite,
} from '../test-utils/early-site.js';

describe.skipIf(!CHROMIUM)(
  'service worker in Chromium: earlyResponse answers the navigation before the package arrives',
  () => {
    const suite = useChromiumSuite();

    it(
      'the preloaded objects reach the worker while no ' + 'package byte has arrived; each reaches the page once',
      async () => {
        const site = serveSite(suite.server, suite.b, preloadSite(suite.b.register), early);
        const ref = await reference(suite.browser, `${suite.server.origin}/`);
        const helper = await installWorker(suite.context, suite.server);
        await swFetches(helper);
        const holds = [site.pagePackage['/']!, site.sharedPackage.common!].map((pkg) => {
          const h = hold();
          suite.server.hooks.set(pkg, h.hook);
          return h;
        });
        const page = await suite.context.newPage();
        const nav = page.goto(`${suite.server.origin}/`);
        nav.catch(() => {});
        await Promise.all(holds.map((h) => h.reached));
        const seen: SeenFetch[] = [];
        for (let i = 0; i < 100 && !EARLY.every((u) => seen.some((f) => f.url === u)); i++) {
          seen.push(...(await swFetches(helper)));
          await new Promise((r) => setTimeout(r, 50));
        }
        // Both packages are still held back, headers and all: the requests came from the early Link header.
        for (const u of EARLY)
          expect(
            seen.map((f) => f.url),
            u,
          ).toContain(u);
        for (const h of holds) h.release();
        const res = await nav;
        expect(res?.status()).toBe(200);
        expect((await res?.allHeaders())?.['content-type']).toBe('text/html; charset=utf-8');
        await pageDone(page);
        const all = [...seen, ...(await swFetches(helper))];
        for (const u of PRELOADED) expect(all.filter((f) => f.url === u).length, u).toBe(1);
        expect(suite.server.take().sort()).toEqual([site.pagePackage['/']!, site.sharedPackage.common!].sort());
        expect((await swEvents(page)).filter((e) => e.type === 'fallback')).toEqual([]);
        const got = await snapshot(page);
        expect(got.dom).toBe(ref.dom);
        expect(got.shot.equals(ref.shot)).toBe(true);
        // Stored like any other visit: the next one needs no request.
        expect(Object.values(await cacheContents(page)).flat()).toEqual(expect.arrayContaining(['/', ...PRELOADED]));
        await page.goto(`${suite.server.origin}/`);
        await pageDone(page);
        expect(suite.server.take()).toEqual([]);
      },
    );

    it(
      'a tab closed while its HTML streams: the package ' + 'still completes and is stored for the next visit',
      async () => {
        const site = serveSite(suite.server, suite.b, testSite(suite.b.register), early);
        const helper = await installWorker(suite.context, suite.server);
        const pkg = site.pagePackage['/']!;
        const html = bodyOffset(suite.server.files.get(pkg)!.body, '/');
        const stall = stallAfter(html.start + Math.floor(html.size / 2));
        suite.server.hooks.set(pkg, stall.hook);
        const page = await suite.context.newPage();
        page.goto(`${suite.server.origin}/`).catch(() => {});
        await stall.reached;
        await new Promise((r) => setTimeout(r, 200));
        await page.close();
        stall.release();
        await helper.evaluate(
          () =>
            new Promise((resolve) => {
              const ch = new MessageChannel();
              ch.port1.onmessage = resolve;
              navigator.serviceWorker.controller!.postMessage('test:settled', [ch.port2]);
            }),
        );
        suite.server.hooks.clear();
        expect((await swEvents(helper)).filter((e) => e.type === 'fallback')).toEqual([]);
        expect(Object.values(await cacheContents(helper)).flat()).toContain('/');
        suite.server.take();
        await helper.goto(`${suite.server.origin}/`);
        await pageDone(helper);
        expect(suite.server.take()).toEqual([]);
      },
    );

    it(
      'a page in another encoding, named in the route ' + 'table: answered early with its own type, no refresh',
      async () => {
        const spec = testSite(suite.b.register);
        spec.files['/'] = { ...spec.files['/']!, type: 'text/html; charset=windows-1252' };
        const site = serveSite(suite.server, suite.b, spec, early);
        const ref = await reference(suite.browser, `${suite.server.origin}/`);
        const page = await installWorker(suite.context, suite.server);
        const res = await page.goto(`${suite.server.origin}/`);
        await pageDone(page);
        expect((await res?.allHeaders())?.['content-type']).toBe('text/html; charset=windows-1252');
        expect(await fallbacks(page)).toEqual([]);
        const log = suite.server.take();
        expect(navigations(log)).toBe(0);
        expect(log).toContain(site.pagePackage['/']!);
        const got = await snapshot(page);
        expect(got.dom).toBe(ref.dom);
        expect(got.shot.equals(ref.shot)).toBe(true);
      },
    );

    it(
      "a page's host headers (COOP/COEP from _headers) travel " + 'with it: cross-origin isolated as without objpack',
      async () => {
        const spec = testSite(suite.b.register);
        spec.files['/'] = {
          ...spec.files['/']!,
          headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
        };
        serveSite(suite.server, suite.b, spec, early);
        const ref = await suite.browser.newPage();
        await ref.goto(`${suite.server.origin}/`);
        expect(await ref.evaluate(() => crossOriginIsolated)).toBe(true);
        await ref.close();
        const page = await installWorker(suite.context, suite.server);
        for (const visit of ['early answer', 'from Cache Storage']) {
          const res = await page.goto(`${suite.server.origin}/`);
          await pageDone(page);
          expect((await res?.allHeaders())?.['cross-origin-embedder-policy'], visit).toBe('require-corp');
          expect(await page.evaluate(() => crossOriginIsolated), visit).toBe(true);
          expect(await fallbacks(page), visit).toEqual([]);
          expect(navigations(suite.server.take()), visit).toBe(0);
        }
      },
    );

    it(
      'an HTML entry with another content type than the ' + 'early headers: one refresh, then served the usual way',
      async () => {
        const spec = testSite(suite.b.register);
        spec.omitHtmlTypes = true;
        spec.files['/'] = { ...spec.files['/']!, type: 'text/html; charset=windows-1252' };
        const page = await loadBroken(suite, () => {}, spec, true);
        expect(await fallbacks(page)).toContain('OBJPSW_NO_HTML early-refresh');
        const res = await page.goto(`${suite.server.origin}/`);
        await pageDone(page);
        expect((await res?.allHeaders())?.['content-type']).toBe('text/html; charset=windows-1252');
        expect((await swEvents(page)).filter((e) => e.type === 'fallback')).toEqual([]);
      },
    );

    it("a deploy between table and package: the newer build's page and objects, never a mix", async () => {
      const long = { options: { earlyResponse: true, routesMaxAgeMs: 3_600_000 } };
      serveSite(suite.server, suite.b, testSite(suite.b.register), long);
      const page = await installWorker(suite.context, suite.server);
      await page.goto(`${suite.server.origin}/`);
      await pageDone(page);
      const v2 = serveSite(suite.server, suite.b, testSite(suite.b.register, 2), long);
      const ref = await reference(suite.browser, `${suite.server.origin}/about/`);
      suite.server.take();
      await page.goto(`${suite.server.origin}/about/`);
      await pageDone(page);
      const state = await page.evaluate(() => [
        document.querySelector('h1')!.textContent,
        document.getElementById('js')!.textContent,
        document.getElementById('json')!.textContent,
      ]);
      expect(state).toEqual(['About v2', 'module v2', 'data v2']);
      expect((await snapshot(page)).dom).toBe(ref.dom);
      const requests = suite.server.take();
      expect(requests).toEqual(expect.arrayContaining([v2.pagePackage['/about/'], v2.sharedPackage.common]));
      expect(requests.filter((p) => !p.startsWith('/_objpack/'))).toEqual([]);
    });

    it('a page held in Cache Storage is answered from it (no early path, no request)', async () => {
      serveSite(suite.server, suite.b, testSite(suite.b.register), early);
      const page = await installWorker(suite.context, suite.server);
      await page.goto(`${suite.server.origin}/`);
      await pageDone(page);
      suite.server.take();
      const res = await page.goto(`${suite.server.origin}/`);
      await pageDone(page);
      expect(suite.server.take()).toEqual([]);
      expect((await res?.allHeaders())?.['x-objpack-digest']).toMatch(/^sha256-/);
    });
  },
);
