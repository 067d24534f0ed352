import { describe, expect, it } from 'vitest';
import { resolveOptions } from './options.js';

describe('resolveOptions', () => {
  it('packageStallMs: 10 s by default; 0, Infinity or beyond setTimeout range switch the watchdog off', () => {
    const stall = (v?: number) => resolveOptions(v === undefined ? {} : { packageStallMs: v }, 'https://x.test').packageStallMs;
    expect(stall()).toBe(10_000);
    expect(stall(500)).toBe(500);
    for (const off of [0, -1, Infinity, NaN, 2 ** 31]) expect(stall(off), String(off)).toBe(0);
  });
  it("registerUrl: the build's /objpack-register.js by default, any path of the origin, '' for none", () => {
    const path = (v?: string) => resolveOptions(v === undefined ? {} : { registerUrl: v }, 'https://x.test').registerPath;
    expect(path()).toBe('/objpack-register.js');
    expect(path('/static/reg.js')).toBe('/static/reg.js');
    expect(path('https://x.test/a/b.js?v=2')).toBe('/a/b.js');
    expect(path('')).toBe('');
  });
});
