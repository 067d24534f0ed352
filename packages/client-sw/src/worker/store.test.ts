/**
 * A worker replaced by a newer version writes nothing more (Store.retired): the new version deletes the old
 * layout's caches once, when it activates, and any later `caches.open` of the old worker made one again
 * (deploy.test.ts's "no stuck stale site" caught `objpack-v1-meta` back under load).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeCaches } from '../test-utils/fake-package.js';
import { Store } from './store.js';

const O = 'https://site.example';

afterEach(() => vi.unstubAllGlobals());

describe('Store of a retired worker', () => {
  it('makes no cache and writes nothing; a live one does', async () => {
    for (const retired of [true, false]) {
      const cs = new FakeCaches();
      vi.stubGlobal('caches', cs);
      const store = new Store('objpack-v1', O, () => retired);
      await store.saveClient('c1', { buildId: 'b1', packages: [], at: 1 });
      await store.markHeld('objpack-v1-build-b1', '/_objpack/pages/index.html.objp', { objects: [] } as never);
      await store.putMeta(store.key('/_objpack/routes.json'), new Response('{}'));
      expect([...cs.stores.keys()].sort()).toEqual(retired ? [] : ['objpack-v1-build-b1', 'objpack-v1-meta']);
    }
  });

  it('does not make its meta cache again to forget a page', async () => {
    const cs = new FakeCaches();
    vi.stubGlobal('caches', cs);
    await new Store('objpack-v1', O, () => true).forgetClient('c1');
    expect(cs.stores.size).toBe(0);
  });
});
