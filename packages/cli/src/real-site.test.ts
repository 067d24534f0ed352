/**
 * The whole chain on real generator output: `objpack build` of the VitePress fixture in place, `objpack
 * serve` on port 0 behind a request-counting proxy, and the service worker the build injected, in Chromium.
 * After the worker is installed, a navigation must send only package requests (no object of the page
 * travels on its own) and show the same page as the fixture served plainly.
 */
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildResult } from './build.js';
import type { RunningSite } from './discover/static-server.js';
import { chromiumPath } from './discover/trace-pages.js';
import type { CountingProxy } from './test-utils/counting-proxy.js';
import { startRealChain, type RealChain } from './test-utils/real-chain.js';
import { DOC_READY, visible } from './test-utils/vitepress-page.js';

/**
 * objpack's own files that may still travel: the worker script (the browser's update check) and the build
 * manifest (fetched in the background once per build by the delta feature). Not the registration snippet:
 * the worker answers it from its own copy.
 */
const OWN = new Set(['/objpack-sw.js', '/objpack-manifest.json']);
const VITEPRESS = fileURLToPath(new URL('../../../fixtures/closure/gen-vitepress/site', import.meta.url));
const chromium = chromiumPath();
if (!chromium)
  console.warn(
    '⚠ SKIPPING the real-site service-worker test: Chromium not found (set OBJPACK_CHROMIUM or apt install chromium)',
  );

describe.skipIf(!chromium)('real VitePress output through objpack build, objpack serve and the service worker', () => {
  let chain: RealChain | undefined;
  let browser: Browser;
  let plain: RunningSite;
  let proxy: CountingProxy;
  let built: BuildResult;
  beforeAll(async () => {
    chain = await startRealChain(VITEPRESS, { cache: false });
    ({ built, proxy, plain, browser } = chain);
  }, 60_000);
  afterAll(() => chain?.close());

  it(
    'after install, a page arrives as its packages alone, ' + 'every object from them, the page as without objpack',
    async () => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        // The build injected the registration into every page: the first visit installs the worker.
        await page.goto(`${proxy.origin}/`);
        await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 15_000 });
        // The first, uncontrolled visit's late requests (hydration chunks) must not count for the next one.
        await proxy.quiet(500);
        proxy.take();
        const fromNetwork: string[] = [];
        page.on('response', (r) => {
          const url = new URL(r.url());
          if (url.origin === proxy.origin && r.request().resourceType() !== 'document' && !r.fromServiceWorker())
            fromNetwork.push(url.pathname);
        });
        await page.goto(`${proxy.origin}/guide/getting-started.html`, { waitUntil: 'load' });
        await page.waitForFunction(DOC_READY);
        // Let hydration's module imports (and the worker's follow-up work) finish.
        await proxy.quiet(500);
        const requests = proxy.take();
        // The page's package at most once (the first page may already have had the worker prefetch it, as a
        // link in view), the shared ones, the packages of pages it links to, and OWN: nothing of the page's
        // closure on its own.
        expect(
          requests.filter((p) => p === '/_objpack/pages/guide/getting-started.html.objp').length,
        ).toBeLessThanOrEqual(1);
        expect(requests.filter((p) => !p.startsWith('/_objpack/') && !OWN.has(p))).toEqual([]);
        expect(fromNetwork.filter((p) => !OWN.has(p))).toEqual([]);
        const closure = built.plan.pages
          .find((p) => p.url === '/guide/getting-started.html')!
          .closure.map((o) => o.url);
        expect(closure.length).toBeGreaterThanOrEqual(10);
        expect(requests.filter((p) => closure.includes(p))).toEqual([]);

        const reference = await browser.newContext();
        try {
          const ref = await reference.newPage();
          await ref.goto(`${plain.origin}/guide/getting-started.html`, { waitUntil: 'load' });
          await ref.waitForFunction(DOC_READY);
          expect(await visible(page)).toEqual(await visible(ref));
        } finally {
          await reference.close();
        }
      } finally {
        await context.close();
      }
    },
  );
});
