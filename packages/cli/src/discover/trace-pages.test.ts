import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSite } from './discover-site.js';
import { serveFiles } from './static-server.js';
import { chromiumPath, samplePages, tracePages } from './trace-pages.js';
import type { PageClosure } from './types.js';

const JS_MODULES = fileURLToPath(new URL('../../../../fixtures/closure/js-modules/site', import.meta.url));
const DOCUSAURUS = fileURLToPath(new URL('../../../../fixtures/closure/gen-docusaurus/', import.meta.url));

describe('samplePages', () => {
  const pages = Array.from({ length: 10 }, (_, i) => ({ url: `/p${i}.html` }) as PageClosure);
  it('spreads a sample evenly and deterministically', () => {
    expect(samplePages(pages, 3).map((p) => p.url)).toEqual(['/p0.html', '/p3.html', '/p6.html']);
    expect(samplePages(pages, undefined)).toHaveLength(10);
    expect(samplePages(pages, 50)).toHaveLength(10);
    expect(samplePages(pages, 0)).toEqual([]);
  });
});

const chromium = chromiumPath();
if (!chromium)
  console.warn('⚠ SKIPPING tracePages tests: Chromium not found (set OBJPACK_CHROMIUM or apt install chromium)');

describe.skipIf(!chromium)('tracePages in Chromium', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'objpack-trace-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the module a computed import() loads, which static analysis missed', async () => {
    const graph = await discoverSite(JS_MODULES);
    expect(graph.pages[0]?.items.some((i) => i.url === '/js/computed.js')).toBe(false);
    const { added, missedByStatic } = await tracePages(JS_MODULES, graph, {});
    expect(missedByStatic).toEqual([{ page: '/', url: '/js/computed.js' }]);
    expect(added.get('/')).toEqual([
      { url: '/js/computed.js', path: '/js/computed.js', as: 'script', critical: false, from: '/', traced: true },
    ]);
  });

  it(
    'finds exactly the webpack route chunks real Docusaurus ' + "output loads by computed URL (the oracle's list)",
    async () => {
      const expected = JSON.parse(readFileSync(path.join(DOCUSAURUS, 'expected.json'), 'utf8')) as {
        oracle: { browserOnly: Array<{ page: string; url: string }> };
      };
      const graph = await discoverSite(path.join(DOCUSAURUS, 'site'));
      const { missedByStatic, added } = await tracePages(path.join(DOCUSAURUS, 'site'), graph, {});
      const key = (e: { page: string; url: string }) => `${e.page} ${e.url}`;
      expect(missedByStatic.map(key).sort()).toEqual(expected.oracle.browserOnly.map(key).sort());
      for (const [page, items] of added)
        for (const item of items) expect(item, `${page} ${item.url}`).toMatchObject({ as: 'script', traced: true });
    },
  );

  it(
    "finds fetch() of computed URLs and script-set images (not the iframe's), on an already-running server; " +
      '404s are missed, not added',
    async () => {
      const site = path.join(dir, 'site');
      mkdirSync(path.join(site, 'data'), { recursive: true });
      writeFileSync(
        path.join(site, 'index.html'),
        `<!doctype html><title>t</title><img src="static.png" alt="">
<script>
  const day = ['mon', 'tue'][1];
  fetch('/data/' + day + '.json');
  const img = new Image(); img.src = '/dyn-' + 'image.png';
  fetch('/data/absent-' + day + '.json');
</script>
<iframe src="other.html"></iframe>`,
      );
      for (const f of ['static.png', 'dyn-image.png', 'data/tue.json', 'data/mon.json'])
        writeFileSync(path.join(site, f), 'x');
      // The iframe's own computed fetch belongs to other.html's closure, not to the page that frames it.
      writeFileSync(path.join(site, 'other.html'), "<p>other<script>fetch('/data/' + 'mon.json')</script>");
      const graph = await discoverSite(site);
      const server = await serveFiles(graph.files);
      try {
        const { added, missedByStatic } = await tracePages(site, graph, { serveUrl: server.origin, sample: 1 });
        expect(missedByStatic.map((m) => m.url).sort()).toEqual([
          '/data/absent-tue.json',
          '/data/tue.json',
          '/dyn-image.png',
        ]);
        expect(
          added
            .get('/')
            ?.map((i) => [i.url, i.as])
            .sort(),
        ).toEqual([
          ['/data/tue.json', 'fetch'],
          ['/dyn-image.png', 'image'],
        ]);
        expect(added.has('/other.html')).toBe(false);
      } finally {
        await server.close();
      }
    },
  );
});
