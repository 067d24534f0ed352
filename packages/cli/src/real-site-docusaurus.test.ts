/**
 * Real Docusaurus output through `objpack build`, `objpack serve` and the worker, in Chromium: the route
 * chunks webpack's runtime loads by computed URLs are in the page's closure (discover/route-chunks.ts), so
 * they must travel in its packages, and the preloads that announce them must be in the mode of the
 * runtime's `<script>` elements: a preload in another mode (`modulepreload`) is a second fetch of each.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSite } from './discover/discover-site.js';
import { chromiumPath } from './discover/trace-pages.js';
import type { CountingProxy } from './test-utils/counting-proxy.js';
import { installWorker, startRealChain, type RealChain } from './test-utils/real-chain.js';

const DOCUSAURUS = fileURLToPath(new URL('../../../fixtures/closure/gen-docusaurus/site', import.meta.url));
const PAGE = '/docs/intro/';
/** Docusaurus sets it once React has hydrated the page, which takes every route chunk. */
const HYDRATED = "document.documentElement.dataset.hasHydrated === 'true'";
const chromium = chromiumPath();
if (!chromium)
  console.warn(
    '⚠ SKIPPING the real Docusaurus test: Chromium not found (set OBJPACK_CHROMIUM or apt install chromium)',
  );

describe.skipIf(!chromium)("real Docusaurus output: the route chunks webpack's runtime loads", () => {
  let chain: RealChain | undefined;
  let browser: Browser;
  let proxy: CountingProxy;
  let chunks: string[];
  beforeAll(async () => {
    chain = await startRealChain(DOCUSAURUS, { cache: false, bareDirUrls: true });
    ({ proxy, browser } = chain);
    const page = (await discoverSite(DOCUSAURUS)).pages.find((p) => p.url === PAGE)!;
    chunks = page.items.filter((o) => /\/main\.[0-9a-f]+\.js$/.test(o.from)).map((o) => o.url);
  }, 60_000);
  afterAll(() => chain?.close());

  /** How many resource timing entries the page has for each URL path of `urls`. */
  const entries = (page: Page, urls: string[]) =>
    page.evaluate(
      (list) => list.map((u) => performance.getEntriesByName(u).length),
      urls.map((u) => new URL(u, proxy.origin).href),
    );

  it('a first visit fetches each chunk once, unannounced: the runtime asks for it', async () => {
    expect(chunks).toHaveLength(8);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const response = await page.goto(`${proxy.origin}${PAGE}`, { waitUntil: 'load' });
      await page.waitForFunction(HYDRATED);
      await proxy.quiet(500);
      const requests = proxy.take();
      const link = (await response!.allHeaders()).link ?? '';
      expect(link).toContain('rel=preload; as=style'); // the page's stylesheet: the header is there
      for (const chunk of chunks) {
        expect(link, chunk).not.toContain(`<${chunk}>`);
        expect(requests.filter((p) => p === chunk).length, chunk).toBe(1);
      }
      expect(await entries(page, chunks)).toEqual(chunks.map(() => 1));
    } finally {
      await context.close();
    }
  });

  it("after install, the next page's chunks come from its packages, each fetched once by the page", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await installWorker(page, proxy);
      const response = await page.goto(`${proxy.origin}${PAGE}`, { waitUntil: 'load' });
      await page.waitForFunction(HYDRATED);
      await proxy.quiet(500);
      const requests = proxy.take();
      expect(requests.filter((p) => chunks.includes(p))).toEqual([]);
      const link = (await response!.allHeaders()).link ?? '';
      for (const chunk of chunks) expect(link).toContain(`<${chunk}>; rel=preload; as=script; fetchpriority=low`);
      // The worker announces them in its Link header: in the wrong mode, each would be asked for twice.
      expect(await entries(page, chunks)).toEqual(chunks.map(() => 1));
    } finally {
      await context.close();
    }
  });
});
