import type { RouteTable } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import type { Binding } from './binding.js';
import { OtherPages, type WorkerParts } from './other-pages.js';

const HOME = '/_objpack/pages/index.html.objp';
const ABOUT = '/_objpack/pages/about.html.objp';
const KEPT = '/_objpack/pages/old.html.objp';
const SHARED = '/_objpack/shared/0123.objp';
const ABOUT_SHARED = '/_objpack/shared/4567.objp';
/** Build b2: /about.html's package and one shared package the home page does not use; old.html kept from b1. */
const TABLE: RouteTable = {
  version: 1 as RouteTable['version'],
  buildId: 'b2',
  packages: [HOME, SHARED, ABOUT, ABOUT_SHARED, KEPT],
  pages: { '/': [0, 1], '/about.html': [2, 1, 3], '/old.html': [4, 1] },
  packageBuilds: { '4': 'b1' },
};

/** A worker with `table` current and Cache Storage answering every name in the caches it was given. */
function worker(table: RouteTable | undefined): { w: WorkerParts; asked: string[][] } {
  const asked: string[][] = [];
  const w = {
    runs: new Map(),
    routes: { current: async () => table },
    store: {
      match: async (names: readonly string[], name: string) => (
        asked.push([...names, name]),
        new Response(`${names[0]} ${name}`)
      ),
    },
    options: { onEvent: () => {} },
  } as unknown as WorkerParts;
  return { w, asked };
}

const homeBinding = (buildId = 'b2'): Binding => ({
  buildId,
  packages: [
    { path: HOME, cacheName: 'build-b2' },
    { path: SHARED, cacheName: 'shared-0123' },
  ],
  createdAt: 0,
});

describe("OtherPages: objects of other pages of the page's build (client-side routers)", () => {
  it('answers from a held page package and a held shared package of the build', async () => {
    const o = new OtherPages();
    o.add('build-b2', { buildId: 'b2', sharedRefs: [], objects: [{ name: '/about.css', digest: 'd' }] }, ABOUT);
    o.add('shared-4567', { buildId: '', sharedRefs: [], objects: [{ name: '/chunk.js', digest: 'd' }] }, ABOUT_SHARED);
    o.add('build-b1', { buildId: 'b1', sharedRefs: [], objects: [{ name: '/old.css', digest: 'd' }] }, KEPT);
    const { w } = worker(TABLE);
    expect(o.mayHave(w, '/about.css')).toBe(true);
    expect(await (await o.answer(w, homeBinding(), '/about.css', 'https://x/about.css'))?.text()).toBe(
      'build-b2 /about.css',
    );
    expect(await (await o.answer(w, homeBinding(), '/chunk.js', 'https://x/chunk.js'))?.text()).toBe(
      'shared-4567 /chunk.js',
    );
    // A page package kept byte for byte from b1 belongs to b2 (the table's packageBuilds says so).
    expect(await (await o.answer(w, homeBinding(), '/old.css', 'https://x/old.css'))?.text()).toBe('build-b1 /old.css');
    expect(o.mayHave(w, '/nowhere.png')).toBe(false);
    expect(await o.answer(w, homeBinding(), '/nowhere.png', 'https://x/nowhere.png')).toBeUndefined();
  });

  it(
    'never mixes builds: not for a page of another build ' + 'than the table, not from a package of an older deploy',
    async () => {
      const o = new OtherPages();
      o.add('build-b1', { buildId: 'b1', sharedRefs: [], objects: [{ name: '/about.css', digest: 'd' }] }, ABOUT);
      o.add(
        'shared-89ab',
        { buildId: '', sharedRefs: [], objects: [{ name: '/gone.js', digest: 'd' }] },
        '/_objpack/shared/89ab.objp',
      );
      const { w, asked } = worker(TABLE);
      // /about.html's package of b1: the same URL as b2's, another content.
      expect(await o.answer(w, homeBinding(), '/about.css', 'https://x/about.css')).toBeUndefined();
      // A shared package the table does not list is another build's.
      expect(await o.answer(w, homeBinding(), '/gone.js', 'https://x/gone.js')).toBeUndefined();
      o.add('build-b2', { buildId: 'b2', sharedRefs: [], objects: [{ name: '/about.css', digest: 'd' }] }, ABOUT);
      // A page answered from b1 while the table is b2's: its other pages are not known.
      expect(await o.answer(w, homeBinding('b1'), '/about.css', 'https://x/about.css')).toBeUndefined();
      expect(await o.answer(worker(undefined).w, homeBinding(), '/about.css', 'https://x/about.css')).toBeUndefined();
      expect(asked).toEqual([]);
    },
  );

  it('leaves packages the page is bound to to its binding, and forgets deleted caches', async () => {
    const o = new OtherPages();
    o.add('shared-0123', { buildId: '', sharedRefs: [], objects: [{ name: '/site.css', digest: 'd' }] }, SHARED);
    o.add('build-b2', { buildId: 'b2', sharedRefs: [], objects: [{ name: '/about.css', digest: 'd' }] }, ABOUT);
    const { w } = worker(TABLE);
    expect(await o.answer(w, homeBinding(), '/site.css', 'https://x/site.css')).toBeUndefined();
    o.forget(['build-b2']);
    expect(o.mayHave(w, '/about.css')).toBe(false);
    expect(await o.answer(w, homeBinding(), '/about.css', 'https://x/about.css')).toBeUndefined();
  });
});
