import type { PackageIndex, RouteTable } from '@objpack/format';
import type { PackageRun } from './package-run.js';
import type { Route } from './routes.js';

/** Where a page's objects come from: its packages in order, each in flight (run) or in its cache. */
export interface Binding {
  buildId: string;
  packages: BoundPackage[];
  createdAt: number;
  /**
   * The page has made requests, so its client is committed: once `clients.get()` no longer finds it, the binding goes.
   */
  seen?: boolean;
  /** Its client record is in the meta cache (see client-records.ts). */
  saved?: boolean;
  /** When the page went into the back/forward cache (ms since the epoch): kept while it may come back. */
  frozenAt?: number;
  /** Set while an early-answered page waits for its package's index, which may re-plan `packages` (a deploy). */
  ready?: Promise<void>;
}

export interface BoundPackage {
  path: string;
  cacheName: string;
  run?: PackageRun;
  /** Object names of a held package (from its record), so requests for other URLs skip the worker. */
  names?: ReadonlySet<string>;
  /** The HTML entry's name, from a held page package's record (the navigation reads it from there). */
  html?: string;
}

/**
 * Whether a page package's index belongs to `table`'s build: it names that build, or the earlier build the
 * table says wrote the (unchanged) package. Any other id means a deploy newer than the table.
 */
export function ofTable(table: RouteTable, route: Route, index: PackageIndex): boolean {
  return !index.buildId || index.buildId === table.buildId || index.buildId === route.build;
}

/** Names a package carries: true/false when known, undefined while its index is still on the way. */
export function carries(p: BoundPackage, name: string): boolean | undefined {
  if (p.run) return p.run.indexed ? p.run.slots.has(name) : undefined;
  return p.names ? p.names.has(name) : undefined;
}
