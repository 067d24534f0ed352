/**
 * Route table refreshes with Cache Storage and fetch faked: a rebuild that only turns clean URLs on or off
 * keeps its build id (it hashes the packages), and the worker must still take the new table.
 */
import type { RouteTable } from '@objpack/format';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveOptions } from '../options.js';
import { lookupRoute, Routes } from './routes.js';
import { Store } from './store.js';

const O = 'https://site.example';
let served: RouteTable;

beforeEach(() => {
  const stores = new Map<string, Map<string, Response>>();
  const open = async (n: string) => {
    const m = stores.get(n) ?? stores.set(n, new Map()).get(n)!;
    return { match: async (k: string) => m.get(k)?.clone(), put: async (k: string, r: Response) => void m.set(k, r) };
  };
  vi.stubGlobal('caches', { open, keys: async () => [...stores.keys()] });
  vi.stubGlobal('fetch', async () => Response.json(served));
});
afterEach(() => vi.unstubAllGlobals());

const table = (buildId: string, cleanUrls: boolean): RouteTable => ({
  version: 1, buildId, packages: ['/_objpack/pages/about.html.objp'], pages: { '/about.html': [0] }, ...(cleanUrls ? { cleanUrls: true as const } : {}),
});

describe('Routes.refresh', () => {
  it('takes a table of the same build whose clean-URL setting changed, without adopting a new build', async () => {
    const adopted: string[] = [];
    const routes = new Routes(new Store('objpack-v1', O), resolveOptions({}, O), async (t) => void adopted.push(t.buildId));
    served = table('b1', true);
    await routes.refresh();
    expect(lookupRoute(routes.table!, '/about')?.key).toBe('/about.html');
    served = table('b1', false);
    await routes.refresh();
    expect(lookupRoute(routes.table!, '/about')).toBeUndefined();
    expect(adopted).toEqual(['b1']);
    // A restarted worker reads the saved copy: the new setting.
    const again = new Routes(new Store('objpack-v1', O), resolveOptions({}, O), async () => {});
    expect((await again.current())?.cleanUrls).toBeUndefined();
    // Same build and same setting: the table in memory stays (no re-parse, no write).
    const kept = routes.table;
    await routes.refresh();
    expect(routes.table).toBe(kept);
  });
});
