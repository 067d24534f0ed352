import type { RouteTable } from '@objpack/format';
import type { Binding } from './binding.js';
import type { ResolvedOptions } from '../options.js';
import type { PackageRun } from './package-run.js';
import { objectResponse } from './object-response.js';
import { partialResponse } from './partial.js';
import type { HeldRecord, Store } from './store.js';

/** What of the worker this needs: its runs, its current table, Cache Storage. */
export interface WorkerParts {
  runs: ReadonlyMap<string, PackageRun>;
  routes: { current(): Promise<RouteTable | undefined> };
  store: Pick<Store, 'match'>;
  options: Pick<ResolvedOptions, 'onEvent'>;
}

interface Home {
  cacheName: string;
  /** The package's URL path. */
  path: string;
  /** The build id in the package's index ('' for a shared package). */
  buildId: string;
}

/**
 * Objects of the other pages of a page's build. A client-side router (Next's `<Link>`, Docusaurus,
 * VitePress, Astro's view transitions) shows another page without a navigation: it pushes the new URL and
 * asks for that page's objects, while the worker answers a page's requests from the packages of the
 * document it served (`Client.url` keeps the first URL). Those packages are often here already, fetched
 * ahead when the link was seen or hovered. Only packages of the page's own build answer, by the route table
 * of that build: a page never mixes two deploys.
 */
export class OtherPages {
  /** Object name → complete packages in Cache Storage that carry it (seen by this worker since it started). */
  private readonly held = new Map<string, Home[]>();
  /** Package path → its position in a table's `packages` and whether it is a page's own, per table. */
  private readonly positions = new WeakMap<RouteTable, Map<string, { at: number; page: boolean }>>();

  add(cacheName: string, record: HeldRecord, path: string): void {
    for (const o of record.objects) {
      const homes = this.held.get(o.name) ?? [];
      if (!homes.some((h) => h.cacheName === cacheName && h.path === path))
        homes.push({ cacheName, path, buildId: record.buildId });
      this.held.set(o.name, homes);
    }
  }

  forget(cacheNames: readonly string[]): void {
    const gone = new Set(cacheNames);
    for (const [name, homes] of this.held) {
      const kept = homes.filter((h) => !gone.has(h.cacheName));
      if (kept.length === 0) this.held.delete(name);
      else if (kept.length < homes.length) this.held.set(name, kept);
    }
  }

  reset(): void {
    this.held.clear();
  }

  /** Whether a package the page is not bound to may carry `name` (known without waiting). */
  mayHave(w: WorkerParts, name: string): boolean {
    return this.held.has(name) || [...w.runs.values()].some((r) => r.indexed && r.slots.has(name));
  }

  /** The object from a package of `binding`'s build it is not bound to, in flight or held; undefined if none. */
  async answer(w: WorkerParts, binding: Binding, name: string, url: string): Promise<Response | undefined> {
    const homes = this.held.get(name);
    const inFlight = [...w.runs.values()].filter((r) => r.indexed && r.slots.has(name));
    if (!homes && inFlight.length === 0) return undefined;
    const table = await w.routes.current();
    if (!table || table.buildId !== binding.buildId) return undefined;
    const bound = new Set(binding.packages.map((p) => p.path));
    const ofBuild = (path: string, buildId: string) => {
      const p = this.positionsOf(table).get(path);
      if (p === undefined || bound.has(path)) return false;
      // A shared package is named by its content; a page package's name is the same in every build, its index says
      // which.
      return p.page ? buildId === table.buildId || buildId === table.packageBuilds?.[String(p.at)] : buildId === '';
    };
    for (const run of inFlight) {
      if (!ofBuild(run.path, run.buildId)) continue;
      const slot = run.slots.get(name)!;
      const bytes = await slot.done.catch(() => undefined);
      if (!bytes) continue;
      w.options.onEvent({ type: 'object-served', url: name, detail: 'other-page' });
      return slot.entry.partial
        ? partialResponse(slot.entry, bytes, url, run.buildId)
        : objectResponse(slot.entry, bytes, run.buildId);
    }
    for (const h of homes ?? []) {
      if (!ofBuild(h.path, h.buildId)) continue;
      const res = await w.store.match([h.cacheName], name);
      if (res) {
        w.options.onEvent({ type: 'object-served', url: name, detail: 'other-page' });
        return res;
      }
    }
    return undefined;
  }

  private positionsOf(table: RouteTable): Map<string, { at: number; page: boolean }> {
    let map = this.positions.get(table);
    if (!map) {
      const pages = new Set(Object.values(table.pages).map((refs) => refs[0]));
      map = new Map(table.packages.map((p, i) => [p, { at: i, page: pages.has(i) }]));
      this.positions.set(table, map);
    }
    return map;
  }
}
