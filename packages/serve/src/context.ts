import type { ByteLru } from './byte-lru.js';
import type { CompressCache } from './compress-cache.js';
import type { ConnectionTracker } from './connections.js';
import type { AssembledPackage } from './dynamic.js';
import type { ResolvedOptions } from './options.js';
import type { Prefetcher } from './prefetch.js';
import type { FileEntry, SiteIndex } from './site-index.js';
import type { PageInfo, SiteManifest } from './site-manifest.js';

/** One generation of the site as read from disk; `reload()` swaps it whole. */
export interface Site {
  rootReal: string;
  /** The URL path the site root is served under (`/`, `/repo/`; percent-encoded as checkBasePath spells it). */
  base: string;
  /** The same, decoded, as the index keys paths: nothing outside it is served. */
  basePath: string;
  /** objpack's directory (`/repo/_objpack/`) and the delta listing's path in it, decoded. */
  ownDir: string;
  listingPath: string;
  index: SiteIndex;
  manifest: SiteManifest | null;
  /** Pages whose prebuilt package no longer matches the files (served dynamically when enabled). */
  stale: Set<PageInfo>;
  /** The site's own 404.html (at the base), if any. */
  notFound: FileEntry | undefined;
}

/** Request counters besides connections and prefetch. */
export interface RequestStats {
  requests: number;
  earlyHints: number;
  /** Package responses by kind (304 revalidations included); `assembled` counts actual encodes. */
  packages: { prebuilt: number; dynamic: number; delta: number; assembled: number };
  notModified: number;
  errors: number;
}

/** Byte-bounded cache value for assembled packages. */
export interface CachedPackage extends AssembledPackage {
  byteLength: number;
}

/** Everything a request handler needs. */
export interface Context {
  o: ResolvedOptions;
  site: Site;
  prefetch: Prefetcher;
  compress: CompressCache;
  /** Assembled dynamic and delta packages, byte-bounded (`cacheBytes`). */
  packageCache: ByteLru<CachedPackage>;
  tracker: ConnectionTracker;
  stats: RequestStats;
}
