import { describe, expect, it } from 'vitest';
import { checkBasePath, underBase } from './base-path.js';

const base = (input: unknown) => {
  const r = checkBasePath(input);
  return r.ok ? r.base : undefined;
};

describe('checkBasePath', () => {
  it('gives one spelling: leading and trailing slash, escapes as a browser sends them', () => {
    expect(base('/')).toBe('/');
    expect(base('/repo')).toBe('/repo/');
    expect(base('/repo/')).toBe('/repo/');
    expect(base('/a/b')).toBe('/a/b/');
    expect(base('/my docs/')).toBe('/my%20docs/');
    expect(base('/café/')).toBe('/caf%C3%A9/');
    expect(base('/caf%c3%a9')).toBe('/caf%C3%A9/');
    // What Chromium leaves literal in a path stays literal: page URLs are spelt so.
    expect(base('/%5Bx%5D/')).toBe('/[x]/');
    expect(base('/a%7Cb/')).toBe('/a%7Cb/');
  });

  it('refuses what is not a path, with the reason', () => {
    for (const bad of [
      '',
      'repo/',
      'https://example.com/repo/',
      '//cdn.example/repo/',
      '/repo/?x=1',
      '/repo#top',
      '/a/../b/',
      '/./',
      '/a//b/',
      '/a\\b/',
      '/a%2Fb/',
      '/a/_objpack/',
      '/a%5Cb/',
      '/%zz/',
      '/%C3/',
      '/a\u0000/',
      '/%2e%2E/',
      7,
      undefined,
    ]) {
      const r = checkBasePath(bad);
      expect(r.ok, String(bad)).toBe(false);
      if (!r.ok) expect(r.reason.length).toBeGreaterThan(10);
    }
  });

  it('puts site paths under a base', () => {
    expect(underBase('/', '/a.css')).toBe('/a.css');
    expect(underBase('/repo/', '/a.css')).toBe('/repo/a.css');
    expect(underBase('/a/b/', '/')).toBe('/a/b/');
  });
});
