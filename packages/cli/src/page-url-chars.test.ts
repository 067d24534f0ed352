/**
 * Page file names with characters Chromium leaves in a URL path (`[slug].html`): `objpack build` must key
 * the page the way the browser requests it, or the service worker never finds it in the route table and
 * the page loads from the network, object by object, as without objpack.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ObjpackServer } from '@objpack/serve';
import { build } from './build.js';
import { chromiumPath, launchChromium } from './discover/trace-pages.js';
import { makeSite } from './test-utils/site.js';

const chromium = chromiumPath();
if (!chromium)
  console.warn(
    '⚠ SKIPPING the page-file-name service-worker test: Chromium not found (set OBJPACK_CHROMIUM or apt ' +
      'install chromium)',
  );

describe.skipIf(!chromium)(
  'a page named [slug].html, with images a|b.svg and café.svg, through objpack build, objpack serve and the ' +
    'service worker',
  () => {
    let root: string;
    let server: ObjpackServer;
    let browser: Browser;
    beforeAll(async () => {
      root = await makeSite({
        'index.html':
          '<!doctype html><title>home</title><link rel="stylesheet" href="/s.css"><a id="raw" ' +
          'href="[slug].html">post</a><a id="esc" href="/%5Bslug%5D.html">post</a>',
        '[slug].html':
          '<!doctype html><title>post</title><link rel="stylesheet" href="/post.css"><h1>post</h1><img ' +
          'src="a|b.svg" alt=""><img src="caf%c3%a9.svg" alt="">',
        'a|b.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
        'caf\u00e9.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
        's.css': 'h1{color:red}',
        'post.css': 'h1{color:blue}',
      });
      const built = await build({ root, cache: false });
      expect(Object.keys(built.manifest.pages).sort()).toEqual(['/', '/[slug].html']);
      server = await serve({ root, port: 0 });
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close({ timeoutMs: 100 });
      rmSync(root, { recursive: true, force: true });
    });

    it('is answered by the worker, its stylesheet and image from its package', async () => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}/`);
        await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 15_000 });
        const fromWorker = new Map<string, boolean>();
        page.on('response', (r) => fromWorker.set(new URL(r.url()).pathname, r.fromServiceWorker()));
        await page.click('#raw');
        await page.waitForURL(/\[slug\]\.html$/);
        await page.waitForLoadState('load');
        expect(await page.textContent('h1')).toBe('post');
        // Chromium requests the image as /a%7Cb.svg (Node's URL parser, which resolves references, left '|').
        expect(
          [...fromWorker].filter(([p]) => p === '/[slug].html' || p === '/post.css' || p === '/a%7Cb.svg'),
        ).toEqual([
          ['/[slug].html', true],
          ['/post.css', true],
          ['/a%7Cb.svg', true],
        ]);
      } finally {
        await context.close();
      }
    });

    it(
      'is answered by the worker at another spelling of its URL, /%5Bslug%5D.html, and so is an image written ' +
        'caf%c3%a9.svg',
      async () => {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          await page.goto(`${server.url}/`);
          await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 15_000 });
          const fromWorker = new Map<string, boolean>();
          page.on('response', (r) => fromWorker.set(new URL(r.url()).pathname, r.fromServiceWorker()));
          await page.click('#esc');
          await page.waitForURL(/%5Bslug%5D\.html$/);
          await page.waitForLoadState('load');
          expect(await page.textContent('h1')).toBe('post');
          // Chromium keeps both escapes as written; the build names them /[slug].html and /caf%C3%A9.svg.
          expect(
            [...fromWorker].filter(([p]) => p === '/%5Bslug%5D.html' || p === '/post.css' || p === '/caf%c3%a9.svg'),
          ).toEqual([
            ['/%5Bslug%5D.html', true],
            ['/post.css', true],
            ['/caf%c3%a9.svg', true],
          ]);
        } finally {
          await context.close();
        }
      },
    );
  },
);
