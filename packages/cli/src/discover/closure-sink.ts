/**
 * Where assemble-closure.ts's traversal writes: the page's buckets or a stylesheet's or module's shared
 * subtree; each font item's `unicode-range` and face style are kept beside it.
 */
import type { Bucket, Buckets } from './assemble-context.js';
import type { Dep } from './asset-analyzer.js';
import type { ClosureItem, PreloadAs } from './types.js';
import type { CodeRanges } from './unicode-range.js';
import type { FaceStyle } from './unused-faces.js';

/** The `unicode-range` of font items (kept off ClosureItem: a page drops the subsets its text never uses). */
const fontRanges = new WeakMap<ClosureItem, CodeRanges>();
/** The family and style of font items, for leaving out faces the page's text never uses (unused-faces.ts). */
const fontStyles = new WeakMap<ClosureItem, FaceStyle>();

/** The `unicode-range` of a font item, if its `@font-face` has one. */
export const fontRange = (item: ClosureItem): CodeRanges | undefined => fontRanges.get(item);
/** The family and style of a font item. */
export const fontStyle = (item: ClosureItem): FaceStyle | undefined => fontStyles.get(item);

/** Where a traversal writes: the page itself, or a stylesheet's/module's shared subtree. */
export interface Sink {
  buckets: Buckets;
  visited: Set<string>;
  cross: Set<string>;
  /** Items go into a subtree shared between pages: freeze them. */
  shared: boolean;
}

/** What an item is made of: a dependency's URL, path and line, and a font's range and style. */
export type AddedDep = Pick<Dep, 'url' | 'path' | 'cond' | 'cors' | 'range' | 'family' | 'slanted'> & {
  /** None for an object a script computes the URL of (route-chunks.ts). */
  line?: number;
  script?: ClosureItem['script'];
};
/** Adds the item for `dep` to the sink's bucket, with its font's range and style on the side. */
export function add(
  sink: Sink,
  bucket: Bucket,
  dep: AddedDep,
  as: PreloadAs,
  critical: boolean,
  from: string,
  cond?: string,
) {
  const item: ClosureItem = { url: dep.url, path: dep.path, as, critical, from };
  if (dep.line !== undefined) item.line = dep.line;
  if (dep.cors !== undefined) item.cors = dep.cors;
  if (dep.script) item.script = dep.script;
  const c = cond ?? dep.cond;
  if (c !== undefined) item.conditional = c;
  if (dep.range) fontRanges.set(item, dep.range);
  if (dep.family !== undefined || dep.slanted) {
    fontStyles.set(item, { family: dep.family, slanted: dep.slanted === true });
  }
  sink.buckets[bucket].push(sink.shared ? Object.freeze(item) : item);
}

/** Records the object once per URL and bucket; expands its references once per file and bucket. */
export function firstVisit(sink: Sink, dep: Dep, bucket: Bucket): { item: boolean; expand: boolean } {
  const itemKey = `${bucket}|${dep.url}`;
  const fileKey = `${bucket}|file:${dep.path}`;
  const item = !sink.visited.has(itemKey);
  const expand = !sink.visited.has(fileKey);
  sink.visited.add(itemKey);
  sink.visited.add(fileKey);
  return { item, expand };
}
