/**
 * Runs every case under fixtures/closure/: the computed closures must equal the hand-checked
 * expected.json, and (browser oracle) the same pages loaded in real Chromium must request exactly the
 * closure's critical tier, apart from the exceptions each case lists with a reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSite } from './discover-site.js';
import { serveFiles } from './static-server.js';
import { inCriticalTier } from './tiers.js';
import { chromiumPath, launchChromium, recordPage } from './trace-pages.js';
import type { PageRecording } from './trace-pages.js';
import type { SiteGraph } from './types.js';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/closure/', import.meta.url));

interface ExpectedPage {
  closure: string[];
  critical?: string[];
  /** The later tier (tiers.ts), as `url reason`; required whenever the page has one. */
  later?: string[];
  links?: string[];
  iframes?: string[];
  crossOrigin?: string[];
  prefetch?: string[];
}
interface Exception {
  page: string;
  url: string;
  reason: string;
}
interface Expected {
  description: string;
  /** The site's folder, relative to the case's, when it is not `site/` (a site kept elsewhere in fixtures/). */
  site?: string;
  options?: { origin?: string; base?: string };
  pages: Record<string, ExpectedPage>;
  diagnostics: Array<{ code: string; file: string; line: number }>;
  /**
   * `unseen`: objects Chromium fetches that the recording cannot see (Playwright hides favicon.ico);
   * compared like `staticOnly`, counted as loaded by the first-load bytes check (benchmarks/build).
   */
  oracle: { staticOnly: Exception[]; browserOnly: Exception[]; unseen?: Exception[] };
  notInFiles?: string[];
}

const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => {
    const expected = JSON.parse(readFileSync(`${FIXTURES}${d.name}/expected.json`, 'utf8')) as Expected;
    return { name: d.name, site: resolve(FIXTURES, d.name, expected.site ?? 'site'), expected };
  });

const graphs = new Map<string, Promise<SiteGraph>>();
const graphOf = (c: (typeof cases)[number]) => {
  let g = graphs.get(c.name);
  if (!g) graphs.set(c.name, (g = discoverSite(c.site, { ...(c.expected.options ?? {}), concurrency: 1 })));
  return g;
};

describe('closure fixtures', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(9);
  });

  for (const c of cases) {
    it(`${c.name}: closures, order, links and diagnostics match expected.json`, async () => {
      const graph = await graphOf(c);
      const actual: Record<string, ExpectedPage> = {};
      for (const p of graph.pages) {
        const want = c.expected.pages[p.url];
        const got: ExpectedPage = { closure: p.items.map((i) => i.url) };
        if (want?.critical) got.critical = p.items.filter((i) => i.critical).map((i) => i.url);
        const later = p.items.filter((i) => !inCriticalTier(i)).map((i) => `${i.url} ${i.conditional}`);
        if (want?.later || later.length > 0) got.later = later;
        if (want?.links) got.links = p.links;
        if (want?.iframes) got.iframes = p.iframes;
        if (want?.crossOrigin) got.crossOrigin = p.crossOrigin;
        if (want?.prefetch) got.prefetch = p.prefetch;
        actual[p.url] = got;
      }
      expect(actual).toEqual(c.expected.pages);
      const diagnostics = graph.diagnostics.map((d) => ({ code: d.code, file: d.file, line: d.line }));
      expect(diagnostics).toEqual(c.expected.diagnostics);
      for (const hidden of c.expected.notInFiles ?? []) expect(graph.files.has(hidden)).toBe(false);
      for (const p of graph.pages) expect(p.items[0]).toMatchObject({ url: p.url, as: 'document', critical: true });
    });
  }
});

const chromium = chromiumPath();
if (!chromium)
  console.warn('⚠ SKIPPING browser-oracle tests: Chromium not found (set OBJPACK_CHROMIUM or apt install chromium)');

describe.skipIf(!chromium)('browser oracle: Chromium requests exactly the closure', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const c of cases) {
    it(`${c.name}`, async () => {
      const graph = await graphOf(c);
      const server = await serveFiles(graph.files);
      // A case with --origin is loaded from that origin: Chromium sends every request through the test
      // server as a proxy, so absolute URLs on the origin reach the fixture as they would in production.
      const origin = c.expected.options?.origin;
      const b = origin
        ? await launchChromium([`--proxy-server=${server.origin}`, '--proxy-bypass-list=<-loopback>'])
        : browser;
      try {
        const base = origin ?? server.origin;
        // Pages of a case load in parallel (one fresh browser context each); checks run in page order.
        const recordings = await Promise.all(
          graph.pages.map((page) => {
            // Icons the case expects Chromium to fetch are waited for (they come after load, whenever
            // the browser gets to them); one it never fetches still fails, after the deadline.
            const exceptions = [...c.expected.oracle.staticOnly, ...(c.expected.oracle.unseen ?? [])];
            const exempt = new Set(exceptions.filter((e) => e.page === page.url).map((e) => e.url));
            const awaitUrls = page.items
              .filter((i) => i.conditional === 'icon' && !exempt.has(i.url))
              .map((i) => i.url);
            return recordPage(b, new URL(page.url, base).href, { awaitUrls });
          }),
        );
        graph.pages.forEach((page, i) => {
          const rec = recordings[i] as PageRecording;
          const ok = new Set(rec.requests.filter((r) => r.status !== undefined && r.status < 400).map((r) => r.url));
          const notFound = rec.requests.filter((r) => r.status === 404).map((r) => r.url);
          ok.delete(page.url);
          const closure = new Set(
            page.items
              .slice(1)
              .filter(inCriticalTier)
              .map((i) => i.url),
          );
          const staticOnly = [...closure].filter((u) => !ok.has(u)).sort();
          const browserOnly = [...ok].filter((u) => !closure.has(u)).sort();
          const allowed = (list: Exception[]) =>
            list
              .filter((e) => e.page === page.url)
              .map((e) => e.url)
              .sort();
          expect({ page: page.url, staticOnly, browserOnly }).toEqual({
            page: page.url,
            staticOnly: allowed([...c.expected.oracle.staticOnly, ...(c.expected.oracle.unseen ?? [])]),
            browserOnly: allowed(c.expected.oracle.browserOnly),
          });
          // Every failed request must be one discovery warned about (missing, escaping, dotfile…).
          for (const url of notFound) {
            const name = decodeURIComponent(url.split('?')[0]?.split('/').pop() ?? url);
            const explained = graph.diagnostics.some((d) => d.ref !== undefined && safeDecode(d.ref).includes(name));
            expect(explained, `${page.url} requested ${url} (404) without a warning`).toBe(true);
          }
        });
      } finally {
        if (b !== browser) await b.close();
        await server.close();
      }
    });
  }
});

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
