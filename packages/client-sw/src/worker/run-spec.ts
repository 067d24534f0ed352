import type { PackageIndex } from '@objpack/format';
import type { ResolvedOptions } from '../options.js';
import type { HavePlan } from './delta.js';
import type { CacheControlOf } from './host-cache.js';
import type { HeldRecord, Store } from './store.js';

/** What a package run (package-run.ts) is told when it starts: the package, where its objects go, and its hooks. */
export interface RunSpec {
  path: string;
  kind: 'page' | 'shared';
  origin: string;
  options: ResolvedOptions;
  store: Store;
  /** Cache that receives this package's objects, chosen once the index names the build. */
  cacheFor(index: PackageIndex): string;
  /** Objects to name in `X-Objpack-Have` (page packages, objpack serve only). */
  have?: () => HavePlan | undefined;
  /** Sees the origin's package responses (delta detection). */
  observe?: (res: Response, sentHave: boolean) => void;
  /** The package is complete in Cache Storage under `cacheName`. */
  onHeld?: (cacheName: string, record: HeldRecord) => void;
  /** Resolves when writing to Cache Storage no longer competes with a loading page (or at `deadline`). */
  quiet?: (deadline: number) => Promise<void>;
  /** A newer worker has taken over: this one must not write (it would recreate caches the new one deleted). */
  retired?: () => boolean;
  /** The host's `Cache-Control` for the objects, from the route table of the build the run was planned for. */
  cacheControl?: CacheControlOf;
  /** Whether the package may be fetched, once its length is known (0 when unknown): a prefetch's byte budget. */
  admit?: (bytes: number) => boolean;
}
