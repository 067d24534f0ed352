/**
 * A restarted worker's first lookup, with Cache Storage faked: every read waits until the test answers it,
 * so the test sees which reads are asked for together and which wait for an earlier answer.
 */
import type { RouteTable } from '@objpack/format';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveOptions } from '../options.js';
import { lookupRoute, Routes } from './routes.js';
import { Store } from './store.js';

const O = 'https://site.example';
const TABLE_URL = `${O}/_objpack/routes.json`;
const CORE_URL = `${TABLE_URL}?objpack-shard=core`;

/** Reads asked for and not answered yet, by key. */
let pending: Map<string, (res: Response | undefined) => void>;

beforeEach(() => {
  pending = new Map();
  const match = (key: string) => new Promise<Response | undefined>((resolve) => pending.set(key, resolve));
  vi.stubGlobal('caches', { match });
});
afterEach(() => vi.unstubAllGlobals());

/** Lets every read the code can ask for without a new answer be asked for. */
const settle = () => new Promise((r) => setTimeout(r, 0));

const table: RouteTable = {
  version: 1,
  buildId: 'b1',
  packages: ['/_objpack/pages/about.html.objp'],
  pages: { '/about.html': [0] },
};

describe('a restarted worker looks a page up', () => {
  it('asks for the shard core and the whole table together: a small site has no core', async () => {
    const routes = new Routes(new Store('objpack-v1', O), resolveOptions({}, O), async () => {});
    const found = routes.forPath('/about.html');
    await settle();
    expect([...pending.keys()].sort()).toEqual([TABLE_URL, CORE_URL].sort());
    pending.get(CORE_URL)!(undefined);
    pending.get(TABLE_URL)!(Response.json(table));
    const got = await found;
    expect(lookupRoute(got!, '/about.html')?.page).toBe('/_objpack/pages/about.html.objp');
  });

  it('reads a shard, not the whole table, when a core names one', async () => {
    const routes = new Routes(new Store('objpack-v1', O), resolveOptions({}, O), async () => {});
    const found = routes.forPath('/about.html');
    await settle();
    pending.get(CORE_URL)!(Response.json({ id: 's1', shards: 1, buildId: 'b1' }));
    await settle();
    const shardUrl = `${TABLE_URL}?objpack-shard=0`;
    expect(pending.has(shardUrl)).toBe(true);
    pending.get(shardUrl)!(Response.json({ ...table, shardOf: 's1' }));
    // The whole table's answer never comes: the lookup does not wait for it.
    expect((await found)?.buildId).toBe('b1');
  });
});
