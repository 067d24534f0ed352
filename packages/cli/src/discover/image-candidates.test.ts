import { describe, expect, it } from 'vitest';
import { extractHtml } from './html-extract.js';
import { pickCandidate, sourceSize } from './image-candidates.js';

describe('image candidates on the reference display (1280 CSS px, pixel ratio 1)', () => {
  it('picks the lowest density at or above 1x, the src counting as 1x', () => {
    expect(pickCandidate('a.png 2x, b.png 3x', { src: 'a1.png' })).toBe('a1.png');
    expect(pickCandidate('a.png 1x, b.png 2x', { src: 'c.png' })).toBe('a.png');
    expect(pickCandidate('a.png 1.5x, b.png 2x')).toBe('a.png');
    expect(pickCandidate('a.png 0.5x, b.png 0.75x')).toBe('b.png');
    expect(pickCandidate('a.png')).toBe('a.png');
  });

  it('turns width descriptors into densities with the slot width from sizes', () => {
    expect(
      pickCandidate('s.jpg 400w, m.jpg 800w, l.jpg 1600w', { src: 's.jpg', sizes: '(max-width: 800px) 100vw, 800px' }),
    ).toBe('m.jpg');
    expect(pickCandidate('s.jpg 640w, l.jpg 1280w', { sizes: '(max-width: 640px) 100vw, 640px' })).toBe('s.jpg');
    // No sizes: 100vw, the whole 1280 px.
    expect(pickCandidate('s.jpg 640w, l.jpg 1280w, xl.jpg 2560w')).toBe('l.jpg');
    expect(pickCandidate('s.jpg 640w, l.jpg 1000w')).toBe('l.jpg');
  });

  it('answers "unknown" where it cannot read sizes as a browser would', () => {
    for (const sizes of ['calc(100vw - 2rem)', 'auto', '(orientation: portrait) 50vw, 100vw', '50%']) {
      expect(pickCandidate('s.jpg 400w, l.jpg 800w', { sizes }), sizes).toBeUndefined();
    }
  });

  it('evaluates width media conditions in order, em and rem at 16 px', () => {
    expect(sourceSize('(min-width: 1024px) 50vw, 100vw')).toBe(640);
    expect(sourceSize('(max-width: 40em) 100vw, (min-width: 70rem) 33vw, 640px')).toBe(1280 * 0.33);
    expect(sourceSize('screen and (min-width: 600px) and (max-width: 1300px) 300px, 10px')).toBe(300);
    expect(sourceSize('(max-width: 100px) 10px')).toBe(1280);
  });
});

describe('extractHtml: what a first load fetches', () => {
  it('marks srcset candidates the reference display does not pick, and the src when it is one', () => {
    const { refs } = extractHtml(
      '<img src="a.png" srcset="a.png 1x, a2.png 2x"><img src="s.jpg" srcset="s.jpg 400w, m.jpg 800w" sizes="800px">',
    );
    expect(refs.map((r) => [r.k, r.cond, r.pick])).toEqual([
      ['srcset', 'srcset-candidate', 'a.png'],
      ['img', 'srcset-candidate', undefined],
      ['srcset', 'srcset-candidate', 'm.jpg'],
      ['img', 'other-density', undefined],
    ]);
  });

  it('picks within <picture> the first source whose type and media fit, else the img', () => {
    const refs = (html: string) => extractHtml(html).refs.map((r) => [r.v, r.cond, r.pick]);
    const sources =
      '<source srcset="a.jxl" type="image/jxl">' +
      '<source srcset="w.png 1x, w2.png 2x" media="(min-width: 900px)"><source srcset="n.png">';
    expect(refs(`<picture>${sources}<img src="f.png"></picture>`)).toEqual([
      ['a.jxl', 'srcset-candidate', ''],
      ['w.png 1x, w2.png 2x', 'srcset-candidate', 'w.png'],
      ['n.png', 'srcset-candidate', ''],
      ['f.png', 'other-density', undefined],
    ]);
    // No source fits: the img's own candidates decide.
    expect(
      refs('<picture><source srcset="p.png" media="print"><img src="f.png" srcset="f2.png 2x"></picture>'),
    ).toEqual([
      ['p.png', 'srcset-candidate', ''],
      ['f2.png 2x', 'srcset-candidate', 'f.png'],
      ['f.png', 'srcset-candidate', undefined],
    ]);
    // A media query it cannot read before the winner: every candidate stays.
    expect(refs('<picture><source srcset="o.png" media="(orientation: portrait)"><img src="f.png"></picture>')).toEqual(
      [
        ['o.png', 'srcset-candidate', undefined],
        ['f.png', 'srcset-candidate', undefined],
      ],
    );
  });

  it('tells tab icons from touch and mask icons', () => {
    const { refs } = extractHtml(
      '<link rel="icon" href="f.svg"><link rel="apple-touch-icon" href="t.png">' +
        '<link rel="mask-icon" href="m.svg"><link rel="shortcut icon" href="f.ico">',
    );
    expect(refs.map((r) => [r.v, r.cond])).toEqual([
      ['f.svg', undefined],
      ['t.png', 'icon-variant'],
      ['m.svg', 'icon-variant'],
      ['f.ico', undefined],
    ]);
  });

  it('says whether the page has slanted text without a stylesheet', () => {
    const slanted = (body: string) => extractHtml(`<!doctype html><p>${body}</p>`).slanted === true;
    expect(slanted('plain <b>bold</b> <span class="em">x</span>')).toBe(false);
    for (const body of [
      '<em>x</em>',
      '<i>x</i>',
      '<cite>x</cite>',
      '<address>x</address>',
      '<math><mi>x</mi></math>',
      '<span style="font: italic 1em serif">x</span>',
      '<svg><text font-style="oblique">x</text></svg>',
      '<template><em>x</em></template>',
    ]) {
      expect(slanted(body), body).toBe(true);
    }
  });
});
