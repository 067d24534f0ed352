/**
 * What assemble-closure.ts and its helpers share: the buckets a page's closure is gathered in (in the order
 * the page needs the bytes), and the state every page of one build shares.
 */
import type { AssetAnalyzer } from './asset-analyzer.js';
import type { UrlResolver } from './resolve-url.js';
import type { ClosureItem } from './types.js';

export const BUCKETS = ['css', 'sync', 'fonts', 'early', 'images', 'cssImages', 'rest'] as const;
export type Bucket = (typeof BUCKETS)[number];
export type Buckets = Record<Bucket, ClosureItem[]>;

export const emptyBuckets = (): Buckets => ({
  css: [],
  sync: [],
  fonts: [],
  early: [],
  images: [],
  cssImages: [],
  rest: [],
});

/** Everything a stylesheet or module brings with it, by bucket, ready to append to a page. */
export interface Subtree {
  buckets: Buckets;
  cross: string[];
}

/** State shared by every page of one build. */
export interface AssembleContext {
  /** Expanded subtrees by kind, bucket, criticality and file. */
  subtrees: Map<string, Promise<Subtree>>;
  resolver: UrlResolver;
  analyzer: AssetAnalyzer;
  /** Warnings that would otherwise repeat on every page (bare specifiers in a shared module). */
  reported: Set<string>;
}
