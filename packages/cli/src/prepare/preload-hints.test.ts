import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PreloadEntry, RouteTable } from '@objpack/format';
import { describe, expect, test } from 'vitest';
import { build } from '../build.js';
import { DEEP, fakeWorkerAssets, makeSite } from '../test-utils/site.js';
import { earlyHints, MAX_CONTENT_IMAGES, MAX_CSS_IMAGES, preloadHints } from './preload-hints.js';

const readRoutes = async (root: string) =>
  JSON.parse(await readFile(path.join(root, '_objpack/routes.json'), 'utf8')) as RouteTable;
const hintsOf = (t: RouteTable, page: string): PreloadEntry[] =>
  (t.preload?.pages[page] ?? []).map((i) => t.preload!.urls[i]!);

describe('routes.json preload lists', () => {
  test(
    "the deep page: render-blocking CSS, its fonts and images, the modules, the page's images (what the " +
      'browser benchmark announces)',
    async () => {
      const root = await makeSite(DEEP);
      const result = await build({ root, workerAssets: await fakeWorkerAssets() });
      const routes = await readRoutes(root);
      // Same list as benchmarks/browser/fixtures.mjs, which writes its packages by hand.
      expect(hintsOf(routes, '/deep/')).toEqual([
        ['/deep/css/site.css', 'style'],
        ['/deep/css/theme.css', 'style'],
        ['/deep/fonts/body.woff2', 'font'],
        ['/deep/fonts/head.woff2', 'font'],
        ['/deep/js/app.js', 'module'],
        ['/deep/js/ui.js', 'module'],
        ['/deep/js/util.js', 'module'],
        ...Array.from({ length: 10 }, (_, i): PreloadEntry => [`/deep/img/c${i}.svg`, 'image']),
        ['/deep/img/card.svg', 'image'],
        ['/deep/img/foot.svg', 'image'],
        ['/deep/img/hero.svg', 'image'],
        // The registration snippet the build injects (the benchmark's stand-in is /bench-register.js).
        ['/objpack-register.js', 'script'],
      ]);
      expect(result.manifest.pages['/deep/']!.preload).toEqual(hintsOf(routes, '/deep/'));
    },
  );

  test('leaves out what a first load may skip; lists classic defer scripts; caps CSS and content images', async () => {
    const many = Array.from({ length: MAX_CSS_IMAGES + 3 }, (_, i) => `.i${i}{background:url(/img/b${i}.svg)}`).join(
      '',
    );
    const content = Array.from({ length: MAX_CONTENT_IMAGES + 2 }, (_, i) => `<img src="/img/c${i}.svg">`).join('');
    const root = await makeSite({
      'index.html':
        `<!doctype html><html><head><link rel="stylesheet" href="/a.css"><link rel="stylesheet" ` +
        `href="/print.css" media="print">
<script src="/sync.js"></script><script defer src="/defer.js"></script><script type="module" ` +
        `src="/m.js"></script><script type="module" src="/solo.js"></script><link rel="preload" href="/nope.js">` +
        `<object data="/obj.js"></object></head>
<body><img src="/img/lazy.svg" loading="lazy"><img srcset="/img/s1.svg 1x, /img/s2.svg 2x" src="/img/s1.svg"><video ` +
        `src="/v.mp4"></video>${content}</body></html>`,
      'a.css': many,
      'print.css': '@font-face{font-family:P;src:url(/p.woff2)}body{background:url(/img/print.svg)}',
      'p.woff2': 'font',
      'sync.js': 'var x = 1;',
      'defer.js': 'var y = 1;',
      // A dynamic import that runs on a click, not while the module loads: a first load skips it.
      'm.js': "import '/dep.js';\ndocument.addEventListener('click', () => import('/lazy.js'));\n",
      'dep.js': 'export {};',
      'lazy.js': 'export {};',
      'solo.js': 'export {};',
      // A preload without `as` (the browser fetches nothing) and an object: no script's mode, not announced.
      'nope.js': 'var n = 1;',
      'obj.js': 'var o = 1;',
      'v.mp4': 'video',
      ...Object.fromEntries(
        [
          'lazy',
          's1',
          's2',
          'print',
          ...Array.from({ length: MAX_CSS_IMAGES + 3 }, (_, i) => `b${i}`),
          ...Array.from({ length: MAX_CONTENT_IMAGES + 2 }, (_, i) => `c${i}`),
        ].map((n) => [`img/${n}.svg`, '<svg xmlns="http://www.w3.org/2000/svg"/>']),
      ),
    });
    const result = await build({ root, workerAssets: await fakeWorkerAssets() });
    const hints = hintsOf(await readRoutes(root), '/');
    // Module scripts are announced as modules, with imports or without; the classic defer script as a script
    // (for the warm page), but not to a host (the HTML names it).
    expect(hints.filter(([, as]) => as !== 'image')).toEqual([
      ['/a.css', 'style'],
      ['/sync.js', 'script'],
      ['/defer.js', 'script'],
      ['/m.js', 'module'],
      ['/dep.js', 'module'],
      ['/solo.js', 'module'],
      ['/objpack-register.js', 'script'],
    ]);
    expect(result.manifest.pages['/']!.earlyHints?.map(([u]) => u)).not.toContain('/defer.js');
    expect(result.manifest.pages['/']!.earlyHints?.map(([u]) => u)).toContain('/sync.js');
    const images = hints.filter(([, as]) => as === 'image').map(([u]) => u);
    expect(images.filter((u) => u.startsWith('/img/b'))).toEqual(
      Array.from({ length: MAX_CSS_IMAGES }, (_, i) => `/img/b${i}.svg`),
    );
    // Not lazy ones, not srcset candidates (the browser picks one), at most MAX_CONTENT_IMAGES.
    expect(images.filter((u) => !u.startsWith('/img/b'))).toEqual(
      Array.from({ length: MAX_CONTENT_IMAGES }, (_, i) => `/img/c${i}.svg`),
    );
  });

  test("a script is announced in its element's mode; one whose mode is not known (traced) is not", () => {
    const page = { url: '/', path: '/index.html', as: 'document', critical: true, from: '/' } as const;
    const chunk = { url: '/chunk.js', path: '/chunk.js', as: 'script', critical: false, from: '/' } as const;
    expect(preloadHints([page, { ...chunk, traced: true }], () => true)).toEqual([]);
    expect(preloadHints([page, { ...chunk, script: 'module' }], () => true)).toEqual([['/chunk.js', 'module']]);
    expect(preloadHints([page, { ...chunk, script: 'classic' }], () => true)).toEqual([['/chunk.js', 'script']]);
  });

  test("a route chunk a classic script loads is announced as a low-priority script, not a module's import", () => {
    const page = { url: '/', path: '/index.html', as: 'document', critical: true, from: '/' } as const;
    const main = {
      url: '/main.js',
      path: '/main.js',
      as: 'script',
      critical: false,
      from: '/',
      script: 'classic',
    } as const;
    const chunk = {
      url: '/1.js',
      path: '/1.js',
      as: 'script',
      critical: false,
      from: '/main.js',
      script: 'classic',
    } as const;
    expect(preloadHints([page, main, chunk], () => true)).toEqual([
      ['/main.js', 'script'],
      ['/1.js', 'chunk'],
    ]);
    // Not on a first visit, where it would compete with what the first paint needs (and the deferred
    // script itself the preload scanner finds in the HTML).
    expect(earlyHints([page, main, chunk], () => true)).toEqual([]);
  });

  test('pages share one entry per URL in the table', async () => {
    const page = '<!doctype html><link rel="stylesheet" href="/s.css"><p>x</p>';
    const root = await makeSite({
      'index.html': page,
      'b.html': page,
      's.css': '@import "/t.css";',
      't.css': 'p{color:red}',
    });
    await build({ root, workerAssets: await fakeWorkerAssets() });
    const routes = await readRoutes(root);
    expect(routes.preload?.urls).toEqual([
      ['/s.css', 'style'],
      ['/t.css', 'style'],
      ['/objpack-register.js', 'script'],
    ]);
    expect(hintsOf(routes, '/b.html')).toEqual(hintsOf(routes, '/'));
  });

  test('the registration snippet is announced on every page the build gives it; not with --no-inject', async () => {
    const root = await makeSite({
      'index.html': '<!doctype html><p>x</p>',
      'own.html': '<!doctype html><script src="/objpack-register.js" defer></script><p>y</p>',
    });
    await build({ root, workerAssets: await fakeWorkerAssets(), inject: false });
    const routes = await readRoutes(root);
    expect([hintsOf(routes, '/'), hintsOf(routes, '/own.html')]).toEqual([[], []]);
    await build({ root, workerAssets: await fakeWorkerAssets() });
    const injected = await readRoutes(root);
    expect([hintsOf(injected, '/'), hintsOf(injected, '/own.html')]).toEqual([
      [['/objpack-register.js', 'script']],
      [['/objpack-register.js', 'script']],
    ]);
  });

  test(
    'crossorigin elements (Vite output) get preloads in ' + 'their CORS mode; their module imports inherit it',
    async () => {
      const root = await makeSite({
        'index.html':
          `<!doctype html><html><head><link rel="stylesheet" crossorigin href="/a.css"><link ` +
          `rel="stylesheet" href="/plain.css">
<script type="module" crossorigin src="/m.js"></script><script type="module" crossorigin="use-credentials" ` +
          `src="/u.js"></script>
<script crossorigin="USE-credentials" src="/sync.js"></script></head><body><p>x</p><img crossorigin ` +
          `src="/c.png"></body></html>`,
        'c.png': 'png',
        'a.css': '@import "/imp.css";@font-face{font-family:F;src:url(/f.woff2)}body{font-family:F}',
        'imp.css': 'p{color:red}',
        'plain.css': 'p{margin:0}',
        'f.woff2': 'font',
        'm.js': "import '/dep.js';\n",
        'dep.js': "import '/deep.js';\n",
        'deep.js': 'export {};',
        'u.js': "import '/udep.js';\n",
        'udep.js': 'export {};',
        'sync.js': 'var x = 1;',
      });
      await build({ root, workerAssets: await fakeWorkerAssets() });
      const routes = await readRoutes(root);
      // The @import of a CORS sheet is an ordinary no-CORS request, and a font is CORS anyway.
      expect(hintsOf(routes, '/')).toEqual([
        ['/a.css', 'style', 'anonymous'],
        ['/imp.css', 'style'],
        ['/plain.css', 'style'],
        ['/sync.js', 'script', 'use-credentials'],
        ['/f.woff2', 'font'],
        ['/m.js', 'module', 'anonymous'],
        ['/dep.js', 'module', 'anonymous'],
        ['/deep.js', 'module', 'anonymous'],
        ['/u.js', 'module', 'use-credentials'],
        ['/udep.js', 'module', 'use-credentials'],
        ['/c.png', 'image', 'anonymous'],
        ['/objpack-register.js', 'script'],
      ]);
    },
  );

  test(
    'announce each object as the page spells its URL (Next.js escapes [ ] in chunk URLs): a preload of another ' +
      'spelling goes unused',
    async () => {
      const root = await makeSite({
        'index.html':
          '<!doctype html><link rel="stylesheet" href="/caf%c3%a9.css"><script ' +
          'src="/_next/static/chunks/pages/%5Bslug%5D-1a2b.js"></script>',
        'café.css': 'p{}',
        '_next/static/chunks/pages/[slug]-1a2b.js': '',
      });
      await build({ root, workerAssets: await fakeWorkerAssets() });
      // Chromium requests both as written; /caf%C3%A9.css or /[slug]-1a2b.js would be other URLs to it.
      expect(hintsOf(await readRoutes(root), '/').slice(0, 2)).toEqual([
        ['/caf%c3%a9.css', 'style'],
        ['/_next/static/chunks/pages/%5Bslug%5D-1a2b.js', 'script'],
      ]);
      expect(await readFile(path.join(root, '_headers'), 'utf8')).toContain(
        '</caf%c3%a9.css>; rel=preload; as=style, </_next/static/chunks/pages/%5Bslug%5D-1a2b.js>; ' +
          'rel=preload; as=script',
      );
    },
  );
});
