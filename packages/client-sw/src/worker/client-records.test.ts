/**
 * Pinning open pages before the table moves (client-records.ts), with the worker faked; the Chromium cases
 * (a worker stopped before the save, twice) are in deploy.test.ts.
 */
import type { RouteTable } from '@objpack/format';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Binding } from './binding.js';
import type { ClientRecord } from './store.js';
import { Store } from './store.js';

const O = 'https://site.example';
const v1: RouteTable = {
  version: 1,
  buildId: 'b1',
  packages: ['/_objpack/pages/index.html.objp', '/_objpack/pages/about/index.html.objp', '/_objpack/shared/s1.objp'],
  pages: { '/': [0, 2], '/about/': [1, 2] },
};

// client-records.ts is typed for the WebWorker lib (through subresource.ts), which the tests' DOM lib lacks.
const at = './client-records.js';
const load = async () =>
  (await import(/* @vite-ignore */ at)) as {
    pinOpenPages: (w: unknown, outgoing: RouteTable | undefined) => Promise<void>;
  };

/** A worker with these open pages, saved records and bindings; `saved` collects what gets written. */
function worker(
  open: Array<{ id: string; url: string }>,
  records: Record<string, ClientRecord>,
  bindings: Record<string, Binding>,
) {
  const store = new Store('objpack-v1', O);
  const saved = new Map<string, ClientRecord>();
  vi.spyOn(store, 'clients').mockResolvedValue(new Map(Object.entries(records)));
  vi.spyOn(store, 'saveClient').mockImplementation(async (id, record) => void saved.set(id, record));
  const w = {
    scope: { clients: { matchAll: async () => open } },
    store,
    runs: new Map(),
    bindings: new Map(Object.entries(bindings)),
  };
  return { w, saved };
}
const bound = (buildId: string, extra: Partial<Binding> = {}): Binding => ({
  buildId,
  packages: [{ path: '/_objpack/pages/index.html.objp', cacheName: `objpack-v1-build-${buildId}` }],
  createdAt: 1,
  ...extra,
});

afterEach(() => vi.useRealTimers());

describe('pinOpenPages', () => {
  it(
    'saves every open page without a record: its binding, or ' +
      'for a page known only from the table, the outgoing table',
    async () => {
      const { pinOpenPages } = await load();
      const { w, saved } = worker(
        [
          { id: 'answered', url: `${O}/` },
          { id: 'restarted', url: `${O}/about/` },
          { id: 'recorded', url: `${O}/` },
          { id: 'elsewhere', url: `${O}/blog/` },
        ],
        { recorded: { buildId: 'b0', packages: [], at: 1 } },
        { answered: bound('b1'), done: bound('b1', { saved: true }), unlisted: bound('b1') },
      );
      await pinOpenPages(w, v1);
      expect([...saved.keys()].sort()).toEqual(['answered', 'elsewhere', 'restarted', 'unlisted']);
      expect(saved.get('restarted')).toMatchObject({
        buildId: 'b1',
        packages: [
          { path: '/_objpack/pages/about/index.html.objp', cacheName: 'objpack-v1-build-b1' },
          { path: '/_objpack/shared/s1.objp', cacheName: 'objpack-v1-shared-/_objpack/shared/s1.objp' },
        ],
      });
      // A page the table does not have goes to the network, now and after a restart.
      expect(saved.get('elsewhere')).toMatchObject({ buildId: '', packages: [] });
      expect(w.bindings.get('restarted')?.saved).toBe(true);
      expect(w.bindings.get('restarted')?.packages[0]?.run).toBeUndefined();
    },
  );

  it("waits for an early-answered page's re-planning, but not for ever", async () => {
    vi.useFakeTimers();
    const { pinOpenPages } = await load();
    let replan!: () => void;
    const replanned = bound('b1', { ready: new Promise<void>((r) => (replan = r)) });
    const stalled = bound('b1', { ready: new Promise<void>(() => {}) });
    const { w, saved } = worker([], {}, { replanned, stalled });
    let done = false;
    const pinning = pinOpenPages(w, v1).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(100);
    replanned.buildId = 'b2';
    replan();
    await vi.advanceTimersByTimeAsync(100);
    expect(saved.get('replanned')?.buildId).toBe('b2');
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    await pinning;
    expect(saved.has('stalled')).toBe(false);
  });
});
