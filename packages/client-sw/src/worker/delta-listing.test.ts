/**
 * The worker's side of `objpack serve`'s delta listing, with Cache Storage and fetch faked (the Chromium
 * tests in delta.test.ts cover the real thing): which packages it asks for, and that a failure is not
 * repeated on every navigation.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveOptions } from '../options.js';
import { Delta, LISTING_RETRY_MS } from './delta.js';
import { Store } from './store.js';

const O = 'https://site.example';
const D = (c: string) => `sha256-${c.repeat(43)}=`;

class FakeCache {
  readonly m = new Map<string, Response>();
  async match(k: string | Request) {
    return this.m.get(typeof k === 'string' ? k : k.url)?.clone();
  }
  async put(k: string, r: Response) {
    this.m.set(k, r);
  }
  async keys() {
    return [...this.m.keys()].map((u) => new Request(u));
  }
}

let requests: URL[] = [];
let answer: (url: URL) => Response | Promise<Response>;

beforeEach(() => {
  const stores = new Map<string, FakeCache>();
  vi.stubGlobal('caches', {
    open: async (n: string) => stores.get(n) ?? stores.set(n, new FakeCache()).get(n)!,
    keys: async () => [...stores.keys()],
    match: async (k: string, { cacheName }: { cacheName: string }) => stores.get(cacheName)?.match(k),
  });
  vi.stubGlobal('fetch', async (u: string) => {
    const url = new URL(u);
    requests.push(url);
    return answer(url);
  });
  requests = [];
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** A capable Delta holding `n` page packages of build b1 (path length grows with `pad`). */
function holding(n: number, pad = 0): Delta {
  const d = new Delta(new Store('objpack-v1', O), resolveOptions({}, O));
  d.capable = true;
  for (let i = 0; i < n; i++) {
    d.add(
      'objpack-v1-build-b1',
      { buildId: 'b1', sharedRefs: [], html: `/p${i}`, objects: [{ name: `/p${i}`, digest: D('A') }] },
      `/_objpack/pages/${'x'.repeat(pad)}p${i}.objp`,
    );
  }
  return d;
}
const asked = (u: URL) => u.searchParams.getAll('p');
/** A server with `buildId` listing every asked package (none complete). */
const lists = (buildId: string) => (u: URL) =>
  Response.json({
    buildId,
    complete: false,
    packages: Object.fromEntries(asked(u).map((p) => [p, [[p, D('B'), 'text/html']]])),
  });

describe('Delta listing requests', () => {
  it('a complete listing is the only request of its build', async () => {
    const d = holding(3);
    answer = () => Response.json({ buildId: 'b2', complete: true, packages: {} });
    for (let i = 0; i < 3; i++) await d.refresh('b2');
    expect(requests.map(asked)).toEqual([
      ['/_objpack/pages/p0.objp', '/_objpack/pages/p1.objp', '/_objpack/pages/p2.objp'],
    ]);
  });

  it('held packages are asked once per build, answered or absent; new ones on a later refresh', async () => {
    const d = holding(2);
    answer = (u) =>
      Response.json({ buildId: 'b2', complete: false, packages: { [asked(u)[0]!]: [['/p0', D('B'), 'text/html']] } });
    await d.refresh('b2');
    await d.refresh('b2');
    d.add(
      'objpack-v1-build-b2',
      { buildId: 'b2', sharedRefs: [], html: '/p9', objects: [] },
      '/_objpack/pages/p9.objp',
    );
    await d.refresh('b2');
    await d.refresh('b2');
    expect(requests.map(asked)).toEqual([
      ['/_objpack/pages/p0.objp', '/_objpack/pages/p1.objp'],
      ['/_objpack/pages/p9.objp'],
    ]);
  });

  it.each([
    ['404 (a server without the listing)', () => new Response('no', { status: 404 })],
    ['a listing over 4 MB', () => new Response(' '.repeat(4 * 1024 * 1024 + 1))],
    ['not JSON', () => new Response('<html>')],
    ['a network error', () => Promise.reject(new TypeError('offline'))],
    ['another build (a deploy under way)', lists('b1')],
  ])('after %s: no new request for a minute, then the same packages again', async (_, fail) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const d = holding(2);
    answer = fail as (u: URL) => Response;
    for (let i = 0; i < 4; i++) await d.refresh('b2');
    expect(requests).toHaveLength(1);
    vi.setSystemTime(Date.now() + LISTING_RETRY_MS + 1);
    answer = lists('b2');
    await d.refresh('b2');
    expect(requests.map(asked)).toEqual([0, 1].map(() => ['/_objpack/pages/p0.objp', '/_objpack/pages/p1.objp']));
    expect(d.plan('/_objpack/pages/p1.objp', 'b2')).toBeUndefined(); // listed, but nothing of it is held
    expect((d as unknown as { listing: { packages: object } }).listing.packages).toHaveProperty([
      '/_objpack/pages/p1.objp',
    ]);
  });

  it('keeps the URL under 6,000 characters (paths are encoded twice); the rest go in the next request', async () => {
    const d = holding(40, 200);
    answer = lists('b2');
    await d.refresh('b2');
    await d.refresh('b2');
    await d.refresh('b2');
    expect(requests.every((u) => u.href.length <= 6000)).toBe(true);
    expect(requests.length).toBeGreaterThan(1);
    expect(requests.flatMap(asked)).toHaveLength(40);
    expect(new Set(requests.flatMap(asked)).size).toBe(40);
  });

  it("under a base, asks its scope's listing and takes the packages named in its scope", async () => {
    const scope = `${O}/repo/`;
    const d = new Delta(new Store('objpack-v1/repo/', O), resolveOptions({}, O, scope));
    d.capable = true;
    const page = '/repo/_objpack/pages/p0.objp';
    const record = { buildId: 'b1', sharedRefs: [], html: '/repo/p0', objects: [{ name: '/repo/p0', digest: D('A') }] };
    d.add('objpack-v1/repo/-build-b1', record, page);
    answer = lists('b2');
    await d.refresh('b2');
    expect(requests.map((u) => u.pathname)).toEqual(['/repo/_objpack/listing']);
    expect(requests.map(asked)).toEqual([[page]]);
    expect((d as unknown as { listing: { packages: object } }).listing.packages).toHaveProperty([page]);
  });
});
