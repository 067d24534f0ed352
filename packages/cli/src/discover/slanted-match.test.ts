import { describe, expect, it } from 'vitest';
import { anySelectorMatches, widen } from './slanted-match.js';

describe('slanted rules against the parsed page', () => {
  const page = '<!doctype html><main class="doc"><blockquote><p>q</p></blockquote><p id="x" data-k>t</p></main>';

  it('matches selectors with css-select on the tree parse5 builds', () => {
    expect(anySelectorMatches(page, ['blockquote > p:first-child'])).toBe(true);
    expect(anySelectorMatches(page, ['.doc [data-k]'])).toBe(true);
    expect(anySelectorMatches(page, ['.note', 'aside em', 'main > blockquote > em'])).toBe(false);
  });

  it('leaves pseudo-classes and pseudo-elements out, which only widens a selector', () => {
    expect(widen('a:hover em, .x::before, :is(h1, h2) i, :focus')).toEqual(['a em', '.x', '* i', '*']);
    expect(anySelectorMatches(page, ['p:hover'])).toBe(true);
    expect(anySelectorMatches(page, ['main :not(p)'])).toBe(true);
  });

  it('counts a selector it cannot read as matching', () => {
    expect(anySelectorMatches(page, ['& .nested'])).toBe(true);
    expect(anySelectorMatches(page, ['p[[bad'])).toBe(true);
  });
});
