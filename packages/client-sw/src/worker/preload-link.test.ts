import type { RouteTable } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import { announcePreloads, MAX_PRELOAD_HEADER_BYTES, preloadHeader, preloadsFor } from './preload-link.js';
import { lookupRoute } from './routes.js';

const table = (preload: RouteTable['preload']): RouteTable => ({
  version: 1,
  buildId: 'b',
  packages: ['/p.objp'],
  pages: { '/guide/': [0] },
  preload,
});

describe('preloadHeader', () => {
  it('gives each kind the mode and credentials of the request the page will make', () => {
    expect(
      preloadHeader([
        ['/a.css', 'style'],
        ['/f.woff2', 'font'],
        ['/m.js', 'module'],
        ['/s.js', 'script'],
        ['/i.svg', 'image'],
        ['/d.json', 'fetch'],
      ]),
    ).toBe(
      '</a.css>; rel=preload; as=style, </f.woff2>; rel=preload; as=font; crossorigin, </m.js>; rel=modulepreload, ' +
        ('</s.js>; rel=preload; as=script, </i.svg>; rel=preload; as=image; fetchpriority=high, </d.json>; ' +
          'rel=preload; as=fetch; crossorigin'),
    );
  });
  it('never announces documents or media, and keeps URLs as the page requests them', () => {
    expect(
      preloadHeader([
        ['/', 'document'],
        ['/v.mp4', 'video'],
        ['/t.vtt', 'track'],
      ]),
    ).toBeUndefined();
    expect(preloadHeader([['/a,b.css?x=1;2', 'style']])).toBe('</a,b.css?x=1;2>; rel=preload; as=style');
  });
  it('stops at a whole entry below the cap', () => {
    const many = Array.from({ length: 400 }, (_, i) => [`/assets/object-${i}.css`, 'style'] as [string, 'style']);
    const v = preloadHeader(many)!;
    expect(v.length).toBeLessThanOrEqual(MAX_PRELOAD_HEADER_BYTES);
    expect(v.length).toBeGreaterThan(MAX_PRELOAD_HEADER_BYTES - 60);
    expect(v.endsWith('as=style')).toBe(true);
  });
});

describe('preloadsFor', () => {
  it('reads the page list by the table key, also for /index.html', () => {
    const t = table({
      urls: [
        ['/a.css', 'style'],
        ['/f.woff2', 'font'],
      ],
      pages: { '/guide/': [1, 0] },
    });
    expect(preloadsFor(t, lookupRoute(t, '/guide/index.html')!.key)).toEqual([
      ['/f.woff2', 'font'],
      ['/a.css', 'style'],
    ]);
    expect(preloadsFor(t, '/other/')).toEqual([]);
    expect(preloadsFor(table(undefined), '/guide/')).toEqual([]);
  });
  it('drops other origins, bad indices, unknown kinds and repeats', () => {
    const t = table({
      urls: [
        ['https://cdn.example/a.css', 'style'],
        ['//cdn.example/b.css', 'style'],
        ['/c.css', 'bogus' as 'style'],
        ['/d.css', 'style'],
      ],
      pages: { '/guide/': [0, 1, 2, 3, 3, 9] },
    });
    expect(preloadsFor(t, '/guide/')).toEqual([['/d.css', 'style']]);
  });
});

describe('hardening against a bad routes.json', () => {
  it('never reads a kind or a page from the prototype', () => {
    const t = table({
      urls: [
        ['/a.css', 'toString' as 'style'],
        ['/b.css', 'constructor' as 'style'],
        ['/c.css', '__proto__' as 'style'],
        ['/d.css', 'style'],
      ],
      pages: { '/guide/': [0, 1, 2, 3] },
    });
    expect(preloadsFor(t, '/guide/')).toEqual([['/d.css', 'style']]);
    expect(preloadHeader([['/a.css', 'hasOwnProperty' as 'style']])).toBeUndefined();
    const polluted = table({ urls: [['/d.css', 'style']], pages: {} });
    Object.setPrototypeOf(polluted.preload!.pages, { '/guide/': [0] });
    expect(preloadsFor(polluted, '/guide/')).toEqual([]);
  });
  it('skips URLs a header cannot carry instead of letting headers.append throw', () => {
    const t = table({
      urls: [
        ['/\u4e2d.css', 'style'],
        ['/a\u0000.css', 'style'],
        ['/a b.css', 'style'],
        ['/caf\u00e9.css', 'style'],
        ['/ok.css', 'style'],
      ],
      pages: { '/guide/': [0, 1, 2, 3, 4] },
    });
    const headers = new Headers();
    expect(announcePreloads(headers, t, '/guide/')).toBe(true);
    expect(headers.get('link')).toBe('</ok.css>; rel=preload; as=style');
  });
  it('a table that throws while read leaves the navigation alone', () => {
    const t = table({ urls: [], pages: {} });
    Object.defineProperty(t.preload, 'pages', {
      get: () => {
        throw new Error('bad');
      },
    });
    const headers = new Headers({ 'content-type': 'text/html' });
    expect(announcePreloads(headers, t, '/guide/')).toBe(false);
    expect([...headers.keys()]).toEqual(['content-type']);
  });
  it("carries the element's crossorigin state and drops unknown ones", () => {
    const t = table({
      urls: [
        ['/a.css', 'style', 'anonymous'],
        ['/m.js', 'module', 'use-credentials'],
        ['/x.css', 'style', 'bogus' as 'anonymous'],
      ],
      pages: { '/guide/': [0, 1, 2] },
    });
    expect(preloadHeader(preloadsFor(t, '/guide/'))).toBe(
      '</a.css>; rel=preload; as=style; crossorigin, </m.js>; rel=modulepreload; crossorigin=use-credentials',
    );
  });
});
