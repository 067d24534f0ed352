import type { PreloadAs, PreloadCors, PreloadEntry } from '@objpack/format';
import type { LaterReason } from '../discover/tiers.js';

/** An object of a page's later tier (discover/tiers.ts): in the closure, in no package. */
export interface LaterObject {
  url: string;
  bytes: number;
  reason: LaterReason;
}

/** One object the planner places: a closure item with what the packages need to know about its bytes. */
export interface PlanObject {
  /** URL path with query, as the browser requests it: the package entry name. */
  url: string;
  /** Decoded URL path without query (key of the site's file map). */
  path: string;
  /** Absolute file to read the bytes from. */
  file: string;
  /** File path relative to the site root, '/'-separated. */
  rel: string;
  /** Whole-object size. */
  bytes: number;
  contentType: string;
  as: PreloadAs;
  /** Bytes the package carries: `bytes`, or the prefix length for partial media. */
  sendBytes: number;
  /** SHA-256 of the carried bytes. */
  digest: Uint8Array;
  /** `sha256-…` of the whole object (manifest record). */
  sri: string;
  /** Produces the bytes when they are not the file's (the HTML after script injection); read lazily. */
  load?(): Promise<Uint8Array>;
  /**
   * HTML carried with the registration tag injected (the same as `load`, as data a worker thread can receive):
   * the base path whose tag it gets.
   */
  inject?: string;
  /** HTML only: response headers from the site's host config (`_headers`), carried in the package. */
  headers?: Array<[string, string]>;
}

/** A page with its closure, in package order (items[0] is the HTML). */
export interface PlanPage {
  url: string;
  file: string;
  items: PlanObject[];
  /** Render-critical objects of this page, in order (for Link preload / 103 Early Hints). */
  critical: Array<{ path: string; as: PreloadAs; cors?: PreloadCors }>;
  /** What the service worker announces in a `Link` header when it answers this page (prepare/preload-hints.ts). */
  preload?: PreloadEntry[];
  /** What a host announces for this page when no worker answers it: `Link` and 103 (prepare/preload-hints.ts). */
  earlyHints?: PreloadEntry[];
  crossOrigin: string[];
  /** The later tier: left to the network. */
  later?: LaterObject[];
}

/** Planner knobs; every default is chosen and measured in plan/README (see docs in plan-packages.ts). */
export interface PlanOptions {
  /** The base path the site is served under (`/repo/`): package URLs lie under it. Default `/`. */
  base?: string;
  /**
   * Pages of a browsing session the plan is tuned for (the issue measures 10-page sessions). Used in the
   * expected-duplication estimate that decides whether an object shared by a few pages is inlined.
   */
  sessionPages?: number;
  /** Bytes one extra request is worth (headers both ways, index, scheduling); default 4096. */
  requestCostBytes?: number;
  /**
   * Most pages one object may be inlined into (default 16): past that, the copies cost more disk and build
   * time than the request they save, however rarely a session meets two of those pages.
   */
  maxInlinePages?: number;
  /** A shared group smaller than this is merged into a fitting bigger group when one exists; default 8192. */
  minSharedBytes?: number;
  /** Merge a small group into a bigger one only if it is used by at least this share of its pages; default 0.5. */
  mergeCoverage?: number;
}

export interface PlannedShared {
  /** `/_objpack/shared/<16 hex>.objp` */
  url: string;
  /** Content key: hex SHA-256 over names, types and digests (the name is its first 16 hex digits). */
  key: string;
  objects: PlanObject[];
  /** Page URLs using this package. */
  pages: string[];
}

export interface PlannedPage {
  url: string;
  file: string;
  /**
   * `/_objpack/pages/<page file>.objp`: the package's slot, keyed by page; its file adds the build id
   * (emit/generation.ts).
   */
  packageUrl: string;
  /**
   * Content key of the page's package (contentKey of its objects, URL and shared refs): unchanged key, unchanged bytes
   * but the build id.
   */
  key: string;
  /** HTML first, then the page's own objects in closure order. */
  objects: PlanObject[];
  /** Shared package URLs in the order the page first needs them. */
  shared: string[];
  /** The closure's critical tier in package order, HTML first: what the page's packages carry. */
  closure: PlanObject[];
  critical: Array<{ path: string; as: PreloadAs; cors?: PreloadCors }>;
  preload?: PreloadEntry[];
  earlyHints?: PreloadEntry[];
  crossOrigin: string[];
  /** The closure's later tier: in no package. */
  later?: LaterObject[];
}

export interface PackagePlan {
  pages: PlannedPage[];
  shared: PlannedShared[];
  /** Objects by URL: every object of every closure once. */
  objects: Map<string, PlanObject>;
  stats: PlanStats;
}

export interface PlanStats {
  groups: number;
  inlinedGroups: number;
  mergedGroups: number;
  sharedPackages: number;
  /** Bytes carried more than once across all page packages (inlined shared objects). */
  duplicatedBytes: number;
}
