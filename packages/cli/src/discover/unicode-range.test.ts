import { describe, expect, it } from 'vitest';
import { addCodePoints, addNonAscii, charsOf, parseUnicodeRange, rangesUsed } from './unicode-range.js';

describe('parseUnicodeRange', () => {
  it('reads single code points, intervals and trailing wildcards', () => {
    expect(parseUnicodeRange('U+0131')).toEqual([0x131, 0x131]);
    expect(parseUnicodeRange('u+0000-00ff')).toEqual([0, 0xff]);
    expect(parseUnicodeRange('U+4??')).toEqual([0x400, 0x4ff]);
    expect(parseUnicodeRange('U+??????')).toEqual([0, 0x10ffff]);
    expect(parseUnicodeRange('U+10FFFF-1FFFFF')).toEqual([0x10ffff, 0x10ffff]);
  });
  it('rejects what invalidates the descriptor', () => {
    for (const bad of ['U+', 'U+00FF-0000', 'U+4?-50', 'U+4?0', 'U+1234567', 'U+110000', '0000-00FF', 'U+XYZ']) expect(parseUnicodeRange(bad), bad).toBeUndefined();
  });
});

describe('rangesUsed', () => {
  const cyrillic: Array<[number, number]> = [[0x400, 0x45f]];
  it('keeps a subset with printable ASCII in range on every page', () => {
    expect(rangesUsed([[0, 0xff]], new Set())).toBe(true);
    expect(rangesUsed([[0x7e, 0x7e]], new Set())).toBe(true);
    expect(rangesUsed([[0, 0x1f]], new Set())).toBe(false);
  });
  it('keeps a non-ASCII subset only for a page with a character in it', () => {
    expect(rangesUsed(cyrillic, new Set())).toBe(false);
    expect(rangesUsed(cyrillic, new Set([0xe9, 0x2014]))).toBe(false);
    expect(rangesUsed(cyrillic, new Set([0x416]))).toBe(true);
    expect(rangesUsed([[0x1f600, 0x1f64f]], new Set([0x1f600]))).toBe(true);
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
    expect(chars).toBe([...'Привет😀–Жé'].filter((c, i, a) => a.indexOf(c) === i).sort().join(''));
    const points = new Set<number>();
    addCodePoints(points, chars);
    expect(points.has(0x1f600)).toBe(true);
    expect(points.has(0xd83d)).toBe(false);
    expect(points.has(0x416)).toBe(true);
  });
});
