import { describe, expect, it } from 'vitest';
import { extractCss } from './css-extract.js';

/** The font files one @font-face block yields: [downloaded first, ...fallbacks], or [] for none. */
const face = (block: string): string[] => {
  const ref = extractCss(`@font-face { font-family: F; ${block} }`).refs.find((r) => r.k === 'font');
  return ref ? [ref.v, ...(ref.alts ?? [])] : [];
};

describe('@font-face source choice (CSS Fonts 4 src parsing, browsers with service workers)', () => {
  it('takes the last src of the bulletproof pattern, and in it the first supported format', () => {
    const bulletproof = `src: url(x.eot);
      src: url(x.eot?#iefix) format('embedded-opentype'), url(x.woff2) format('woff2'), url(x.woff) format('woff'),
        url(x.ttf) format('truetype'), url(x.svg#x) format('svg');`;
    expect(face(bulletproof)).toEqual(['x.woff2', 'x.woff', 'x.ttf']);
    const ref = extractCss(`@font-face {\n${bulletproof}\n}`).refs;
    expect(ref).toEqual([{ k: 'font', v: 'x.woff2', alts: ['x.woff', 'x.ttf'], line: 3 }]);
  });

  it('keeps an earlier src when a later one is invalid (no source a browser supports)', () => {
    expect(face("src: url(a.woff2) format('woff2'); src: url(a.eot) format('embedded-opentype')")).toEqual(['a.woff2']);
    expect(face("src: url(a.woff2); src: url(a.svg#f) format('svg'), url(b.woff2) garbage")).toEqual(['a.woff2']);
    expect(face('src: url(a.woff2); src: url(b.woff2) !important')).toEqual(['a.woff2']);
    // A valid later src replaces it, even one of local() fonts only: then nothing is downloaded.
    expect(face('src: url(a.woff2); src: url(b.woff)')).toEqual(['b.woff']);
    expect(face('src: url(a.woff2); src: local(Foo Sans), local("Foo")')).toEqual([]);
  });

  it('reads format() as the spec does: one string or keyword; unknown keywords and lists drop the source', () => {
    expect(face('src: url(a.ttf) format(opentype, truetype), url(b.woff2)')).toEqual(['b.woff2']);
    expect(face('src: url(a.ttf) format(xyzzy), url(b.woff2)')).toEqual(['b.woff2']);
    expect(face('src: url(a.ttf) format(), url(b.woff2)')).toEqual(['b.woff2']);
    expect(face('src: url(a.ttc) format(collection), url(b.woff2) format(woff2)')).toEqual(['b.woff2']);
    expect(face('src: url(a.ttf) format("woff2-variations"), url(b.woff2)')).toEqual(['a.ttf', 'b.woff2']);
    expect(face('src: url(a.woff) format(WOFF)')).toEqual(['a.woff']);
  });

  it('reads tech(): a source needing a technology Chromium lacks is skipped', () => {
    expect(face('src: url(a.otf) format(opentype) tech(color-SVG), url(b.otf) format(opentype)')).toEqual(['b.otf']);
    expect(face('src: url(a.otf) tech(color-COLRv1, variations), url(b.otf)')).toEqual(['a.otf', 'b.otf']);
    expect(face('src: url(a.otf) tech(incremental), url(b.otf)')).toEqual(['b.otf']);
    expect(face('src: url(a.otf) tech(), url(b.otf)')).toEqual(['b.otf']);
  });

  it('judges a source without a format hint by its extension: never eot or svg fonts', () => {
    expect(face('src: url(a.eot), url(b.woff)')).toEqual(['b.woff']);
    expect(face('src: url(a.svg#f), url(b.ttf)')).toEqual(['b.ttf']);
    expect(face('src: url(a.EOT?v=2), url(b.woff2?v=2)')).toEqual(['b.woff2?v=2']);
    expect(face('src: url(font-file), url(b.woff2)')).toEqual(['font-file', 'b.woff2']);
  });

  it("records the face's family and whether it is slanted", () => {
    const [ref] = extractCss('@font-face { font-family: "Inter Var"; font-style: italic; src: url(i.woff2) }').refs;
    expect(ref).toMatchObject({ v: 'i.woff2', family: 'inter var', slanted: true });
    expect(
      extractCss('@font-face { font-family: Inter Var; font-style: oblique 10deg; src: url(o.woff2) }').refs[0],
    ).toMatchObject({ family: 'inter var', slanted: true });
    expect(
      extractCss('@font-face { font-family: Inter; font-style: normal; src: url(n.woff2) }').refs[0]?.slanted,
    ).toBeUndefined();
  });

  it('records selectors of rules that make text italic or oblique', () => {
    const out = extractCss(
      'em, .quote { font-style: italic } .x { font: oblique 12px serif } ' +
        '.y { font-style: var(--s) } .z { font-style: normal }',
    );
    expect(out.slanted).toEqual(['em, .quote', '.x', '.y']);
  });
});
