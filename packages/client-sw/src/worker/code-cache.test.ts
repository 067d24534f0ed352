/**
 * Which copy of a shared script goes into Cache Storage (code-cache.ts): the HTTP cache's, only in Chromium,
 * only without the network, only when it is the very same bytes and type. The browser test (package-bytes.test.ts)
 * shows Chromium storing the snippet that way.
 */
import type { ObjectEntry } from '@objpack/format';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { httpCachedScript } from './code-cache.js';

const URL_ = 'https://site.example/assets/main.js';
const body = new Uint8Array(4096).map((_, i) => i & 0xff);
const entry = (contentType = 'text/javascript; charset=utf-8', size = body.length) =>
  ({ name: '/assets/main.js', contentType, totalSize: size }) as unknown as ObjectEntry;

/** A response as Chromium's fetch gives it: same-origin (`basic`), its headers, its bytes. */
function cached(bytes: Uint8Array, headers: Record<string, string> = {}, type = 'basic', status = 200) {
  const h = new Headers({ 'content-type': 'text/javascript', ...headers });
  return { status, type, headers: h, clone: () => ({ arrayBuffer: async () => bytes.slice().buffer }) };
}

let answer: () => unknown;
const fetchSpy = vi.fn(async (_url: string, _init: RequestInit) => answer());
beforeEach(() => {
  fetchSpy.mockClear();
  vi.stubGlobal('fetch', fetchSpy);
  vi.stubGlobal('navigator', { userAgentData: { brands: [{ brand: 'Chromium' }, { brand: 'Not?A_Brand' }] } });
});
afterEach(() => vi.unstubAllGlobals());

describe('httpCachedScript', () => {
  it("takes the HTTP cache's copy of the same bytes, asked for without the network", async () => {
    const res = cached(body);
    answer = () => res;
    expect(await httpCachedScript(URL_, entry(), body)).toBe(res);
    expect(fetchSpy).toHaveBeenCalledWith(URL_, { cache: 'only-if-cached', mode: 'same-origin', redirect: 'error' });
  });

  it('keeps the package copy for other bytes, another type, a Vary header, a miss or an error', async () => {
    const other = body.slice();
    other[100]! ^= 1;
    for (const res of [
      cached(other),
      cached(body.slice(1)),
      cached(body, { 'content-type': 'text/plain' }),
      cached(body, { vary: 'accept-encoding' }),
      cached(body, {}, 'opaque'),
      cached(body, {}, 'basic', 504),
    ]) {
      answer = () => res;
      expect(await httpCachedScript(URL_, entry(), body)).toBeUndefined();
    }
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    expect(await httpCachedScript(URL_, entry(), body)).toBeUndefined();
  });

  it('asks nothing for what is no script, a script too short to compile to a cache, or outside Chromium', async () => {
    answer = () => cached(body);
    expect(await httpCachedScript(URL_, entry('text/css'), body)).toBeUndefined();
    expect(await httpCachedScript(URL_, entry(), body.slice(0, 100))).toBeUndefined();
    vi.stubGlobal('navigator', { userAgent: 'Firefox' });
    expect(await httpCachedScript(URL_, entry(), body)).toBeUndefined();
    expect(fetchSpy).not.toHaveBeenCalled();
    // A module's type too.
    vi.stubGlobal('navigator', { userAgentData: { brands: [{ brand: 'Chromium' }] } });
    expect(await httpCachedScript(URL_, entry('application/javascript'), body)).toBeUndefined(); // cached is text/…
    answer = () => cached(body, { 'content-type': 'application/javascript' });
    expect(await httpCachedScript(URL_, entry('application/javascript'), body)).toBeDefined();
  });
});
