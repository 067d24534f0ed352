import { describe, expect, it } from 'vitest';
import { isNotModified, negotiateEncoding, parseRange, reusableWithoutAsking, wantsPackage } from './http-semantics.js';
import { parseHave } from './dynamic.js';
import { encodePathForHeader, parseRequestPath } from './url-path.js';

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-1000', 100, { start: 0, end: 99 }],
    ['bytes=50-5000', 100, { start: 50, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    ['bytes=0-1,3-4', 100, null],
    ['bytes=9-1', 100, null],
    ['items=0-1', 100, null],
    ['bytes=-', 100, null],
  ] as const)('%s of %d', (h, size, want) => {
    expect(parseRange(h, size)).toEqual(want);
  });
});

describe('negotiation', () => {
  it('picks the best coding by q-value, br first on ties, none when refused', () => {
    const both = { br: true, gzip: true };
    expect(negotiateEncoding('gzip, deflate, br', both)).toBe('br');
    expect(negotiateEncoding('br;q=0.5, gzip', both)).toBe('gzip');
    expect(negotiateEncoding('*', both)).toBe('br');
    expect(negotiateEncoding('*;q=0, gzip;q=0', both)).toBeNull();
    expect(negotiateEncoding('br', { br: false, gzip: true })).toBeNull();
    expect(negotiateEncoding(undefined, both)).toBeNull();
  });

  it('recognises package requests', () => {
    expect(wantsPackage('application/vnd.objpack', undefined)).toBe(true);
    expect(wantsPackage('text/html, application/vnd.objpack;q=0', undefined)).toBe(false);
    expect(wantsPackage('text/html', 'package')).toBe(true);
    expect(wantsPackage('text/html', undefined)).toBe(false);
  });

  it('compares validators strongly', () => {
    expect(isNotModified('"a", "b"', undefined, ['"b"'], 0)).toBe(true);
    expect(isNotModified('W/"b"', undefined, ['"b"'], 0)).toBe(false);
    expect(isNotModified('*', undefined, ['"b"'], 0)).toBe(true);
    // If-None-Match wins over If-Modified-Since.
    expect(isNotModified('"x"', new Date().toUTCString(), ['"b"'], 0)).toBe(false);
  });
});

describe('request paths', () => {
  it('decodes once and refuses dot segments, backslashes, NUL and bad UTF-8', () => {
    expect(parseRequestPath('/a%20b.txt?x=1')).toEqual({ ok: true, path: '/a b.txt', query: 'x=1' });
    expect(parseRequestPath('/%252e%252e/x')).toEqual({ ok: true, path: '/%2e%2e/x', query: '' });
    for (const bad of [
      '/../x',
      '/%2e%2e/x',
      '/a/%2E/b',
      '/..%5cx',
      '/a\\b',
      '/a%00',
      '/%c0%ae%c0%ae/',
      '/%',
      'x',
      '',
    ]) {
      expect(parseRequestPath(bad).ok).toBe(false);
    }
  });

  it('encodes header paths so no CR/LF or delimiters survive', () => {
    expect(encodePathForHeader('/a b\r\n<x>;,#.css?v=1')).toBe('/a%20b%0D%0A%3Cx%3E%3B%2C%23.css?v=1');
  });

  it('parses X-Objpack-Have leniently and bounds it', () => {
    expect(parseHave('sha256-AAAAAAAAAAA=, abcdefgh, short, !!!!!!!!!!, a-b_cdefgh')).toEqual([
      'AAAAAAAAAAA',
      'abcdefgh',
      'a+b/cdefgh',
    ]);
    expect(parseHave(undefined)).toBeNull();
    expect(parseHave(Array.from({ length: 5000 }, () => 'abcdefgh').join(','))!.length).toBe(2000);
  });
});

describe('reusableWithoutAsking', () => {
  it('is true only for a fresh response that needs no revalidation', () => {
    expect(reusableWithoutAsking('public, max-age=31536000, immutable')).toBe(true);
    expect(reusableWithoutAsking('max-age="60"')).toBe(true);
    for (const cc of [
      undefined,
      '',
      'public, max-age=0, must-revalidate',
      'no-cache',
      'max-age=600, no-cache',
      'no-store, max-age=60',
      'public',
    ]) {
      expect(reusableWithoutAsking(cc), String(cc)).toBe(false);
    }
  });
});
