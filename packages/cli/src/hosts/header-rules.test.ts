import { describe, expect, test } from 'vitest';
import { minimatch } from 'minimatch';
import { linkHeader, MAX_LINK_HEADER_BYTES, preloadLink } from '../emit/link-header.js';
import { firebaseConfig } from './firebase.js';
import { HEADERS_BEGIN, netlifyHeaders } from './header-rules.js';

describe('Link headers and _headers', () => {
  test('a page with many critical objects gets a Link header cut at a whole entry, under 8 KB', () => {
    const critical = Array.from({ length: 400 }, (_, i) => ({
      path: `/assets/css/very-long-stylesheet-name-${i}.css`,
      as: 'style' as const,
    }));
    const { value, dropped } = linkHeader(critical);
    expect(Buffer.byteLength(value)).toBeLessThanOrEqual(MAX_LINK_HEADER_BYTES);
    expect(dropped).toBeGreaterThan(0);
    expect(value.split(', ').length + dropped).toBe(400);
    expect(value.endsWith('; rel=preload; as=style')).toBe(true);
  });
  test('fonts are preloaded with crossorigin; odd characters cannot break out of <…>', () => {
    expect(preloadLink('/f.woff2', 'font')).toBe('</f.woff2>; rel=preload; as=font; crossorigin');
    expect(preloadLink('/a>b"c".css', 'style')).toBe('</a%3Eb%22c%22.css>; rel=preload; as=style');
    // Not a printable-ASCII path (the build's URLs are percent-encoded): left out, never a broken header.
    expect(preloadLink('/a b.css', 'style')).toBeUndefined();
    expect(preloadLink('/caf\u00e9.css', 'style')).toBeUndefined();
  });
  test("an element's crossorigin state reaches the _headers Link; documents and media are never preloaded", () => {
    expect(
      linkHeader([
        { path: '/a.css', as: 'style', cors: 'anonymous' },
        { path: '/s.js', as: 'script', cors: 'use-credentials' },
        { path: '/', as: 'document' },
        { path: '/v.mp4', as: 'video' },
      ]).value,
    ).toBe(
      '</a.css>; rel=preload; as=style; crossorigin, </s.js>; rel=preload; as=script; crossorigin=use-credentials',
    );
  });
  test("_headers: user rules are kept and objpack's block is replaced, never duplicated", () => {
    const rules = [{ path: '/', headers: [['Link', '</a.css>; rel=preload; as=style']] as Array<[string, string]> }];
    const once = netlifyHeaders(rules, '/admin/*\n  X-Frame-Options: DENY\n');
    const twice = netlifyHeaders(rules, once);
    expect(twice).toBe(once);
    expect(once.startsWith('/admin/*\n  X-Frame-Options: DENY\n\n')).toBe(true);
    expect(once.split(HEADERS_BEGIN)).toHaveLength(2);
  });
});

describe('firebase.json sources', () => {
  test(
    "a page's source matches its URL and no other, extglob " +
      'characters too (minimatch, as superstatic matches them)',
    () => {
      const paths = ['/a+(b).html', '/a@(b).html', '/a!(b).html', '/a*b.html', '/[slug].html', '/a(b).html'];
      const made = firebaseConfig(
        paths.map((p) => ({ path: p, headers: [['Link', '</s.css>; rel=preload; as=style']] })),
      );
      if (typeof made === 'string') throw new Error(made);
      const probes = ['/ab.html', '/a.html', '/axb.html', '/s.html', '/abb.html'];
      expect(
        made.ours.map((e, i) => [
          paths[i],
          minimatch(paths[i]!, e.source),
          probes.filter((u) => minimatch(u, e.source)),
        ]),
      ).toEqual(paths.map((p) => [p, true, []]));
    },
  );
});
