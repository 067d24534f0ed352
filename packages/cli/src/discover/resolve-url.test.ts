import { describe, expect, it } from 'vitest';
import { climbsAboveRoot, decodePath, UrlResolver } from './resolve-url.js';
import { encodePath, pageUrlPath, parseOrigin } from './site-origin.js';
import type { SiteFile } from './types.js';

const file = (path: string): SiteFile => ({
  path,
  file: `/site${path}`,
  rel: path.slice(1),
  bytes: 1,
  mtimeMs: 0,
  contentType: 'x',
});
const files = new Map(
  ['/a b.png', '/ü.png', '/guide/index.html', '/about.html', '/css/app.css', '/.env', '/a|b^c.png', '/[x].png'].map(
    (p) => [p, file(p)],
  ),
);

describe('UrlResolver', () => {
  const r = new UrlResolver(files, parseOrigin('https://example.com'));
  const page = new URL('https://example.com/guide/');
  it('resolves like a browser and maps to files', () => {
    expect(r.resolve('../a%20b.png', page)).toMatchObject({ kind: 'local', url: '/a%20b.png', path: '/a b.png' });
    expect(r.resolve('/a b.png?x=1#f', page)).toMatchObject({ kind: 'local', url: '/a%20b.png?x=1', path: '/a b.png' });
    expect(r.resolve('/ü.png', page)).toMatchObject({ kind: 'local', url: '/%C3%BC.png', path: '/ü.png' });
    expect(r.resolve('https://example.com/css/app.css', page)).toMatchObject({ kind: 'local', path: '/css/app.css' });
    expect(r.resolve('//example.com/css/app.css', page)).toMatchObject({ kind: 'local', path: '/css/app.css' });
    expect(r.resolve('./', page)).toMatchObject({ kind: 'local', url: '/guide/', path: '/guide/index.html' });
    // The URL as Chromium requests it (its parser escapes '|' '^' in paths, Node's does not; '[' ']' stay).
    expect(r.resolve('/a|b^c.png', page)).toMatchObject({ kind: 'local', url: '/a%7Cb%5Ec.png', path: '/a|b^c.png' });
    expect(r.resolve('/a%7Cb%5ec.png', page)).toMatchObject({ kind: 'local', path: '/a|b^c.png' });
    expect(r.resolve('/[x].png', page)).toMatchObject({ kind: 'local', url: '/[x].png', path: '/[x].png' });
    // Other escapes stay as written: the browser requests the URL so, and a preload must name what it requests
    // (Next.js writes /_next/static/chunks/pages/%5Bslug%5D-….js; a Link to /[slug]-….js would go unused).
    expect(r.resolve('/%c3%bc.png', page)).toMatchObject({ kind: 'local', url: '/%c3%bc.png', path: '/ü.png' });
    expect(r.resolve('/%5Bx%5D.png?v=%5b', page)).toMatchObject({
      kind: 'local',
      url: '/%5Bx%5D.png?v=%5b',
      path: '/[x].png',
    });
    expect(r.resolve('/%63ss/app%2Ecss', page)).toMatchObject({
      kind: 'local',
      url: '/%63ss/app%2Ecss',
      path: '/css/app.css',
    });
  });
  it('classifies what is not a local object', () => {
    expect(r.resolve('http://example.com/css/app.css', page)).toEqual({ kind: 'cross', host: 'example.com' });
    expect(r.resolve('https://cdn.test/x.js', page)).toEqual({ kind: 'cross', host: 'cdn.test' });
    for (const s of [
      'data:image/png;base64,AA',
      'blob:https://example.com/1',
      'javascript:void(0)',
      'mailto:a@b',
      '#top',
      '',
      '   ',
    ])
      expect(r.resolve(s, page).kind).toBe('skip');
    expect(r.resolve('http://[oops', page).kind).toBe('invalid');
    expect(r.resolve('/%E0%A4%A.png', page).kind).toBe('invalid');
    expect(r.resolve('/nope.png', page)).toEqual({ kind: 'missing', url: '/nope.png', path: '/nope.png' });
    expect(r.resolve('/.env', page).kind).toBe('dotfile');
    expect(r.resolve('../../x.png', page).kind).toBe('escape');
    expect(r.resolve('/..%2F..%2Fetc/passwd', page).kind).toBe('escape');
    expect(r.resolve('/a%5Cb.png', page).kind).toBe('escape');
  });
  it('accepts clean URLs only for pages', () => {
    expect(r.resolve('/about', page, true)).toMatchObject({ kind: 'local', path: '/about.html' });
    expect(r.resolve('/guide', page, true)).toMatchObject({ kind: 'local', path: '/guide/index.html' });
    expect(r.resolve('/about', page).kind).toBe('missing');
  });
});

describe('helpers', () => {
  it('climbsAboveRoot counts .. (also percent-encoded) against the base path', () => {
    const base = new URL('http://x/a/b/page.html');
    expect(climbsAboveRoot('../../x.png', base, '/')).toBe(false);
    expect(climbsAboveRoot('../../../x.png', base, '/')).toBe(true);
    expect(climbsAboveRoot('%2e%2e/%2E%2E/%2e./x', base, '/')).toBe(true);
    expect(climbsAboveRoot('/../x', base, '/')).toBe(true);
    expect(climbsAboveRoot('../x.png', new URL('http://x/docs/p.html'), '/docs/')).toBe(true);
    expect(climbsAboveRoot('https://x/../../y', base, '/')).toBe(false);
  });
  it('decodePath rejects encoded separators and NUL', () => {
    expect(decodePath('/a%20b/c')).toBe('/a b/c');
    expect(decodePath('/a%2Fb')).toBeNull();
    expect(decodePath('/a%00b')).toBeNull();
    expect(decodePath('/a%zzb')).toBeUndefined();
  });
  it('page URLs and encoding', () => {
    expect(pageUrlPath('index.html')).toBe('/');
    expect(pageUrlPath('guide/index.html')).toBe('/guide/');
    expect(pageUrlPath('a b/ü.html', '/docs/')).toBe('/docs/a%20b/%C3%BC.html');
    expect(encodePath("/a+b/c?d#e%f/(g)'h")).toBe("/a+b/c%3Fd%23e%25f/(g)'h");
    // As Chromium 156 requests a link to each file (checked with new URL() in the page): '[' ']' stay, '|' '^' do not.
    const chromium: Array<[string, string]> = [
      ['[slug].html', '/[slug].html'],
      ['a|b.html', '/a%7Cb.html'],
      ['a^b.html', '/a%5Eb.html'],
      ["a'b.html", "/a'b.html"],
      ['a!$&()*+,;=@:.html', '/a!$&()*+,;=@:.html'],
      ['a b.html', '/a%20b.html'],
      ['caf\u00e9.html', '/caf%C3%A9.html'],
      ['a{b}.html', '/a%7Bb%7D.html'],
      ['a`b.html', '/a%60b.html'],
      ['a"b.html', '/a%22b.html'],
      ['a<b>.html', '/a%3Cb%3E.html'],
      ['a~b.html', '/a~b.html'],
    ];
    for (const [file, url] of chromium) expect([file, pageUrlPath(file)]).toEqual([file, url]);
    expect(parseOrigin('https://example.com/docs')).toEqual({ origin: 'https://example.com', basePath: '/docs/' });
  });
});
