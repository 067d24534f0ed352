import { describe, expect, it } from 'vitest';
import { addCssText, addNonAscii, charsOf, parseUnicodeRange, rangesUsed, sortedCodePoints } from './unicode-range.js';

describe('parseUnicodeRange', () => {
  it('reads single code points, intervals and trailing wildcards', () => {
    expect(parseUnicodeRange('U+0131')).toEqual([0x131, 0x131]);
    expect(parseUnicodeRange('u+0000-00ff')).toEqual([0, 0xff]);
    expect(parseUnicodeRange('U+4??')).toEqual([0x400, 0x4ff]);
    expect(parseUnicodeRange('U+10????')).toEqual([0x100000, 0x10ffff]);
  });
  it('rejects what invalidates the descriptor, past U+10FFFF included (as Chromium does)', () => {
    for (const bad of [
      'U+',
      'U+00FF-0000',
      'U+4?-50',
      'U+4?0',
      'U+1234567',
      'U+110000',
      '0000-00FF',
      'U+XYZ',
      'U+10FFFF-1FFFFF',
      'U+1?????',
      'U+??????',
    ])
      expect(parseUnicodeRange(bad), bad).toBeUndefined();
  });
});

describe('rangesUsed', () => {
  const cyrillic: Array<[number, number]> = [[0x400, 0x45f]];
  const none = new Uint32Array(0);
  it('keeps a subset with printable ASCII in range on every page', () => {
    expect(rangesUsed([[0, 0xff]], none)).toBe(true);
    expect(rangesUsed([[0x7e, 0x7e]], none)).toBe(true);
    expect(rangesUsed([[0, 0x1f]], none)).toBe(false);
  });
  it('keeps a non-ASCII subset only for a page with a character in it', () => {
    expect(rangesUsed(cyrillic, none)).toBe(false);
    expect(rangesUsed(cyrillic, sortedCodePoints('é—'))).toBe(false);
    expect(rangesUsed(cyrillic, sortedCodePoints('éЖ—'))).toBe(true);
    expect(rangesUsed([[0x1f600, 0x1f64f]], sortedCodePoints('😀'))).toBe(true);
    // Edges of a range, and a range between two of the page's characters.
    expect(rangesUsed([[0x416, 0x416]], sortedCodePoints('Ж'))).toBe(true);
    expect(rangesUsed([[0x3000, 0x303f]], sortedCodePoints('Ж😀'))).toBe(false);
  });
  it('agrees with a linear scan on random ranges and pages', () => {
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let k = 0; k < 300; k++) {
      const ranges: Array<[number, number]> = Array.from({ length: 1 + rnd(5) }, () => {
        const lo = 0x80 + rnd(0x3000);
        return [lo, lo + rnd(40)];
      });
      const page = sortedCodePoints(
        Array.from({ length: rnd(30) }, () => String.fromCodePoint(0x80 + rnd(0x3000))).join(''),
      );
      const linear = ranges.some(([lo, hi]) => page.some((cp) => cp >= lo && cp <= hi));
      expect(rangesUsed(ranges, page)).toBe(linear);
    }
  });
});

describe('page characters', () => {
  it('collects non-ASCII characters (astral ones whole) into a stable string and back', () => {
    const set = new Set<string>();
    addNonAscii(set, 'plain ASCII');
    expect(charsOf(set)).toBeUndefined();
    addNonAscii(set, 'Привет 😀 – Ж');
    addNonAscii(set, 'Жé');
    const chars = charsOf(set);
    expect(chars).toBe(
      [...'Привет😀–Жé']
        .filter((c, i, a) => a.indexOf(c) === i)
        .sort()
        .join(''),
    );
    const points = sortedCodePoints(chars, 'ЖЯ');
    expect(points.includes(0x1f600)).toBe(true);
    expect(points.includes(0xd83d)).toBe(false);
    expect([...points].filter((cp) => cp === 0x416)).toHaveLength(1);
    expect([...points]).toEqual([...points].sort((a, b) => a - b));
  });
});

describe('addCssText', () => {
  it('reads literal characters and CSS escapes of unparsed values', () => {
    const set = new Set<string>();
    addCssText(set, '" \\2192  Скоро \\1F600x \\41 \\d800"');
    expect([...set].sort()).toEqual(['→', 'С', 'к', 'о', 'р', '😀'].sort());
  });
});
