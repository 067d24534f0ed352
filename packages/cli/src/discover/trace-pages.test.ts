import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    'misses nothing on real Docusaurus output, whose route chunks discovery now reads from the bundle; finds ' +
      'them by their requests when discovery has not',
    async () => {
      const site = path.join(DOCUSAURUS, 'site');
      const graph = await discoverSite(site);
      const routeChunk = (i: { as: string; from: string }) =>
        i.as === 'script' && /\/main\.[0-9a-f]+\.js$/.test(i.from);
      const dropped = graph.pages.flatMap((p) => p.items.filter(routeChunk).map((i) => `${p.url} ${i.url}`));
      expect(dropped.length).toBeGreaterThan(20);
      expect((await tracePages(site, graph, {})).missedByStatic).toEqual([]);

      // The same graph without them, as discovery had it before it read route tables: the trace finds each one.
      const without = {
        ...graph,
        pages: graph.pages.map((p) => ({ ...p, items: p.items.filter((i) => !routeChunk(i)) })),
      };
      const { missedByStatic, added } = await tracePages(site, without, {});
      expect(missedByStatic.map((e) => `${e.page} ${e.url}`).sort()).toEqual(dropped.sort());
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
