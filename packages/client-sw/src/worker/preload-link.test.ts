import type { RouteTable } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import { MAX_PRELOAD_HEADER_BYTES, preloadHeader, preloadsFor } from './preload-link.js';
import { lookupRoute } from './routes.js';

const table = (preload: RouteTable['preload']): RouteTable => ({ version: 1, buildId: 'b', packages: ['/p.objp'], pages: { '/guide/': [0] }, preload });

describe('preloadHeader', () => {
  it('gives each kind the mode and credentials of the request the page will make', () => {
    expect(preloadHeader([['/a.css', 'style'], ['/f.woff2', 'font'], ['/m.js', 'module'], ['/s.js', 'script'], ['/i.svg', 'image'], ['/d.json', 'fetch']])).toBe(
      '</a.css>; rel=preload; as=style, </f.woff2>; rel=preload; as=font; crossorigin, </m.js>; rel=modulepreload, ' +
        '</s.js>; rel=preload; as=script, </i.svg>; rel=preload; as=image, </d.json>; rel=preload; as=fetch; crossorigin',
    );
  });
  it('never announces documents or media, and keeps URLs as the page requests them', () => {
    expect(preloadHeader([['/', 'document'], ['/v.mp4', 'video'], ['/t.vtt', 'track']])).toBeUndefined();
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
    const t = table({ urls: [['/a.css', 'style'], ['/f.woff2', 'font']], pages: { '/guide/': [1, 0] } });
    expect(preloadsFor(t, lookupRoute(t, '/guide/index.html')!.key)).toEqual([['/f.woff2', 'font'], ['/a.css', 'style']]);
    expect(preloadsFor(t, '/other/')).toEqual([]);
    expect(preloadsFor(table(undefined), '/guide/')).toEqual([]);
  });
  it('drops other origins, bad indices, unknown kinds and repeats', () => {
    const t = table({
      urls: [['https://cdn.example/a.css', 'style'], ['//cdn.example/b.css', 'style'], ['/c.css', 'bogus' as 'style'], ['/d.css', 'style']],
      pages: { '/guide/': [0, 1, 2, 3, 3, 9] },
    });
    expect(preloadsFor(t, '/guide/')).toEqual([['/d.css', 'style']]);
  });
});
