/**
 * A GitHub Pages project site: real VitePress output built with `--base /repo/`, `objpack build --base
 * /repo/`, served by a host that serves only `/repo/` (test-utils/pages-host.ts), and the worker the build
 * wrote, in real Chromium. Nothing may ever leave `/repo/`; the worker's scope is `/repo/`, its caches carry
 * it, and a second site under another base on the same origin keeps its own worker and caches.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type BuildResult } from './build.js';
import { chromiumPath, launchChromium } from './discover/trace-pages.js';
import { pagesHost, type PagesHost } from './test-utils/pages-host.js';
import { makeSite } from './test-utils/site.js';
import { DOC_READY, visible } from './test-utils/vitepress-page.js';

const SITE = fileURLToPath(new URL('../../../fixtures/closure/gen-vitepress-base/site', import.meta.url));
const chromium = chromiumPath();
if (!chromium)
  console.warn(
    '⚠ SKIPPING the GitHub Pages base-path test: Chromium not found (set OBJPACK_CHROMIUM or apt install chromium)',
  );

const CONTROLLED = 'navigator.serviceWorker.controller !== null';
/**
 * Chromium asks for `/favicon.ico` at the origin's root for a page that names no icon (this VitePress site
 * names none), with or without objpack; the first test checks that the plain site does too.
 */
const BROWSER_FAVICON = '/favicon.ico';
const leaving = (paths: readonly string[]) => paths.filter((p) => !p.startsWith('/repo/') && p !== BROWSER_FAVICON);

/** A small site whose references are all relative: the same files work under any base. */
const SMALL = {
  'index.html':
    '<!doctype html><title>Home</title><link rel="icon" href="data:,"><link rel="stylesheet" href="css/site.css">' +
    '<a href="about/">About</a>',
  'about/index.html':
    '<!doctype html><title>About</title><link rel="icon" href="data:,"><link rel="stylesheet" href="../css/site.css">' +
    '<img src="../img/a.png">',
  'css/site.css': `body{background:url(../img/a.png)}/*${'c'.repeat(4000)}*/`,
  'img/a.png': new Uint8Array(2000).fill(1),
};
const controller = (page: Page) =>
  page.evaluate('navigator.serviceWorker.controller?.scriptURL') as Promise<string | undefined>;
const registrations = (page: Page) =>
  page.evaluate('navigator.serviceWorker.getRegistrations().then((rs) => rs.map((r) => r.scope).sort())') as Promise<
    string[]
  >;
const cacheNames = (page: Page) => page.evaluate('caches.keys().then((k) => k.sort())') as Promise<string[]>;

/** A copy of the VitePress site built with `options` in `dir/name`. */
function copyOf(dir: string, name: string): string {
  const root = path.join(dir, name);
  cpSync(SITE, root, { recursive: true });
  return root;
}

/** Waits until the host has had no request for `ms`. */
async function quiet(host: PagesHost, ms = 500): Promise<string[]> {
  const all: string[] = [];
  for (;;) {
    await new Promise((r) => setTimeout(r, ms));
    const got = host.take();
    if (got.length === 0) return all;
    all.push(...got);
  }
}

describe.skipIf(!chromium)(
  'a GitHub Pages project site under /repo/ (VitePress --base /repo/, objpack build --base /repo/)',
  () => {
    let dir: string;
    let root: string;
    let built: BuildResult;
    let host: PagesHost;
    let plain: PagesHost;
    let browser: Browser;
    /** Every request the host saw, over every test: none may leave /repo/. */
    const everything: string[] = [];
    const take = () => {
      const got = host.take();
      everything.push(...got);
      return got;
    };

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'objpack-pages-'));
      root = copyOf(dir, 'repo');
      built = await build({ root, base: '/repo/', cache: false });
      host = await pagesHost({ '/repo/': root });
      plain = await pagesHost({ '/repo/': SITE });
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await host?.close();
      await plain?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Opens the site's home, waits for the worker to control it and for the host to go quiet. */
    async function install(context: BrowserContext, at = host): Promise<Page> {
      const page = await context.newPage();
      await page.goto(`${at.origin}/repo/`);
      await page.waitForFunction(CONTROLLED, undefined, { timeout: 15_000 });
      return page;
    }

    it('installs a worker for /repo/; the next page comes as its packages alone, as without it', async () => {
      const context = await browser.newContext();
      try {
        const page = await install(context);
        expect(await controller(page)).toBe(`${host.origin}/repo/objpack-sw.js`);
        expect(await registrations(page)).toEqual([`${host.origin}/repo/`]);
        // The first, uncontrolled visit's late requests (hydration chunks, prefetches) must not count for the next.
        everything.push(...(await quiet(host)));
        take();
        const target = '/repo/guide/getting-started.html';
        await page.goto(`${host.origin}${target}`, { waitUntil: 'load' });
        await page.waitForFunction(DOC_READY);
        const requests = [...take(), ...(await quiet(host))];
        everything.push(...requests);
        const closure = built.plan.pages.find((p) => p.url === target)!.closure.map((o) => o.url);
        expect(closure.length).toBeGreaterThanOrEqual(10);
        // Neither the page nor any object of its closure reached the host: only packages (and the worker's own
        // files: the browser's update check of the worker script, the manifest the delta feature reads).
        expect(requests.filter((p) => p === target || closure.includes(p))).toEqual([]);
        expect(
          requests.filter(
            (p) =>
              !p.startsWith('/repo/_objpack/') && p !== '/repo/objpack-sw.js' && p !== '/repo/objpack-manifest.json',
          ),
        ).toEqual([]);
        expect((await cacheNames(page)).every((n) => n.startsWith('objpack-v1/repo/-'))).toBe(true);

        const reference = await browser.newContext({ serviceWorkers: 'block' });
        try {
          const ref = await reference.newPage();
          await ref.goto(`${plain.origin}${target}`, { waitUntil: 'load' });
          await ref.waitForFunction(DOC_READY);
          expect(await visible(page)).toEqual(await visible(ref));
          // The browser's own request above the base, without objpack too.
          expect((await quiet(plain)).filter((p) => !p.startsWith('/repo/'))).toEqual([BROWSER_FAVICON]);
        } finally {
          await reference.close();
        }
      } finally {
        await context.close();
      }
      expect(leaving(everything)).toEqual([]);
    });

    it('takes a deploy: a page changed and rebuilt is shown once the worker has the new route table', async () => {
      const context = await browser.newContext();
      const page = 'guide/configuration.html';
      const original = readFileSync(path.join(root, page), 'utf8');
      try {
        const tab = await install(context);
        await tab.goto(`${host.origin}/repo/${page}`);
        await tab.waitForFunction(DOC_READY);
        const before = (await visible(tab)) as { doc: string };
        writeFileSync(path.join(root, page), original.replace('<h1', '<p id="deployed">Deployed again.</p><h1'));
        const v2 = await build({ root, base: '/repo/', cache: false });
        expect(v2.buildId).not.toBe(built.buildId);
        // The worker answers at once from what it holds and checks its table behind the navigation once it is
        // older than 30 s (client-sw README): the deploy shows within a few navigations after that.
        await expect
          .poll(
            async () => {
              await tab.goto(`${host.origin}/repo/${page}`);
              await tab.waitForFunction(DOC_READY);
              return tab.evaluate("document.getElementById('deployed')?.textContent ?? null");
            },
            { timeout: 60_000, interval: 2_000 },
          )
          .toBe('Deployed again.');
        expect(((await visible(tab)) as { doc: string }).doc).not.toBe(before.doc);
        expect(await controller(tab)).toBe(`${host.origin}/repo/objpack-sw.js`);
      } finally {
        await context.close();
        everything.push(...take());
      }
      expect(leaving(everything)).toEqual([]);
    }, 90_000);

    it('sites under /a/ and /b/ of one origin keep their own workers and caches, and unregister alone', async () => {
      const a = await makeSite(SMALL);
      const b = await makeSite(SMALL);
      await build({ root: a, base: '/a/', cache: false });
      await build({ root: b, base: '/b/', cache: false });
      const two = await pagesHost({ '/a/': a, '/b/': b });
      const context = await browser.newContext();
      try {
        const pa = await context.newPage();
        await pa.goto(`${two.origin}/a/`);
        await pa.waitForFunction(CONTROLLED, undefined, { timeout: 15_000 });
        const pb = await context.newPage();
        await pb.goto(`${two.origin}/b/`);
        await pb.waitForFunction(CONTROLLED, undefined, { timeout: 15_000 });
        expect(await controller(pa)).toBe(`${two.origin}/a/objpack-sw.js`);
        expect(await controller(pb)).toBe(`${two.origin}/b/objpack-sw.js`);
        expect(await registrations(pa)).toEqual([`${two.origin}/a/`, `${two.origin}/b/`]);
        await pa.goto(`${two.origin}/a/about/`);
        await pb.goto(`${two.origin}/b/about/`);
        await expect
          .poll(async () => (await cacheNames(pa)).some((n) => n.startsWith('objpack-v1/b/-build-')))
          .toBe(true);
        const names = await cacheNames(pa);
        expect(names.filter((n) => n.startsWith('objpack-v1/a/-build-'))).toHaveLength(1);
        expect(names.every((n) => n.startsWith('objpack-v1/a/-') || n.startsWith('objpack-v1/b/-'))).toBe(true);

        // /b/ retires objpack: its kill switch deletes /b/'s caches and registration, and /a/ keeps its own.
        await build({ root: b, base: '/b/', cache: false, unregister: true });
        await pb.evaluate('navigator.serviceWorker.getRegistration().then((r) => r.update())');
        await expect.poll(() => registrations(pa), { timeout: 15_000 }).toEqual([`${two.origin}/a/`]);
        await expect
          .poll(async () => (await cacheNames(pa)).filter((n) => n.startsWith('objpack-v1/b/')), { timeout: 15_000 })
          .toEqual([]);
        const kept = await cacheNames(pa);
        expect(kept.filter((n) => n.startsWith('objpack-v1/a/-build-'))).toHaveLength(1);
        expect(kept).toContain('objpack-v1/a/-meta');
        await pa.goto(`${two.origin}/a/`);
        expect(await controller(pa)).toBe(`${two.origin}/a/objpack-sw.js`);
        expect(two.take().filter((p) => !p.startsWith('/a/') && !p.startsWith('/b/'))).toEqual([]);
      } finally {
        await context.close();
        await two.close();
        for (const d of [a, b]) rmSync(d, { recursive: true, force: true });
      }
    }, 90_000);
  },
);
