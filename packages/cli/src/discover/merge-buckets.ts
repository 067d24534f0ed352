import { BUCKETS, type Buckets } from './assemble-context.js';
import { inCriticalTier } from './tiers.js';
import type { ClosureItem } from './types.js';

/**
 * A page's items in bucket order after its `document` item, each URL once at its first (most urgent)
 * position; items `skip` says are gone are left out. A later, stronger reference (critical, unconditional,
 * or in the critical tier) upgrades the first one.
 */
export function mergeBuckets(
  document: ClosureItem,
  buckets: Buckets,
  skip: (item: ClosureItem) => boolean,
): ClosureItem[] {
  const items: ClosureItem[] = [document];
  const index = new Map<string, number>([[document.url, 0]]);
  for (const bucket of BUCKETS) {
    for (const item of buckets[bucket]) {
      if (skip(item)) continue;
      const at = index.get(item.url);
      if (at === undefined) {
        index.set(item.url, items.length);
        items.push(item);
        continue;
      }
      // Copied, not changed in place: items of shared subtrees are frozen.
      const first = items[at] as ClosureItem;
      const tierUp = inCriticalTier(item) && !inCriticalTier(first);
      const unconditional = item.conditional === undefined && first.conditional !== undefined;
      const upgrade = (item.critical && !first.critical) || unconditional || tierUp;
      if (!upgrade) continue;
      const copy: ClosureItem = { ...first, critical: first.critical || item.critical };
      if (item.conditional === undefined) delete copy.conditional;
      else if (tierUp) copy.conditional = item.conditional;
      items[at] = copy;
    }
  }
  return items;
}
