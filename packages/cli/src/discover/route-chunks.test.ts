import { rmSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'acorn';
import { describe, expect, it } from 'vitest';
import { discoverSite, pageClosure } from './discover-site.js';
import { extractClassic } from './classic-extract.js';
import { readRoutes, routeChunkIds } from './docusaurus-routes.js';
import { tempSite } from '../test-utils/temp-site.js';
import type { DiscoverCache } from './types.js';
import { chunkFile, readRuntime } from './webpack-runtime.js';

const ast = (code: string) => parse(code, { ecmaVersion: 'latest', sourceType: 'script' });

describe('extractClassic', () => {
  it('says nothing of a script too deep to walk, and never throws', () => {
    const deep = `r.u=e=>e+".js";r.p="/";var x=${Array.from({ length: 4000 }, () => '"a"').join('+')};`;
    expect(extractClassic(deep)).toEqual({}); // acorn parses it; a walk of 4,000 nested + runs out of stack
    expect(extractClassic('r.u=e=>e+".js";r.p="/"; this is not javascript')).toEqual({});
  });
});

describe('readRuntime', () => {
  it("evaluates webpack's minified chunk file names: a name map with the id as fallback, a hash map", () => {
    const runtime = readRuntime(
      ast(`(()=>{var r={};r.u=e=>"assets/js/"+({48:"a94703ab",76:"common"}[e]||e)+"."+
        {48:"0e13",76:"f07b",130:"0e36"}[e]+".js",r.p="/repo/"})()`),
    );
    expect(runtime?.publicPath).toBe('/repo/');
    expect(chunkFile(runtime!, '48')).toBe('assets/js/a94703ab.0e13.js');
    expect(chunkFile(runtime!, '130')).toBe('assets/js/130.0e36.js');
    // The entry's own chunk is in no map: the runtime never loads it by URL.
    expect(chunkFile(runtime!, '869')).toBeUndefined();
  });

  it('reads a function with a block body and template literals (unminified webpack, Rspack)', () => {
    const runtime = readRuntime(
      ast(`__webpack_require__.u = function (chunkId) {
          return \`static/js/async/\${chunkId}.\${{"1": "ab"}[chunkId]}.js\`;
        };
        __webpack_require__.p = "https://cdn.example/";`),
    );
    expect(runtime?.publicPath).toBe('https://cdn.example/');
    expect(chunkFile(runtime!, '1')).toBe('static/js/async/1.ab.js');
  });

  it("reads Rspack's form (Docusaurus Faster): parenthesized maps, the name map's fallback", () => {
    const runtime = readRuntime(
      ast(`d.u=e=>"assets/js/"+(({106:"17896441",5:"common"})[e]||e)+"."+({106:"32f6",5:"729d",62:"857f"})[e]+".js",
        d.p="/"`),
    );
    expect(['106', '5', '62', '1'].map((id) => chunkFile(runtime!, id))).toEqual([
      'assets/js/17896441.32f6.js',
      'assets/js/common.729d.js',
      'assets/js/62.857f.js',
      undefined,
    ]);
  });

  it('reads no runtime when the public path is computed or the name function does more than look up', () => {
    expect(readRuntime(ast(`r.u=e=>e+".js";r.p=document.currentScript.src`))).toBeUndefined();
    expect(readRuntime(ast(`r.u=e=>f(e)+".js";r.p="/"`))).toBeUndefined();
    expect(readRuntime(ast(`r.u=e=>e+".js";s.p="/"`))).toBeUndefined(); // not the same object
  });
});

/** A minified Docusaurus main bundle's three parts: registry, route chunk names, routes; and the 404 loader. */
const MAIN = `(()=>{
  var reg={a1:[()=>Promise.all([n.e(1),n.e(9)]).then(()=>n(5)),"@theme/Layout",5],
    b2:[()=>n.e(2).then(()=>n(6)),"@site/docs/a.md",6],
    c3:[()=>n.e(3).then(()=>n(7)),"@site/docs/b.md",7],
    d4:[()=>n.e(4).then(()=>n(8)),"@site/src/pages/guide.md",8]};
  var names=JSON.parse('{"/docs-aaa":{"__comp":"a1"},"/docs/a-bbb":{"__comp":"a1","content":"b2"},\
"/docs/b-ccc":{"__comp":"a1","items":[{"content":"c3"}]},"/guide-ddd":{"__comp":"d4"}}');
  function f(e,t){if("*"===e)return L({loader:()=>n.e(404).then(()=>n(1)),modules:["@theme/NotFound"]});
    return C(names[e+"-"+t])}
  var routes=[{path:"/guide",component:f("/guide","ddd"),exact:!0},
    {path:"/docs",component:f("/docs","aaa"),routes:[
      {path:"/docs/a",component:f("/docs/a","bbb"),exact:!0},
      {path:"/docs/b",component:f("/docs/b","ccc"),exact:!0}]},
    {path:"*",component:f("*")}];
})()`;

describe('Docusaurus route table', () => {
  const table = readRoutes(ast(MAIN))!;

  it('takes the catch-all\'s chunks from ComponentCreator\'s NotFound branch only, not another `"*"` test', () => {
    const vendor = 'function g(a){return "*"===a?n.e(77):null}var routes=';
    expect(readRoutes(ast(MAIN.replace('var routes=', vendor)))?.notFound).toEqual(['404']);
    const unnamed = MAIN.replace(',modules:["@theme/NotFound"]', '');
    expect(readRoutes(ast(unnamed.replace('var routes=', vendor)))?.notFound).toEqual([]);
  });

  it('reads the routes, their chunk names (nested ones too) and the registry', () => {
    expect(table.routes.map((r) => r.path)).toEqual(['/guide', '/docs', '*']);
    expect(table.routes[1]?.routes?.map((r) => r.key)).toEqual(['/docs/a-bbb', '/docs/b-ccc']);
    expect(table.chunkNames['/docs/b-ccc']).toEqual(['a1', 'c3']);
    expect(table.registry.a1).toEqual(['1', '9']);
    expect(table.notFound).toEqual(['404']);
  });

  it("matches as react-router does: a parent's prefix, exact children, an optional slash, any case", () => {
    expect(routeChunkIds(table, '/docs/a/')).toEqual(['1', '9', '2']);
    expect(routeChunkIds(table, '/DOCS/b')).toEqual(['1', '9', '3']);
    // A parent route matches its prefix even when no child does; the catch-all is not reached then.
    expect(routeChunkIds(table, '/docs/c')).toEqual(['1', '9']);
    expect(routeChunkIds(table, '/docsx')).toEqual(['404']);
    expect(routeChunkIds(table, '/guide/extra')).toEqual(['404']);
  });
});

const t = tempSite('objpack-route-chunks-');

/** A Docusaurus-like site: runtime and main as deferred classic scripts, chunk files under /js/. */
function writeSite(main = MAIN, publicPath = '/') {
  const page = (title: string) =>
    `<!doctype html><title>${title}</title><script src="/js/runtime.js" defer></script>` +
    `<script src="/js/main.js" defer></script><p>${title}</p>`;
  t.write('docs/a/index.html', page('a'));
  t.write('docs/b/index.html', page('b'));
  t.write('guide.html', page('guide'));
  t.write('404.html', page('404'));
  t.write(
    'js/runtime.js',
    `(()=>{var r={};r.u=e=>"js/"+({1:"layout",2:"docs-a",3:"docs-b",4:"guide"}[e]||e)+".js",` +
      `r.p=${JSON.stringify(publicPath)}})()`,
  );
  t.write('js/main.js', main);
  for (const f of ['layout', 'docs-a', 'docs-b', 'guide', '9', '404']) t.write(`js/${f}.js`, `/* ${f} */`);
}

describe('route chunks in closures', () => {
  const chunks = (g: Awaited<ReturnType<typeof discoverSite>>, page: string) =>
    pageClosure(g, page)!.items.filter((i) => i.from === '/js/main.js');

  it('puts the chunks a page loads into its critical tier, after its own objects, as classic scripts', async () => {
    writeSite();
    const g = await discoverSite(t.site);
    const a = pageClosure(g, '/docs/a/')!;
    expect(a.items.map((i) => i.url)).toEqual([
      '/docs/a/',
      '/js/runtime.js',
      '/js/main.js',
      '/js/layout.js',
      '/js/9.js',
      '/js/docs-a.js',
    ]);
    expect(chunks(g, '/docs/a/')[0]).toEqual({
      url: '/js/layout.js',
      path: '/js/layout.js',
      as: 'script',
      critical: false,
      from: '/js/main.js',
      script: 'classic',
    });
    expect(chunks(g, '/404.html').map((i) => i.url)).toEqual(['/js/404.js']);
    expect(g.diagnostics).toEqual([]);
  });

  it('matches a page written as guide.html at the clean URL a host serves it at, also under a parent', async () => {
    writeSite();
    t.write(
      'docs/b.html',
      '<!doctype html><script src="/js/runtime.js" defer></script><script src="/js/main.js" defer></script>',
    );
    const g = await discoverSite(t.site);
    expect(chunks(g, '/guide.html').map((i) => i.url)).toEqual(['/js/guide.js']);
    expect(chunks(g, '/docs/b.html').map((i) => i.url)).toEqual(['/js/layout.js', '/js/9.js', '/js/docs-b.js']);
  });

  it('takes the routes of the decoded path as well, as Docusaurus does', async () => {
    writeSite(
      MAIN.replace('/guide-ddd', '/café-ddd').replace(
        '{path:"/guide",component:f("/guide"',
        '{path:"/café",component:f("/café"',
      ),
    );
    t.write(
      'café/index.html',
      '<!doctype html><script src="/js/runtime.js" defer></script><script src="/js/main.js" defer></script>',
    );
    const g = await discoverSite(t.site);
    // The encoded path takes `*`, the decoded one the page's route: Docusaurus preloads both.
    expect(chunks(g, '/caf%C3%A9/').map((i) => i.url)).toEqual(['/js/404.js', '/js/guide.js']);
  });

  it("resolves a relative public path against the document's <base href>, as the browser sets `src`", async () => {
    writeSite(MAIN, '');
    const head = (base: string) =>
      `<!doctype html>${base}<script src="/js/runtime.js" defer></script><script src="/js/main.js" defer></script>`;
    t.write('docs/a/index.html', head('<base href="/">'));
    // Without a base the chunks are under the page's directory, where the site has none: left out, as 404s.
    t.write('docs/b/index.html', head(''));
    const g = await discoverSite(t.site);
    expect(chunks(g, '/docs/a/').map((i) => i.url)).toEqual(['/js/layout.js', '/js/9.js', '/js/docs-a.js']);
    expect(chunks(g, '/docs/b/')).toEqual([]);
  });

  it("uses the runtime whose chunk files the site has, not a third-party bundle's before it", async () => {
    writeSite();
    t.write('js/widget.js', '(()=>{var w={};w.u=e=>"widget/"+e+".js",w.p="/"})()');
    t.write(
      'docs/a/index.html',
      '<!doctype html><script src="/js/widget.js" defer></script>' +
        '<script src="/js/runtime.js" defer></script><script src="/js/main.js" defer></script>',
    );
    const g = await discoverSite(t.site);
    expect(chunks(g, '/docs/a/').map((i) => i.url)).toEqual(['/js/layout.js', '/js/9.js', '/js/docs-a.js']);
  });

  it('leaves out a chunk whose file is missing, and names the host of chunks on another origin', async () => {
    writeSite();
    rmSync(path.join(t.site, 'js/docs-b.js'));
    const g = await discoverSite(t.site);
    expect(chunks(g, '/docs/b/').map((i) => i.url)).toEqual(['/js/layout.js', '/js/9.js']);

    writeSite(MAIN, 'https://cdn.example/site/');
    const cdn = await discoverSite(t.site);
    expect(chunks(cdn, '/docs/a/')).toEqual([]);
    expect(pageClosure(cdn, '/docs/a/')!.crossOrigin).toEqual(['cdn.example']);
  });

  it('reads nothing from classic scripts that are not a webpack runtime and route table', async () => {
    writeSite(MAIN.replace('var routes=', 'var notRoutes=0,x=').replace(/component:f\(/g, 'c:f('));
    const g = await discoverSite(t.site);
    expect(chunks(g, '/docs/a/')).toEqual([]);
  });

  it('rebuilds a cached closure when the route table changes', async () => {
    const map = new Map<string, unknown>();
    const cache: DiscoverCache = { get: (k) => map.get(k), set: (k, v) => void map.set(k, v) };
    writeSite();
    expect(chunks(await discoverSite(t.site, { cache }), '/guide.html').map((i) => i.url)).toEqual(['/js/guide.js']);
    // Only the bundle changes: the pages' own cache entries stay valid.
    t.write('js/main.js', MAIN.replace('n.e(4).then', 'Promise.all([n.e(2),n.e(4)]).then'));
    expect(chunks(await discoverSite(t.site, { cache }), '/guide.html').map((i) => i.url)).toEqual([
      '/js/docs-a.js',
      '/js/guide.js',
    ]);
  });
});
