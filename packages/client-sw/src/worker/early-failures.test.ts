import { describe, expect, it } from 'vitest';
import { CHROMIUM, installWorker, pageDone, reference, serveSite, snapshot, swEvents } from '../test-utils/browser.js';
import { useChromiumSuite } from '../test-utils/chromium-suite.js';
import { stallAfter } from '../test-utils/server.js';
import { bodyOffset, flip, testSite, type BuiltSite } from '../test-utils/site.js';
import { breakPage, fallbacks, hold, loadBroken, navigations } from '../test-utils/early-site.js';

describe.skipIf(!CHROMIUM)(
  'service worker in Chromium: earlyResponse when the package fails, the page from the network',
  () => {
    const suite = useChromiumSuite();

    it('package 404: a refresh, then the page from the network', async () => {
      const page = await loadBroken(suite, (site) => suite.server.files.delete(site.pagePackage['/']!));
      const log = suite.server.take();
      expect(log).toEqual(expect.arrayContaining(['/', '/assets/site.css', '/img/home.svg']));
      expect(navigations(log)).toBe(1);
      // Answered early (before the package said 404), so the way back is the refresh.
      expect(await fallbacks(page)).toContain('OBJPSW_PACKAGE_HTTP early-refresh');
    });

    it(
      'package 404 on a URL with a #fragment: the refresh ' + 'still reloads the page (not a jump within a blank one)',
      async () => {
        const page = await loadBroken(
          suite,
          (site) => suite.server.files.delete(site.pagePackage['/']!),
          undefined,
          false,
          '/#part',
        );
        expect(navigations(suite.server.take())).toBe(1);
        expect(await fallbacks(page)).toContain('OBJPSW_PACKAGE_HTTP early-refresh');
      },
    );

    it(
      'a page under a CSP sandbox is not answered early (its meta refresh could be blocked): a failure goes ' +
        'the late way',
      async () => {
        const spec = testSite(suite.b.register);
        spec.files['/'] = {
          ...spec.files['/']!,
          headers: { 'Content-Security-Policy': 'sandbox allow-scripts allow-same-origin' },
        };
        const page = await loadBroken(suite, (site) => suite.server.files.delete(site.pagePackage['/']!), spec);
        expect(await fallbacks(page)).toEqual(['OBJPSW_PACKAGE_HTTP']);
      },
    );

    it('corrupt index: the page from the network', async () => {
      const page = await loadBroken(
        suite,
        breakPage(suite, (body) => flip(body, bodyOffset(body, '/').headerBytes - 3)),
      );
      expect(await fallbacks(page)).toContain('OBJP_INDEX_CHECK early-refresh');
    });

    it('not a package at all: the page from the network', async () => {
      const page = await loadBroken(
        suite,
        breakPage(suite, () => Buffer.from('<html>oops, an error page</html>')),
      );
      expect(await fallbacks(page)).toContain('OBJP_BAD_MAGIC early-refresh');
    });

    it('digest mismatch in the HTML: the page from the network', async () => {
      const page = await loadBroken(
        suite,
        breakPage(suite, (body) => flip(body, bodyOffset(body, '/').start + 40)),
      );
      // The HTML's last chunk waits for its digest: no byte of it reached the page, which is refreshed
      // (before the stream started, or from it).
      expect((await fallbacks(page)).some((f) => /^OBJPSW_DECODE (early-)?refresh$/.test(f))).toBe(true);
    });

    it('truncated inside the HTML: the page from the network', async () => {
      const page = await loadBroken(
        suite,
        breakPage(suite, (body) => body.subarray(0, bodyOffset(body, '/').start + 100), true),
      );
      expect((await fallbacks(page)).some((f) => / (early-)?refresh$/.test(f))).toBe(true);
    });

    it(
      'package unreachable (connection reset): the reload goes to the network once; while it stays down, no ' +
        'early answers',
      async () => {
        let site!: BuiltSite;
        const page = await loadBroken(suite, (s) => {
          site = s;
          suite.server.hooks.set(s.pagePackage['/']!, (_req, res) => (res.destroy(), true));
        });
        expect(await fallbacks(page)).toContain('OBJPSW_PACKAGE_NETWORK early-refresh');
        suite.server.take();
        // Still down: the worker tries the package, then answers from the network, without a refresh.
        await page.goto(`${suite.server.origin}/`);
        await pageDone(page);
        const log = suite.server.take();
        expect(navigations(log)).toBe(1);
        expect(log).toContain(site.pagePackage['/']!);
        expect(await fallbacks(page)).toEqual(['OBJPSW_PACKAGE_NETWORK']);
        // Back up: the package serves the page again.
        suite.server.hooks.clear();
        await page.goto(`${suite.server.origin}/`);
        await pageDone(page);
        const back = suite.server.take();
        expect(back).toContain(site.pagePackage['/']!);
        expect(navigations(back)).toBe(0);
        expect(await fallbacks(page)).toEqual([]);
      },
    );

    for (const earlyResponse of [true, false]) {
      it(
        `a package that stalls (headers never come), earlyResponse ${earlyResponse}: given up after packageStallMs, ` +
          `the page from the network`,
        async () => {
          const spec = testSite(suite.b.register);
          const site = serveSite(suite.server, suite.b, spec, { options: { earlyResponse, packageStallMs: 400 } });
          const ref = await reference(suite.browser, `${suite.server.origin}/`);
          const page = await installWorker(suite.context, suite.server);
          const stuck = hold();
          suite.server.hooks.set(site.pagePackage['/']!, stuck.hook);
          await page.goto(`${suite.server.origin}/`).catch(() => {});
          await pageDone(page);
          const got = await snapshot(page);
          expect(got.dom).toBe(ref.dom);
          expect(got.shot.equals(ref.shot)).toBe(true);
          expect(await fallbacks(page)).toContain(
            earlyResponse ? 'OBJPSW_PACKAGE_STALLED early-refresh' : 'OBJPSW_PACKAGE_STALLED',
          );
          expect(navigations(suite.server.take())).toBe(1);
          stuck.release();
        },
      );
    }

    it('a package that stalls inside the HTML: given up, the page from the network', async () => {
      const site = serveSite(suite.server, suite.b, testSite(suite.b.register), { options: { packageStallMs: 400 } });
      const ref = await reference(suite.browser, `${suite.server.origin}/`);
      const page = await installWorker(suite.context, suite.server);
      const pkg = site.pagePackage['/']!;
      const stuck = stallAfter(bodyOffset(suite.server.files.get(pkg)!.body, '/').start + 50);
      suite.server.hooks.set(pkg, stuck.hook);
      await page.goto(`${suite.server.origin}/`).catch(() => {});
      await pageDone(page);
      const got = await snapshot(page);
      expect(got.dom).toBe(ref.dom);
      expect(got.shot.equals(ref.shot)).toBe(true);
      expect((await swEvents(page)).some((e) => e.type === 'fallback' && e.code === 'OBJPSW_PACKAGE_STALLED')).toBe(
        true,
      );
      stuck.release();
    });
  },
);
