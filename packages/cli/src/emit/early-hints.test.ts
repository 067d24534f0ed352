/**
 * A first visit (no worker yet) to a depth-3 page built by `objpack build` and served by `objpack serve`
 * over HTTP/2: its 103 Early Hints and `Link` name the page's whole render path, so Chromium asks for the
 * imported modules and the stylesheets' images before it could have found them by parsing, each once (a
 * preload in the wrong mode would be fetched a second time).
 */
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import http2 from 'node:http2';
import path from 'node:path';
import { serve, type ObjpackServer } from '@objpack/serve';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../build.js';
import { chromiumPath, launchChromium } from '../discover/trace-pages.js';
import { DEEP, fakeWorkerAssets, makeSite } from '../test-utils/site.js';

const chromium = chromiumPath();
if (!chromium)
  console.warn(
    '⚠ SKIPPING the Early Hints browser test: Chromium not found (set OBJPACK_CHROMIUM or apt install chromium)',
  );

interface Timing {
  path: string;
  start: number;
  end: number;
  initiator: string;
}

describe.skipIf(!chromium)('first visit: 103 Early Hints and Link of the whole render path', () => {
  let root: string;
  let server: ObjpackServer;
  let browser: Browser;
  beforeAll(async () => {
    // Stylesheets, modules and fonts may be reused for an hour (as a host serves hashed assets); the images
    // keep objpack serve's default, max-age=0, must-revalidate.
    const fresh = ['css', 'js', 'fonts'].map((d) => `/deep/${d}/*\n  Cache-Control: public, max-age=3600`).join('\n');
    root = await makeSite({ ...DEEP, _headers: `${fresh}\n` });
    await build({ root, workerAssets: await fakeWorkerAssets() });
    server = await serve({ root, host: '127.0.0.1', port: 0, https: true });
    browser = await launchChromium(['--ignore-certificate-errors']);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the 103 names the imported modules and fonts in the right modes; the 200 also the CSS images', async () => {
    const session = http2.connect(server.url, { rejectUnauthorized: false });
    try {
      const { hints, link } = await new Promise<{ hints: string; link: string }>((resolve, reject) => {
        let early = '';
        const req = session.request({ ':path': '/deep/', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' });
        req.on('headers', (h) => {
          if (h[':status'] === 103) early = String(h.link);
        });
        req.on('response', (h) =>
          early ? resolve({ hints: early, link: String(h.link) }) : reject(new Error('no 103 before the response')),
        );
        req.on('error', reject);
        req.resume();
      });
      for (const e of [
        '</deep/css/theme.css>; rel=preload; as=style',
        '</deep/fonts/body.woff2>; rel=preload; as=font; crossorigin',
        '</deep/js/ui.js>; rel=modulepreload',
        '</deep/js/util.js>; rel=modulepreload',
      ]) {
        expect(hints).toContain(e);
        expect(link).toContain(e);
      }
      // An image the page would have to revalidate (must-revalidate): a 103 fetch of it is not reused, so
      // the page would ask again after it; the 200's Link preload is used as it is.
      expect(hints).not.toContain('/deep/img/hero.svg');
      expect(link).toContain('</deep/img/hero.svg>; rel=preload; as=image');
    } finally {
      session.close();
    }
  });

  it(
    'Chromium asks for the imported modules and the CSS ' + 'images before it could find them by parsing, each once',
    async () => {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}/deep/`, { waitUntil: 'load' });
        // (Page code as a string: this package is compiled without the DOM's types.)
        const timings = (await page.evaluate(`performance.getEntriesByType('resource').map((r) => ({
        path: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd,
        initiator: r.initiatorType }))`)) as Timing[];
        const at = (p: string) => {
          const all = timings.filter((t) => t.path === p);
          // One entry: a preload in another mode than the page's own request would be a second fetch.
          expect(all, p).toHaveLength(1);
          return all[0]!;
        };
        // Depth 2 and 3 of the module graph, and images only the stylesheets name. (With a certificate error
        // Chromium keeps no response in its HTTP cache, so the 103's own fetches are not reused here: these
        // come from the same list on the 200, which the 103 test above pins.)
        expect(at('/deep/js/ui.js').start).toBeLessThan(at('/deep/js/app.js').end);
        expect(at('/deep/js/util.js').start).toBeLessThan(at('/deep/js/app.js').end);
        // A stylesheet's image found by parsing it has initiator 'css'; one the Link list names, 'link'. (When
        // it starts is Chromium's choice: it holds low-priority preloads while render-blocking CSS loads.)
        expect(at('/deep/img/hero.svg').initiator).toBe('link');
        expect(at('/deep/img/card.svg').initiator).toBe('link');
        for (const p of ['/deep/fonts/body.woff2', '/deep/fonts/head.woff2']) at(p);
        expect(await page.evaluate('document.body.dataset.ui')).toBe('ready');
      } finally {
        await context.close();
      }
    },
  );

  it('Chromium asks for the registration script at high priority, not held back behind the CSS', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      const priorities = new Map<string, string>();
      cdp.on('Network.requestWillBeSent', (e) =>
        priorities.set(new URL(e.request.url).pathname, e.request.initialPriority),
      );
      await page.goto(`${server.url}/deep/`, { waitUntil: 'load' });
      // A deferred script is otherwise 'Low', which Chromium delays while render-blocking stylesheets load.
      expect(priorities.get('/objpack-register.js')).toBe('High');
      expect(priorities.get('/deep/css/site.css')).toBe('VeryHigh');
    } finally {
      await context.close();
    }
  });

  it(
    '_headers carries the same list for hosts that turn ' + 'Link into Early Hints (Netlify, Cloudflare Pages)',
    async () => {
      const headers = await readFile(path.join(root, '_headers'), 'utf8');
      const rule = headers.split('\n/deep/\n')[1]!.split('\n')[0]!;
      expect(rule).toContain('</deep/js/ui.js>; rel=modulepreload');
      expect(rule).toContain('</deep/js/util.js>; rel=modulepreload');
      expect(rule).toContain('</deep/img/hero.svg>; rel=preload; as=image');
      expect(rule).toContain('</deep/fonts/head.woff2>; rel=preload; as=font; crossorigin');
      // Not the page's own images: the preload scanner finds them in the HTML.
      expect(rule).not.toContain('/deep/img/c0.svg');
    },
  );

  it("Chromium, trusting the certificate, reuses the 103's fetches and revalidates nothing", async () => {
    // A trusted certificate (by its key's hash), so Chromium keeps responses in its HTTP cache as on a real
    // site: with a certificate error it keeps none, and a 103's fetches are never reused.
    const dir = await mkdtemp(path.join(tmpdir(), 'objpack-tls-'));
    const [cert, key] = [path.join(dir, 'cert.pem'), path.join(dir, 'key.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const spki = createHash('sha256')
      .update(new X509Certificate(await readFile(cert)).publicKey.export({ type: 'spki', format: 'der' }))
      .digest('base64');
    const trusted = await serve({ root, host: '127.0.0.1', port: 0, cert, key });
    const strict = await launchChromium([`--ignore-certificate-errors-spki-list=${spki}`]);
    try {
      const page = await (await strict.newContext()).newPage();
      await page.goto(`${trusted.url}/deep/`, { waitUntil: 'load' });
      expect(await page.evaluate('document.body.dataset.ui')).toBe('ready');
      expect(trusted.stats().earlyHints).toBe(1);
      // A 103 that named a file the page must revalidate made it ask again: a 304 after the first fetch.
      expect(trusted.stats().notModified).toBe(0);
    } finally {
      await strict.close();
      await trusted.close();
    }
  });
});
