import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  installWorker,
  pageDone,
  reference,
  serveSite,
  snapshot,
  swEvents,
  swFetches,
  type SeenFetch,
  type WorkerConfig,
} from '../test-utils/browser.js';
import { useChromiumSuite, type ChromiumSuite } from '../test-utils/chromium-suite.js';
import { stallAfter } from '../test-utils/server.js';
import { bodyOffset, testSite, type SiteSpec } from '../test-utils/site.js';

/** Objects the page finds only after its CSS, an `@import` or a module has been parsed. */
const LATE = ['/assets/base.css', '/assets/t.woff2', '/assets/bg.svg', '/assets/dep.js', '/assets/data.json'];
const COMMON = [
  '/assets/site.css',
  '/assets/base.css',
  '/assets/t.woff2',
  '/assets/app.js',
  '/assets/dep.js',
  '/assets/data.json',
  '/assets/bg.svg',
  '/sw-register.js',
];

/** The test site with a web font in the `@import`ed sheet, and the route table's preload list for `/`. */
function fontSite(register: Buffer, preload = true): SiteSpec {
  const spec = testSite(register, 1, {
    files: {
      '/assets/base.css': {
        type: 'text/css',
        body: Buffer.from(
          '@font-face{font-family:T;src:url(/assets/t.woff2) format("woff2")}body{font:16px T,sans-serif;margin:2px}',
        ),
      },
      // Not a real font: the browser still requests it (and then falls back), which is what is counted.
      '/assets/t.woff2': { type: 'font/woff2', body: Buffer.alloc(2048, 7) },
    },
    shared: { common: COMMON },
  });
  if (preload) {
    spec.preload = {
      '/': [
        ['/assets/site.css', 'style'],
        ['/assets/base.css', 'style'],
        ['/assets/t.woff2', 'font'],
        ['/assets/app.js', 'module'],
        ['/assets/dep.js', 'module'],
        ['/assets/data.json', 'fetch'],
        ['/assets/bg.svg', 'image'],
      ],
    };
  }
  return spec;
}

/** Collects the worker's fetch events until `until` holds or `ms` pass. */
async function collect(helper: Page, seen: SeenFetch[], until: (s: SeenFetch[]) => boolean, ms: number): Promise<void> {
  for (let i = 0; i < ms / 50 && !until(seen); i++) {
    seen.push(...(await swFetches(helper)));
    if (!until(seen)) await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Opens `/` while the shared package (CSS, fonts, modules) is held back after its index: the HTML arrives, but
 * nothing the page could find by parsing CSS or modules can be known to it. Returns what the worker saw by
 * then, and after release.
 */
async function openStalled(suite: ChromiumSuite, spec: SiteSpec, cfg: WorkerConfig = {}, expectEarly = true) {
  const site = serveSite(suite.server, suite.b, spec, cfg);
  const ref = expectEarly ? await reference(suite.browser, `${suite.server.origin}/`) : undefined;
  const shared = site.sharedPackage.common!;
  const helper = await installWorker(suite.context, suite.server);
  await swFetches(helper);
  const stall = stallAfter(bodyOffset(suite.server.files.get(shared)!.body, '/assets/site.css').start);
  suite.server.hooks.set(shared, stall.hook);
  const page = await suite.context.newPage();
  const nav = page.goto(`${suite.server.origin}/`);
  await stall.reached;
  const early: SeenFetch[] = [];
  // Waiting longer in the controls would only slow them: there the requests come after the release.
  await collect(helper, early, (s) => LATE.every((u) => s.some((f) => f.url === u)), expectEarly ? 5000 : 500);
  stall.release();
  const res = await nav;
  await pageDone(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // The page is done (script, JSON, images, fonts): every request it made has reached the worker.
  const all = [...early, ...(await swFetches(helper))];
  return { site, page, helper, ref, early, all, link: (await res?.allHeaders())?.link };
}

const countOf = (seen: SeenFetch[], url: string) => seen.filter((f) => f.url === url).length;

describe.skipIf(!CHROMIUM)('service worker in Chromium: Link preloads on the navigation', () => {
  const suite = useChromiumSuite();

  it(
    'announces the late objects at once; each is requested once, with the mode of its real use, and never from ' +
      'the network',
    async () => {
      const { site, page, ref, early, all, link } = await openStalled(suite, fontSite(suite.b.register));
      expect(link).toContain('</assets/t.woff2>; rel=preload; as=font; crossorigin');
      expect(link).toContain('</assets/dep.js>; rel=modulepreload');
      // While the package with the CSS and modules was still held back, the worker was asked for all of them.
      for (const u of LATE) expect(early.map((f) => f.url)).toContain(u);
      // Each object reached the worker exactly once: the page used the preloaded response (a preload made
      // with another mode or credentials than the page's own request would be fetched a second time).
      for (const u of COMMON.filter((x) => x !== '/sw-register.js')) expect(countOf(all, u), u).toBe(1);
      const font = all.find((f) => f.url === '/assets/t.woff2')!;
      expect([font.mode, font.destination, font.credentials]).toEqual(['cors', 'font', 'same-origin']);
      expect(all.find((f) => f.url === '/assets/dep.js')).toMatchObject({ mode: 'cors', destination: 'script' });
      expect(all.find((f) => f.url === '/assets/data.json')).toMatchObject({
        mode: 'cors',
        credentials: 'same-origin',
      });
      // One request per package, none for the objects.
      expect(suite.server.take().sort()).toEqual([site.pagePackage['/']!, site.sharedPackage.common!].sort());
      expect((await swEvents(page)).filter((e) => e.type === 'fallback')).toEqual([]);
      expect((await snapshot(page)).dom).toBe(ref!.dom);
    },
  );

  /** The test site with `<link rel=stylesheet crossorigin>` (as Vite writes it), announced with or without its mode. */
  const corsSite = (announceCors: boolean) => {
    const spec = fontSite(suite.b.register);
    const home = spec.files['/']!;
    spec.files['/'] = {
      ...home,
      body: Buffer.from(
        home.body
          .toString()
          .replace(
            '<link rel="stylesheet" href="/assets/site.css">',
            '<link rel="stylesheet" crossorigin href="/assets/site.css">',
          ),
      ),
    };
    spec.preload!['/'] = spec.preload!['/']!.map((h) =>
      h[0] === '/assets/site.css' && announceCors ? ['/assets/site.css', 'style', 'anonymous'] : h,
    );
    return spec;
  };

  it('a crossorigin stylesheet (Vite output) is announced in its CORS mode and requested once', async () => {
    const { all, link } = await openStalled(suite, corsSite(true));
    expect(link).toContain('</assets/site.css>; rel=preload; as=style; crossorigin');
    expect(countOf(all, '/assets/site.css')).toBe(1);
    expect(all.find((f) => f.url === '/assets/site.css')).toMatchObject({ mode: 'cors', credentials: 'same-origin' });
  });

  it('control: the same sheet announced without its mode is requested twice', async () => {
    const control = await openStalled(suite, corsSite(false));
    expect(control.link).toContain('</assets/site.css>; rel=preload; as=style,');
    expect(countOf(control.all, '/assets/site.css')).toBe(2);
  });

  it('announces them on a repeat visit served from Cache Storage too', async () => {
    const { page, helper } = await openStalled(suite, fontSite(suite.b.register));
    suite.server.take();
    await swFetches(helper);
    const res = await page.goto(`${suite.server.origin}/`);
    await pageDone(page);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect((await res?.allHeaders())?.link).toContain('</assets/base.css>; rel=preload; as=style');
    const seen = await swFetches(helper);
    for (const u of LATE) expect(countOf(seen, u), u).toBe(1);
    expect(suite.server.take()).toEqual([]);
  });

  it(
    'control: without the table list (or with preload off) the ' +
      'page cannot know the late objects before its CSS arrives',
    async () => {
      const off = await openStalled(suite, fontSite(suite.b.register, false), {}, false);
      expect(off.link).toBeUndefined();
      for (const u of LATE) expect(off.early.map((f) => f.url)).not.toContain(u);
      for (const u of LATE) expect(countOf(off.all, u), u).toBe(1);
    },
  );

  it('control: the preload option off sends no Link header', async () => {
    const off = await openStalled(suite, fontSite(suite.b.register), { options: { preload: false } }, false);
    expect(off.link).toBeUndefined();
    for (const u of LATE) expect(off.early.map((f) => f.url)).not.toContain(u);
  });
});
