import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractHtml } from './html-extract.js';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/closure/', import.meta.url));
const refs = (html: string) => extractHtml(html).refs.map((r) => [r.k, r.v, r.line]);

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? htmlFiles(p) : /\.html?$/.test(name) ? [p] : [];
  });
}

describe('extractHtml', () => {
  it('reports the line of each tag, through CRLF and multi-line text', () => {
    const html =
      '<!doctype html>\r\n<title>t</title>\r\n<p>one\r\ntwo\nthree</p>\n<img src="a.png">\n\n<link\n ' +
      'rel="stylesheet"\n href="s.css">';
    expect(refs(html)).toEqual([
      ['img', 'a.png', 6],
      ['stylesheet', 's.css', 10], // a tag's line is the line where it ends
    ]);
  });

  it('ignores references inside template, noscript, comments, textarea, title and script text', () => {
    const html =
      `<template><img src="t.png"></template><noscript><img src="n.png"></noscript><!-- <img src="c.png"> ` +
      `-->
<textarea><img src="ta.png"></textarea><title><img src="ti.png"></title><script>document.write('<img ` +
      `src="s.png">')</script><img src="real.png">`;
    expect(refs(html)).toEqual([['img', 'real.png', 2]]);
  });

  it(
    'records the crossorigin state of stylesheets, preloads, scripts and images ' +
      '(https://html.spec.whatwg.org/#cors-settings-attributes)',
    () => {
      const r = extractHtml(
        `<link rel=stylesheet crossorigin href=/a.css><link rel=stylesheet href=/b.css><link ` +
          `rel=modulepreload crossorigin=use-credentials href=/p.js>
<link rel=preload as=font crossorigin=anonymous href=/f.woff2><script type=module crossorigin ` +
          `src=/m.js></script><script crossorigin=" Use-Credentials " src=/s.js></script>
<script type=module crossorigin=bogus src=/x.js></script><img crossorigin src=/i.png>`,
      ).refs;
      expect(r.map((x) => [x.v, x.cors])).toEqual([
        ['/a.css', 'anonymous'],
        ['/b.css', undefined],
        ['/p.js', 'use-credentials'],
        ['/f.woff2', 'anonymous'],
        ['/m.js', 'anonymous'],
        ['/s.js', 'use-credentials'],
        ['/x.js', 'anonymous'],
        ['/i.png', 'anonymous'],
      ]);
    },
  );

  it('applies the first <base href> to the references after it', () => {
    const x = extractHtml('<img src="before.png"><base href="/a/"><base href="/b/"><img src="after.png">');
    expect(x.refs.map((r) => [r.v, r.base])).toEqual([
      ['before.png', undefined],
      ['after.png', '/a/'],
    ]);
    // The document's base, for what its scripts resolve; none in a template.
    expect(x.base).toBe('/a/');
    expect(extractHtml('<template><base href="/t/"></template><img src="a.png">').base).toBeUndefined();
  });

  it('reads SVG href and xlink:href (href wins), and leaves SVG for HTML at breakout tags', () => {
    const html =
      '<svg><image xlink:href="x.png" href="h.png"/><use xlink:href="s.svg#a"/><use ' +
      'href="#local"/></svg><svg><p><img src="after.png"></svg>';
    expect(refs(html)).toEqual([
      ['svg-image', 'h.png', 1],
      ['svg-use', 's.svg#a', 1],
      ['img', 'after.png', 1],
    ]);
  });

  it('knows classic, deferred, async, module, nomodule and data-block scripts', () => {
    const html =
      `<script src="a.js"></script><script src="b.js" defer></script><script async src="c.js"></script>
<script type="module" src="m.js"></script><script nomodule src="legacy.js"></script><script type="text/template" ` +
      `src="t.js"></script>
<script type="module">import "./i.js"</script>`;
    const r = extractHtml(html).refs;
    expect(r.map((x) => [x.k, x.v])).toEqual([
      ['script', 'a.js'],
      ['script-defer', 'b.js'],
      ['script-async', 'c.js'],
      ['module', 'm.js'],
      ['module-inline', 'import "./i.js"'],
    ]);
  });

  it("takes an Astro island's modules from its attributes, lazy when it hydrates on view or on a media query", () => {
    const html =
      `<astro-island component-url="/_astro/Counter.js" renderer-url="/_astro/client.js" ` +
      `client="load"></astro-island>
<astro-island before-hydration-url="/_astro/before.js" component-url="/_astro/Clock.js" renderer-url="" ` +
      `client="visible"></astro-island>
<astro-island component-url="/_astro/Menu.js" client="media"></astro-island><template><astro-island ` +
      `component-url="/_astro/T.js"></astro-island></template>`;
    expect(extractHtml(html).refs.map((x) => [x.k, x.v, x.line, x.cond])).toEqual([
      ['island', '/_astro/Counter.js', 1, undefined],
      ['island', '/_astro/client.js', 1, undefined],
      ['island', '/_astro/before.js', 2, 'lazy'],
      ['island', '/_astro/Clock.js', 2, 'lazy'],
      ['island', '/_astro/Menu.js', 3, 'media-query'],
    ]);
  });

  it("collects the page's non-ASCII characters, literal or from character references, in text and attributes", () => {
    const chars = (html: string) => [...(extractHtml(html).chars ?? '')].sort();
    expect(chars('<p title="ASCII">plain &amp; simple</p>')).toEqual([]);
    expect(chars('<p>Привет</p><img alt="Ω">')).toEqual(
      [...'Привет', 'Ω'].filter((c, i, a) => a.indexOf(c) === i).sort(),
    );
    expect(chars('<p>&#x416; &mdash; &eacute;</p>')).toEqual(['Ж', '—', 'é'].sort());
    expect(chars('<p>😀</p>')).toEqual(['😀']);
    expect(chars('<input value="&#x416;" placeholder="&eacute;"><img alt="&Omega;" title="&#x3A9;&#x3A8;">')).toEqual(
      ['Ж', 'é', 'Ω'].sort(),
    );
  });

  it('counts tokenizer errors and keeps the first with its line', () => {
    const out = extractHtml('<p>\n<div <p class="x"" id=a id=b>\n<img src="ok.png">');
    expect(out.parseErrors).toBeGreaterThan(0);
    expect(out.firstError?.line).toBe(2);
    expect(out.refs.map((r) => r.v)).toContain('ok.png');
  });

  describe('the text fast path gives exactly what the plain tokenizer gives', () => {
    const same = (html: string) => expect(extractHtml(html)).toEqual(extractHtml(html, { exact: true }));

    it('on every fixture page', () => {
      const files = htmlFiles(FIXTURES);
      expect(files.length).toBeGreaterThan(15);
      for (const f of files) same(readFileSync(f, 'utf8'));
    });

    it('on tricky text: entities, CR/LF, NUL, controls, surrogates, noncharacters, script escapes, RCDATA', () => {
      same('a &amp; b &notin c &#x1F600; d\r\n\r e\0f\x01g\x7f\x85h 😀 i \uFDD0 j\uFFFF<img src="x.png">\n<p>x');
      same('<script><!-- if (a<b) { document.write("<script>x</script>") } --></script><img src="after.png">');
      same(
        '<script>a</scr\nipt></script ><img src="y.png"><title>t &lt; <img ' +
          'src="no.png"></title><textarea>\r\n<b></textarea>',
      );
      same(
        '<style>p{background:url(a.png)}\n</style  ><iframe><img src=no.png></iframe><xmp><img ' +
          'src=no.png></xmp><plaintext><img src=no.png>',
      );
      same(
        '<svg><style>.a{fill:url(#g)}</style><desc>text &amp; more</desc></svg><math><mi>x</mi></math><p>é ü ' +
          '中文 😀😀</p><img src="z.png">',
      );
    });

    it('on random documents built from markup fragments', () => {
      const piece = fc.constantFrom(
        '<img src="a.png">',
        '<p>',
        '</p>',
        'text ',
        '\n',
        '\r\n',
        '&amp;',
        '&',
        '<',
        '>',
        '😀',
        '\0',
        '\x0b',
        '<script>',
        '</script>',
        '<style>',
        '</style>',
        '<!--',
        '-->',
        '<title>',
        '</title>',
        '<svg>',
        '</svg>',
        '<template>',
        '</template>',
        '<a href="x.html">',
        '"',
        "'",
        '<base href="/b/">',
        '<link rel=stylesheet href=s.css>',
        '<textarea>',
        '</textarea>',
        'é',
        '\t',
        '<!doctype html>',
        '<noscript>',
        '</noscript>',
      );
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
          const html = pieces.join('');
          expect(extractHtml(html)).toEqual(extractHtml(html, { exact: true }));
        }),
        { numRuns: 400 },
      );
    });
  });
});
