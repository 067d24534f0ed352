import { describe, expect, it } from 'vitest';
import { cachePrefixFor, isScopeCache } from './cache-scope.js';
import { resolveOptions } from './options.js';

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
