import { describe, expect, it } from 'vitest';
import { joinLinkValue, MAX_LINK_HEADER_BYTES, preloadLinkEntry, preloadLinkValue } from './link-value.js';

describe('preloadLinkEntry', () => {
  it('gives each kind the mode of the request the page will make', () => {
    expect(preloadLinkEntry('/a.css', 'style')).toBe('</a.css>; rel=preload; as=style');
    expect(preloadLinkEntry('/s.js', 'script')).toBe('</s.js>; rel=preload; as=script');
    expect(preloadLinkEntry('/i.svg', 'image')).toBe('</i.svg>; rel=preload; as=image; fetchpriority=high');
    expect(preloadLinkEntry('/f.woff2', 'font')).toBe('</f.woff2>; rel=preload; as=font; crossorigin');
    expect(preloadLinkEntry('/d.json', 'fetch')).toBe('</d.json>; rel=preload; as=fetch; crossorigin');
    expect(preloadLinkEntry('/m.js', 'module')).toBe('</m.js>; rel=modulepreload');
    expect(preloadLinkEntry('/1.js', 'chunk')).toBe('</1.js>; rel=preload; as=script; fetchpriority=low');
  });
  it("carries the element's crossorigin state", () => {
    expect(preloadLinkEntry('/a.css', 'style', 'anonymous')).toBe('</a.css>; rel=preload; as=style; crossorigin');
    expect(preloadLinkEntry('/m.js', 'module', 'anonymous')).toBe('</m.js>; rel=modulepreload; crossorigin');
    expect(preloadLinkEntry('/m.js', 'module', 'use-credentials')).toBe(
      '</m.js>; rel=modulepreload; crossorigin=use-credentials',
    );
    expect(preloadLinkEntry('/f.woff2', 'font', 'use-credentials')).toBe(
      '</f.woff2>; rel=preload; as=font; crossorigin=use-credentials',
    );
  });
  it('never announces documents, media or unknown kinds', () => {
    for (const k of ['document', 'audio', 'video', 'track', 'toString', '__proto__', 'constructor'] as const) {
      expect(preloadLinkEntry('/x', k as 'style')).toBeUndefined();
    }
  });
  it('skips what is not a printable-ASCII same-origin path; escapes <>" and keeps the rest', () => {
    for (const u of [
      '/caf\u00e9.css',
      '/a\u0000.css',
      '/a b.css',
      '/a\tb.css',
      '//cdn.example/a.css',
      '/\\cdn.example/a.css',
      'https://x/a.css',
      'a.css',
      '',
    ]) {
      expect(preloadLinkEntry(u, 'style')).toBeUndefined();
    }
    expect(preloadLinkEntry('/a,b.css?x=1;2', 'style')).toBe('</a,b.css?x=1;2>; rel=preload; as=style');
    expect(preloadLinkEntry('/a>b"c<.css', 'style')).toBe('</a%3Eb%22c%3C.css>; rel=preload; as=style');
  });
});

describe('joinLinkValue / preloadLinkValue at the cap', () => {
  // Entries of exactly `len` bytes: `</` + path + `>; rel=preload; as=style`.
  const entryOf = (i: number, len: number) => {
    const rest = '>; rel=preload; as=style';
    const path = `/${String(i).padStart(len - 2 - rest.length, 'x')}`;
    return [path, `<${path}${rest}`] as const;
  };
  it('keeps a value of exactly the cap and cuts one byte over at a whole entry', () => {
    // 10 entries of 798 bytes + 9 separators of 2 bytes = 7998; a 2-byte-longer last entry makes 8000.
    const entries = Array.from({ length: 10 }, (_, i) => entryOf(i, i === 9 ? 800 : 798)[1]);
    const exact = joinLinkValue(entries);
    expect(exact.value.length).toBe(MAX_LINK_HEADER_BYTES);
    expect(exact.used).toBe(10);
    const over = joinLinkValue([...entries.slice(0, 9), entryOf(9, 801)[1]]);
    expect(over.used).toBe(9);
    expect(over.value).toBe(entries.slice(0, 9).join(', '));
  });
  it('counts dropped and skipped entries', () => {
    const hints = Array.from(
      { length: 10 },
      (_, i) => [entryOf(i, i === 9 ? 801 : 798)[0], 'style'] as [string, 'style'],
    );
    const r = preloadLinkValue([['/v.mp4', 'video'], ...hints, ['/caf\u00e9', 'style']]);
    expect(r).toMatchObject({ dropped: 1, skipped: 2 });
    expect(r.value.length).toBe(798 * 9 + 2 * 8);
    expect(preloadLinkValue(hints.slice(0, 9).concat([[entryOf(9, 800)[0], 'style']])).value.length).toBe(
      MAX_LINK_HEADER_BYTES,
    );
    expect(preloadLinkValue([])).toEqual({ value: '', dropped: 0, skipped: 0 });
  });
});
