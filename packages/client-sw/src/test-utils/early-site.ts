/** The site, server hooks and page checks the earlyResponse tests share. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { cacheContents, installWorker, pageDone, reference, serveSite, snapshot, swEvents } from './browser.js';
import type { useChromiumSuite } from './chromium-suite.js';
import { serveBytes, type Hook } from './server.js';
import { testSite, type BuiltSite, type SiteSpec } from './site.js';

type Suite = ReturnType<typeof useChromiumSuite>;

export const early = { options: { earlyResponse: true } };
export const PRELOADED = [
  '/assets/site.css',
  '/assets/base.css',
  '/assets/app.js',
  '/assets/dep.js',
  '/assets/data.json',
  '/assets/bg.svg',
  '/img/home.svg',
];
// Chromium holds low-priority requests (images) back until the document's body is being parsed.
export const EARLY = PRELOADED.filter((u) => !u.endsWith('.svg'));

export function preloadSite(register: Buffer): SiteSpec {
  const spec = testSite(register);
  spec.preload = {
    '/': [
      ['/assets/site.css', 'style'],
      ['/assets/base.css', 'style'],
      ['/assets/app.js', 'module'],
      ['/assets/dep.js', 'module'],
      ['/assets/data.json', 'fetch'],
      ['/assets/bg.svg', 'image'],
      ['/img/home.svg', 'image'],
    ],
  };
  return spec;
}

/** Holds a response back, headers included, until released. */
export function hold(): { hook: Hook; release: () => void; reached: Promise<void> } {
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const reachedP = new Promise<void>((r) => (reached = r));
  const hook: Hook = async (_req, res, file) => {
    if (!file) return false;
    reached();
    await gate;
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length });
    res.end(file.body);
    return true;
  };
  return { hook, release, reached: reachedP };
}

/** Breaks the site, loads `path` with early responses on; the page must end exactly as without objpack. */
export async function loadBroken(
  suite: Suite,
  breakIt: (site: BuiltSite) => void,
  spec = testSite(suite.b.register),
  stored = false,
  path = '/',
): Promise<Page> {
  const site = serveSite(suite.server, suite.b, spec, early);
  const ref = await reference(suite.browser, `${suite.server.origin}/`);
  const page = await installWorker(suite.context, suite.server);
  breakIt(site);
  suite.server.take();
  await page.goto(`${suite.server.origin}${path}`).catch(() => {});
  await pageDone(page);
  const got = await snapshot(page);
  expect(got.dom).toBe(ref.dom);
  expect(got.shot.equals(ref.shot)).toBe(true);
  if (!stored) expect(Object.values(await cacheContents(page)).flat()).not.toContain('/');
  return page;
}
export const breakPage =
  (suite: Suite, bytes: (body: Buffer) => Buffer, destroy = false) =>
  (site: BuiltSite) =>
    suite.server.hooks.set(site.pagePackage['/']!, serveBytes(bytes, { destroy }));

/** The worker's fallbacks for `/` since the last call, as `code detail`. */
export const fallbacks = async (page: Page) =>
  (await swEvents(page))
    .filter((e) => e.type === 'fallback' && e.url === '/')
    .map((e) => `${e.code} ${e.detail ?? ''}`.trim());
export const navigations = (log: string[]) => log.filter((p) => p === '/').length;
