import { afterEach, describe, expect, it, vi } from 'vitest';
import { cachePrefixFor, isScopeCache } from './cache-scope.js';
import { chromium, webkit } from './engine.js';
import { resolveOptions } from './options.js';

/** Worker navigators as each engine has them (Chromium's with its brands). */
const NAVIGATORS = {
  chromium: {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    userAgentData: { brands: [{ brand: 'Chromium' }, { brand: 'Not?A_Brand' }] },
  },
  webkitgtk: {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
  },
  safari: {
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) ' +
      'Version/18.0 Safari/605.1.15',
  },
  firefox: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0' },
};

afterEach(() => vi.unstubAllGlobals());

describe('the engine, from the worker navigator', () => {
  it('tells Chromium by its brands and WebKit by an AppleWebKit user agent without them', () => {
    const seen = Object.entries(NAVIGATORS).map(([name, n]) => {
      vi.stubGlobal('navigator', n);
      return [name, chromium(), webkit()];
    });
    expect(seen).toEqual([
      ['chromium', true, false],
      ['webkitgtk', false, true],
      ['safari', false, true],
      ['firefox', false, false],
    ]);
    vi.stubGlobal('navigator', undefined);
    expect([chromium(), webkit()]).toEqual([false, false]);
  });

  it('preload: on by default, off in WebKit (its first paint waits for what the header announces) unless set', () => {
    const preload = (n: object, o = {}) => {
      vi.stubGlobal('navigator', n);
      return resolveOptions(o, 'https://x.test').preload;
    };
    expect(preload(NAVIGATORS.chromium)).toBe(true);
    expect(preload(NAVIGATORS.firefox)).toBe(true);
    expect(preload(NAVIGATORS.webkitgtk)).toBe(false);
    expect(preload(NAVIGATORS.webkitgtk, { preload: true })).toBe(true);
    expect(preload(NAVIGATORS.chromium, { preload: false })).toBe(false);
  });
});

describe('resolveOptions', () => {
  it('packageStallMs: 10 s by default; 0, Infinity or beyond setTimeout range switch the watchdog off', () => {
    const stall = (v?: number) =>
      resolveOptions(v === undefined ? {} : { packageStallMs: v }, 'https://x.test').packageStallMs;
    expect(stall()).toBe(10_000);
    expect(stall(500)).toBe(500);
    for (const off of [0, -1, Infinity, NaN, 2 ** 31]) expect(stall(off), String(off)).toBe(0);
  });
  it("registerUrl: the build's /objpack-register.js by default, any path of the origin, '' for none", () => {
    const path = (v?: string) =>
      resolveOptions(v === undefined ? {} : { registerUrl: v }, 'https://x.test').registerPath;
    expect(path()).toBe('/objpack-register.js');
    expect(path('/static/reg.js')).toBe('/static/reg.js');
    expect(path('https://x.test/a/b.js?v=2')).toBe('/a/b.js');
    expect(path('')).toBe('');
  });
});

describe('a worker whose scope is a base path', () => {
  it('looks for the route table and the registration snippet in its scope, and names its caches by it', () => {
    const at = (scope: string) => {
      const o = resolveOptions({}, 'https://x.test', `https://x.test${scope}`);
      return [o.scopePath, o.routesUrl, o.registerPath, o.cachePrefix];
    };
    const root = ['/', 'https://x.test/_objpack/routes.json', '/objpack-register.js', 'objpack-v1'];
    expect(at('/')).toEqual(root);
    const repo = ['/repo/', 'https://x.test/repo/_objpack/routes.json', '/repo/objpack-register.js'];
    expect(at('/repo/').slice(0, 3)).toEqual(repo);
    expect(at('/repo/')[3]).toBe('objpack-v1/repo/');
    expect(at('/caf%C3%A9/b/')[3]).toBe('objpack-v1/caf%C3%A9/b/');
    // Explicit options win.
    expect(
      resolveOptions({ routesUrl: '/t.json', cachePrefix: 'mine' }, 'https://x.test', 'https://x.test/repo/'),
    ).toMatchObject({ routesUrl: 'https://x.test/t.json', cachePrefix: 'mine' });
  });

  it("tells its scope's caches, of any version, from those of other scopes", () => {
    const names = [
      'objpack-v1-meta',
      'objpack-v0-build-x',
      'objpack-v1/repo/-meta',
      'objpack-v2/repo/-shared-/repo/_objpack/shared/a.objp',
      'objpack-v1/repo/b/-meta',
      'objpack-v1/rep-meta',
      'other',
      'objpack-custom-meta',
    ];
    const of = (scope: string) => names.filter((n) => isScopeCache(n, scope));
    expect(of('/')).toEqual(['objpack-v1-meta', 'objpack-v0-build-x']);
    expect(of('/repo/')).toEqual(['objpack-v1/repo/-meta', 'objpack-v2/repo/-shared-/repo/_objpack/shared/a.objp']);
    expect(of('/repo/b/')).toEqual(['objpack-v1/repo/b/-meta']);
    for (const scope of ['/', '/repo/', '/repo/b/'])
      expect(isScopeCache(`${cachePrefixFor(scope)}-meta`, scope)).toBe(true);
  });
});
