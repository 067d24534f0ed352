/**
 * The whole chain on a real Next.js static export (fixtures/closure/gen-nextjs, Turbopack, and
 * gen-nextjs-webpack, whose dynamic route's chunk is /_next/static/chunks/app/posts/%5Bslug%5D/page-….js):
 * `objpack build --clean-urls` (Next's links name pages without .html), `objpack serve` behind a
 * request-counting proxy, and the injected service worker in Chromium. After the worker is installed, a
 * document navigation must send only package requests and show the page as the export served plainly; a
 * client-side <Link> navigation fetches the target's RSC payload (/about.txt?_rsc=…, a URL Next's router
 * computes) and nothing outside the target page's closure.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildResult } from './build.js';
import type { RunningSite } from './discover/static-server.js';
import { chromiumPath } from './discover/trace-pages.js';
import type { CountingProxy } from './test-utils/counting-proxy.js';
import { installWorker, startRealChain, type RealChain } from './test-utils/real-chain.js';

/** objpack's own files that may still travel (the worker's update check, the delta feature's manifest). */
const OWN = new Set(['/objpack-sw.js', '/objpack-manifest.json']);
const FIXTURES = fileURLToPath(new URL('../../../fixtures/closure/', import.meta.url));
const chromium = chromiumPath();
if (!chromium)
  console.warn(
    '⚠ SKIPPING the Next.js service-worker test: Chromium not found (set OBJPACK_CHROMIUM or apt install chromium)',
  );

/** What the reader sees: title, headings, the main text, the body font and the images as loaded. */
// (Page code as strings: this package is compiled without the DOM's types.)
const visible = (page: Page) =>
  page.evaluate(`({
    title: document.title,
    h1: [...document.querySelectorAll('h1')].map((h) => h.textContent),
    main: document.querySelector('main')?.innerText,
    font: getComputedStyle(document.body).fontFamily,
    images: [...document.images].map((i) => [new URL(i.currentSrc).pathname, i.naturalWidth]),
  })`);
const heading = (text: string) => `document.querySelector('h1')?.textContent === ${JSON.stringify(text)}`;

describe.skipIf(!chromium).each(['gen-nextjs', 'gen-nextjs-webpack'])(
  'real Next.js export (%s) through objpack build, objpack serve and the service worker',
  (fixture) => {
    const site = `${FIXTURES}${fixture}/site`;
    let chain: RealChain | undefined;
    let browser: Browser;
    let plain: RunningSite;
    let proxy: CountingProxy;
    let built: BuildResult;
    beforeAll(async () => {
      chain = await startRealChain(site, { cache: false, cleanUrls: true });
      ({ built, proxy, plain, browser } = chain);
    }, 60_000);
    afterAll(() => chain?.close());

    const closureOf = (url: string) => built.plan.pages.find((p) => p.url === url)!.closure.map((o) => o.url);

    it(
      'after install, a page arrives as its packages alone; a <Link> navigation adds only its RSC payload and ' +
        "the target page's objects",
      async () => {
        const context = await browser.newContext();
        const reference = await browser.newContext();
        try {
          const page = await context.newPage();
          await installWorker(page, proxy);
          const fromNetwork: string[] = [];
          const fromWorker: string[] = [];
          page.on('response', (r) => {
            const url = new URL(r.url());
            if (url.origin !== proxy.origin || r.request().resourceType() === 'document') return;
            (r.fromServiceWorker() ? fromWorker : fromNetwork).push(url.pathname);
          });

          // A document navigation: the route chunk (%5Bslug%5D in the webpack build) comes from the package.
          await page.goto(`${proxy.origin}/posts/first`, { waitUntil: 'load' });
          await page.waitForFunction(heading('First post'));
          await proxy.quiet(500);
          const requests = proxy.take();
          expect(requests.filter((p) => !p.startsWith('/_objpack/') && !OWN.has(p))).toEqual([]);
          expect(fromNetwork.filter((p) => !OWN.has(p))).toEqual([]);
          const first = closureOf('/posts/first.html');
          const routeChunk = first.filter((u) => u.includes('/app/posts/'));
          expect(routeChunk).toHaveLength(fixture === 'gen-nextjs-webpack' ? 1 : 0);
          for (const u of routeChunk) expect(u).toContain('/%5Bslug%5D/');
          for (const u of first.slice(1)) expect(fromWorker, u).toContain(u.split('?')[0]);
          const ref = await reference.newPage();
          await ref.goto(`${plain.origin}/posts/first.html`, { waitUntil: 'load' });
          await ref.waitForFunction(heading('First post'));
          expect(await visible(page)).toEqual(await visible(ref));

          // A client-side navigation: Next's router fetches the target's RSC payload by a URL it computes.
          fromNetwork.length = 0;
          await page.click('nav a[href="/about"]');
          await page.waitForFunction(heading('About'));
          await proxy.quiet(500);
          const about = new Set(closureOf('/about.html'));
          const travelled = proxy.take().filter((p) => !p.startsWith('/_objpack/') && !OWN.has(p));
          // The target's objects come from its package, fetched ahead when the link was seen (the worker answers a
          // page's requests from other packages of its build): only the payload, which no package carries, travels.
          expect(travelled).toEqual([expect.stringMatching(/^\/about\.txt\?_rsc=/)]);
          expect(fromNetwork.filter((p) => about.has(p))).toEqual([]);
          await ref.goto(`${plain.origin}/about.html`, { waitUntil: 'load' });
          await ref.waitForFunction(heading('About'));
          expect(await visible(page)).toEqual(await visible(ref));
        } finally {
          await reference.close();
          await context.close();
        }
      },
    );

    it(
      "after Chromium stops the idle worker, a <Link> navigation still gets the target's objects from the " +
        'package held before',
      async () => {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          await page.goto(`${proxy.origin}/`);
          await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 15_000 });
          await page.goto(`${proxy.origin}/posts/first`, { waitUntil: 'load' });
          await page.waitForFunction(heading('First post'));
          // The links' packages are fetched ahead once the page is idle, and written to Cache Storage when quiet.
          await proxy.quiet(1500);
          // Chromium stops a worker idle for 30 s; the restarted one has none of the last one's memory.
          const cdp = await context.newCDPSession(page);
          await cdp.send('ServiceWorker.enable');
          await cdp.send('ServiceWorker.stopAllWorkers');
          proxy.take();
          await page.click('nav a[href="/about"]');
          await page.waitForFunction(heading('About'));
          await proxy.quiet(500);
          expect(proxy.take().filter((p) => !p.startsWith('/_objpack/') && !OWN.has(p))).toEqual([
            expect.stringMatching(/^\/about\.txt\?_rsc=/),
          ]);
        } finally {
          await context.close();
        }
      },
    );
  },
);
