import type { ObjectEntry, RouteTable } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import { cacheControlOf, reusable, withHostCaching } from './host-cache.js';

const table = (objectCache: unknown): RouteTable =>
  ({ version: 1, buildId: 'b', packages: [], pages: {}, objectCache }) as RouteTable;

const entry = (name: string, contentType = 'text/css', headers: Array<[string, string]> = []): ObjectEntry => ({
  index: 0,
  name,
  contentType,
  headers,
  size: 1,
  totalSize: 1,
  partial: false,
  digest: new Uint8Array(32),
  offset: 0,
});

describe('host Cache-Control for objects (RouteTable.objectCache)', () => {
  it('applies the last matching rule, on the path as requested or decoded, never the query', () => {
    const of = cacheControlOf(
      table([
        ['^/.*$', 'iu', 'public, max-age=0, must-revalidate'],
        ['^/assets/.*$', 'iu', 'public, max-age=31536000, immutable'],
        ['^/café\\.css$', 'iu', 'max-age=60'],
        ['^/x\\?.*$', 'iu', 'max-age=5'],
      ]),
    )!;
    expect(of('/assets/app.js')).toBe('public, max-age=31536000, immutable');
    expect(of('/ASSETS/app.js?v=2')).toBe('public, max-age=31536000, immutable');
    expect(of('/caf%C3%A9.css')).toBe('max-age=60');
    expect(of('/x?y')).toBe('public, max-age=0, must-revalidate');
    expect(of('/%E0%A4%A.css')).toBe('public, max-age=0, must-revalidate');
  });

  it('skips rules a hostile table could break the worker with, and has nothing without rules', () => {
    expect(cacheControlOf(table(undefined))).toBeUndefined();
    expect(cacheControlOf(table('nope'))).toBeUndefined();
    const of = cacheControlOf(
      table([
        ['(', 'iu', 'max-age=1'],
        ['^/a', 'g', 'max-age=2'],
        ['^/a', 'iu', 'x\r\ny: 1'],
        [1, 'iu', 'max-age=3'],
        null,
      ]),
    );
    expect(of).toBeUndefined();
  });

  it("adds the rule's value to an object without one; a page's or an object's own header stays", () => {
    const of = cacheControlOf(table([['^/', 'iu', 'max-age=600']]));
    expect(withHostCaching(entry('/a.css'), of).headers).toEqual([['cache-control', 'max-age=600']]);
    const own = entry('/b.css', 'text/css', [['cache-control', 'no-store']]);
    expect(withHostCaching(own, of)).toBe(own);
    const page = entry('/', 'text/html; charset=utf-8');
    expect(withHostCaching(page, of)).toBe(page);
    const none = entry('/a.css');
    expect(withHostCaching(none, undefined)).toBe(none);
  });

  it('lets the warm page load only what a browser may reuse without asking', () => {
    expect(reusable('public, max-age=600')).toBe(true);
    expect(reusable('max-age="31536000", immutable')).toBe(true);
    expect(reusable('public, max-age=0, must-revalidate')).toBe(false);
    expect(reusable('max-age=600, no-cache')).toBe(false);
    expect(reusable('no-store, max-age=600')).toBe(false);
    expect(reusable('s-maxage=600')).toBe(false);
    expect(reusable(undefined)).toBe(false);
  });
});
