import { describe, expect, it } from 'vitest';
import { extractCss } from './css-extract.js';
import { extractJs, jsReady } from './js-extract.js';

describe('extractCss', () => {
  it('finds imports, fonts and url()s with lines, skipping comments, strings and @namespace', () => {
    const css =
      `@import "a.css";\n@import url(b.css) print;\n@namespace svg url(http://www.w3.org/2000/svg);\n/* ` +
      `url(c.png) */\n.x::before { content: "url(d.png)" }\n.y { background: url( 'e.png' ) , url(f\\).png) }`;
    const out = extractCss(css);
    expect(out.refs).toEqual([
      { k: 'import', v: 'a.css', line: 1 },
      { k: 'import', v: 'b.css', line: 2, media: 'print' },
      { k: 'image', v: 'e.png', line: 6 },
      { k: 'image', v: 'f).png', line: 6 },
    ]);
    expect(out.parseErrors).toBe(0);
  });
  it('picks the @font-face source Chromium loads, keeping supported fallbacks', () => {
    const out = extractCss(
      '@font-face { src: url(a.eot) format("embedded-opentype"), local(X), url(b.woff2) format("woff2"), ' +
        'url(c.svg) format("svg"), url(d.woff) format(woff) }',
    );
    expect(out.refs).toEqual([{ k: 'font', v: 'b.woff2', line: 1, alts: ['d.woff'] }]);
  });
  it(
    "gives each @font-face source its face's valid unicode-range, " +
      'and records the characters content strings render',
    () => {
      const out = extractCss(
        [
          '@font-face { unicode-range: U+0000-00FF, U+0131; src: url(latin.woff2) }',
          '@font-face { src: url(cyr.woff2); unicode-range: U+04?? }',
          '@font-face { src: url(all.woff2); unicode-range: U+00FF-0000 }',
          '@font-face { src: url(plain.woff2) }',
          '.next::after { content: " \\2192 Ж" } q { quotes: "«" "»" } .x { font-family: "Ünïcode" }',
        ].join('\n'),
      );
      expect(out.refs).toEqual([
        {
          k: 'font',
          v: 'latin.woff2',
          line: 1,
          range: [
            [0, 0xff],
            [0x131, 0x131],
          ],
        },
        { k: 'font', v: 'cyr.woff2', line: 2, range: [[0x400, 0x4ff]] },
        { k: 'font', v: 'all.woff2', line: 3 },
        { k: 'font', v: 'plain.woff2', line: 4 },
      ]);
      expect([...(out.chars ?? '')].sort()).toEqual(['«', '»', 'Ж', '→', 'Ü', 'ï'].sort());
    },
  );
  it('takes a unicode-range only as Chromium does: `range (, range)*`, not !important, within U+10FFFF', () => {
    const range = (value: string) =>
      extractCss(`@font-face { src: url(f.woff2); unicode-range: ${value} }`).refs[0]?.range;
    expect(range('U+0400-045F, U+0500')).toEqual([
      [0x400, 0x45f],
      [0x500, 0x500],
    ]);
    for (const bad of [
      'U+0400-045F,',
      ', U+0400-045F',
      'U+0400,,U+0500',
      'U+0400-045F U+0500',
      'U+0400-045F !important',
      'U+10FFFF-1FFFFF',
      'U+0400 x',
    ]) {
      expect(range(bad), bad).toBeUndefined();
    }
    // A later invalid descriptor leaves the earlier valid one in force.
    expect(
      extractCss('@font-face { src: url(f.woff2); unicode-range: U+0400; unicode-range: U+0500 !important }').refs[0]
        ?.range,
    ).toEqual([[0x400, 0x400]]);
  });
  it(
    'records characters a sheet can render from any string, ' +
      'custom properties (escapes decoded) and @counter-style',
    () => {
      const out = extractCss(
        ':root { --copied: "Скопировано"; --arrow: "\\2192" } ul { list-style-type: "✓ " } @counter-style d { ' +
          'symbols: "◆" }',
      );
      expect([...(out.chars ?? '')].sort()).toEqual([...new Set('Скопировано→✓◆')].sort());
      // Strings for pages in another language count for those pages' own text only.
      expect(
        extractCss(':lang(ru) { --copied: "Скопировано" } :lang(zh) .x::after { content: "已复制" }').chars,
      ).toBeUndefined();
    },
  );
  it('reads image-set() strings and urls as candidates; those for another density are marked', () => {
    const out = extractCss('.a { background-image: image-set("a.png" 1x, url(b.png) 2x type("image/png")); }');
    expect(out.refs.map((r) => [r.v, r.cond])).toEqual([
      ['a.png', 'srcset-candidate'],
      ['b.png', 'other-density'],
    ]);
    const cond = (set: string) =>
      extractCss(`.a { background-image: image-set(${set}); }`).refs.map((r) => `${r.v} ${r.cond}`);
    expect(cond('url(h.png) 2x, url(l.png) 0.5x')).toEqual(['h.png srcset-candidate', 'l.png other-density']);
    expect(cond('url(a.jxl) 1x type("image/jxl"), url(a.png) 1x')).toEqual([
      'a.jxl other-density',
      'a.png srcset-candidate',
    ]);
    expect(cond('"a.png" 96dpi, "b.png" 2dppx')).toEqual(['a.png srcset-candidate', 'b.png other-density']);
    // A set this cannot read keeps every candidate.
    expect(cond('linear-gradient(red, blue) 1x, url(b.png) 2x')).toEqual(['b.png srcset-candidate']);
  });
  it('parses style attributes as declaration lists and counts errors without giving up', () => {
    expect(extractCss("background: url('x.png'); color: red", true).refs).toEqual([
      { k: 'image', v: 'x.png', line: 1 },
    ]);
    const bad = extractCss('.a { color: @@@; }\n.b { background: url(ok.png) }');
    expect(bad.parseErrors).toBe(1);
    expect(bad.refs.map((r) => r.v)).toEqual(['ok.png']);
  });
});

describe('extractJs', () => {
  it(
    'finds static, re-export and literal dynamic imports ' + 'with lines; skips computed, import.meta and type-only',
    async () => {
      await jsReady;
      const src =
        `import a from './a.js';\nexport * from "./b.js";\nexport { c } from './c.js';\nimport type { T } ` +
        `from './t.js';\nconst m = await import('./d.js');\nimport(x);\nimport.meta.url;\nimport('./e' + x);`;
      expect(extractJs(src).refs).toEqual([
        { v: './a.js', line: 1, dynamic: false },
        { v: './b.js', line: 2, dynamic: false },
        { v: './c.js', line: 3, dynamic: false },
        { v: './d.js', line: 5, dynamic: true, eager: true },
      ]);
    },
  );
  it('marks the dynamic imports that run while the module loads: outside functions, or in an IIFE', async () => {
    await jsReady;
    const src = [
      "import('./top.js');",
      "if (location.hash) await import('./cond.js');",
      "(async () => { await import('./iife.js'); })();",
      "button.onclick = () => import('./click.js');",
      "export function search() { return import('./search.js'); }",
      "const Box = defineAsyncComponent(() => import('./box.js'));",
    ].join('\n');
    expect(extractJs(src).refs.map((r) => [r.v, r.eager === true])).toEqual([
      ['./top.js', true],
      ['./cond.js', true],
      ['./iife.js', true],
      ['./click.js', false],
      ['./search.js', false],
      ['./box.js', false],
    ]);
    // A module acorn cannot parse: every dynamic import counts as running on load.
    expect(extractJs("import('./a.js'); x = () => import('./b.js'); #!bad").refs.every((r) => r.eager)).toBe(true);
  });
  it('reports a syntax error with its line', async () => {
    await jsReady;
    expect(extractJs('const a = 1;\nimport {').error?.line).toBe(2);
  });
});
