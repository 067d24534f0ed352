import type { RouteTable } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import { answerable, clearSiteData, objectName } from './requests.js';
import { lookupRoute } from './routes.js';

const O = 'https://site.example';

describe('answerable', () => {
  it('takes same-origin GETs only', () => {
    expect(answerable(new Request(`${O}/a.css`), O)).toBe(true);
    expect(answerable(new Request('https://cdn.example/a.css'), O)).toBe(false);
    expect(answerable(new Request(`${O}/a.css`, { method: 'POST', body: 'x' }), O)).toBe(false);
    expect(answerable(new Request(`${O}/a.css`, { method: 'HEAD' }), O)).toBe(false);
  });
  it('leaves Range, Authorization, explicit credentials and cache bypasses to the network', () => {
    expect(answerable(new Request(`${O}/v.mp4`, { headers: { range: 'bytes=0-' } }), O)).toBe(false);
    expect(answerable(new Request(`${O}/me.json`, { headers: { authorization: 'Bearer t' } }), O)).toBe(false);
    expect(answerable(new Request(`${O}/me.json`, { mode: 'cors', credentials: 'include' }), O)).toBe(false);
    expect(answerable(new Request(`${O}/a.css`, { cache: 'no-store' }), O)).toBe(false);
    expect(answerable(new Request(`${O}/a.css`, { cache: 'reload' }), O)).toBe(false);
    // An element's no-cors load carries credentials by default: still ours.
    expect(answerable(new Request(`${O}/a.png`, { mode: 'no-cors', credentials: 'include' }), O)).toBe(true);
  });
});

describe('objectName', () => {
  it('keeps the query, drops the fragment', () => {
    expect(objectName(`${O}/a.css?v=3#x`)).toBe('/a.css?v=3');
  });
  it("names a path with '|' or '^' as the build does (Chromium's form), from a browser that keeps them too", () => {
    // Node's URL keeps both, as a browser following the WHATWG set does; Chromium sends /a%7Cb%5Ec.png.
    expect(new URL(`${O}/a|b^c.png`).pathname).toBe('/a|b^c.png');
    expect(objectName(`${O}/a|b^c.png?q=|`)).toBe('/a%7Cb%5Ec.png?q=|');
    expect(objectName(`${O}/a%7Cb%5Ec.png`)).toBe('/a%7Cb%5Ec.png');
  });
  it('names an object as the page spelled it: the build names it so, and a preload of it names that URL', () => {
    // Chromium keeps every escape as the page wrote it: these reach the worker so.
    expect(objectName(`${O}/caf%c3%a9.css?v=%c3`)).toBe('/caf%c3%a9.css?v=%c3');
    expect(objectName(`${O}/_next/static/chunks/pages/%5Bslug%5D-1a2b.js`)).toBe(
      '/_next/static/chunks/pages/%5Bslug%5D-1a2b.js',
    );
  });
});

describe('clearSiteData', () => {
  const res = (v?: string) => new Response(null, { headers: v ? { 'clear-site-data': v } : {} });
  it('reads the types', () => {
    expect(clearSiteData(res())).toBeUndefined();
    expect(clearSiteData(res('"cookies"'))).toBeUndefined();
    expect(clearSiteData(res('"cache"'))).toEqual({ caches: true, unregister: false });
    expect(clearSiteData(res('"cookies", "storage"'))).toEqual({ caches: true, unregister: true });
    expect(clearSiteData(res('"*"'))).toEqual({ caches: true, unregister: true });
  });
});

describe('lookupRoute', () => {
  const table: RouteTable = {
    version: 1,
    buildId: 'b',
    packages: ['/_objpack/pages/index.html.objp', '/_objpack/shared/a.objp', '/_objpack/pages/x.html.objp'],
    pages: { '/': [0, 1], '/x.html': [2], '/bad/': [7] },
  };
  it('finds pages by path, /dir/ and /dir/index.html alike', () => {
    expect(lookupRoute(table, '/')).toEqual({
      page: '/_objpack/pages/index.html.objp',
      shared: ['/_objpack/shared/a.objp'],
      build: 'b',
      key: '/',
    });
    expect(lookupRoute(table, '/index.html')).toMatchObject({ page: '/_objpack/pages/index.html.objp', key: '/' });
    expect(lookupRoute(table, '/x.html')).toEqual({
      page: '/_objpack/pages/x.html.objp',
      shared: [],
      build: 'b',
      key: '/x.html',
    });
  });
  it('names the build a kept page package carries (packageBuilds), else the table build', () => {
    const kept: RouteTable = { ...table, packageBuilds: { '2': 'a' } };
    expect(lookupRoute(kept, '/x.html')?.build).toBe('a');
    expect(lookupRoute(kept, '/')?.build).toBe('b');
  });
  it("finds a page named with '|' or '^' (keyed as Chromium requests it) from a browser that keeps them", () => {
    const piped: RouteTable = { ...table, pages: { ...table.pages, '/a%7Cb.html': [2] } };
    expect(lookupRoute(piped, '/a|b.html')).toMatchObject({ key: '/a%7Cb.html' });
    expect(lookupRoute(piped, '/a%7Cb.html')).toMatchObject({ key: '/a%7Cb.html' });
  });
  it('finds a page by another spelling of its URL: lower-case hex, escaped brackets or unreserved characters', () => {
    const named: RouteTable = {
      ...table,
      pages: { ...table.pages, '/[slug].html': [2], '/caf%C3%A9/': [2], '/a-b~.html': [2] },
    };
    expect(lookupRoute(named, '/%5Bslug%5D.html')).toMatchObject({ key: '/[slug].html' });
    expect(lookupRoute(named, '/%5bslug%5d.html')).toMatchObject({ key: '/[slug].html' });
    expect(lookupRoute(named, '/caf%c3%a9/')).toMatchObject({ key: '/caf%C3%A9/' });
    expect(lookupRoute(named, '/caf%c3%a9/index.html')).toMatchObject({ key: '/caf%C3%A9/' });
    expect(lookupRoute(named, '/a%2Db%7e.html')).toMatchObject({ key: '/a-b~.html' });
    // An escaped separator names another file; escaped dots never make a `..` to climb with.
    expect(lookupRoute({ ...table, pages: { ...table.pages, '/a/b.html': [2] } }, '/a%2Fb.html')).toBeUndefined();
    expect(lookupRoute(named, '/x/%2e%2e/a-b~.html')).toBeUndefined();
  });
  it('returns nothing for unknown pages and indices out of range', () => {
    expect(lookupRoute(table, '/nope')).toBeUndefined();
    expect(lookupRoute(table, '/bad/')).toBeUndefined();
  });
  it(
    'with cleanUrls, /x is the page /x.html (never /x/, ' + '/x.htm or a path with an extension); without, it is not',
    () => {
      expect(lookupRoute(table, '/x')).toBeUndefined();
      const clean: RouteTable = { ...table, cleanUrls: true };
      expect(lookupRoute(clean, '/x')).toEqual({
        page: '/_objpack/pages/x.html.objp',
        shared: [],
        build: 'b',
        key: '/x.html',
      });
      expect(lookupRoute(clean, '/x/')).toBeUndefined();
      expect(lookupRoute(clean, '/x.json')).toBeUndefined();
      expect(lookupRoute(clean, '/x.html.html')).toBeUndefined();
      expect(lookupRoute(clean, '/index')).toBeUndefined();
      // Dots in the name are names (`/docs/v1.2` is `/docs/v1.2.html`); a directory page wins, as objpack serve
      // redirects `/a` to `/a/`.
      const more: RouteTable = {
        ...clean,
        pages: { ...clean.pages, '/docs/v1.2.html': [2], '/a/': [0], '/a.html': [2] },
      };
      expect(lookupRoute(more, '/docs/v1.2')?.key).toBe('/docs/v1.2.html');
      expect(lookupRoute(more, '/a')).toBeUndefined();
      expect(lookupRoute(more, '/a/')?.key).toBe('/a/');
    },
  );
});
