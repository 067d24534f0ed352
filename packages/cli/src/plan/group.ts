import type { PlanObject, PlanPage } from './types.js';

/** Objects used by exactly the same pages. */
export interface PageSetGroup {
  /** Page indices, ascending. */
  pages: number[];
  objects: PlanObject[];
  /** Sum of carried bytes. */
  bytes: number;
  /** Rank of the group's earliest object in site order (pages in order, closures in order). */
  firstRank: number;
  pageSet?: Set<number>;
}

/**
 * Groups the objects of all closures (the HTML, items[0], is never shared) by the set of pages using them.
 * `rank` numbers objects by first appearance, which orders objects inside shared packages.
 */
export function groupByPageSet(pages: readonly PlanPage[]): {
  groups: PageSetGroup[];
  objects: Map<string, PlanObject>;
  rank: Map<string, number>;
} {
  const objects = new Map<string, PlanObject>();
  const users = new Map<string, number[]>();
  const rank = new Map<string, number>();
  pages.forEach((page, i) => {
    page.items.forEach((o, pos) => {
      if (!objects.has(o.url)) {
        objects.set(o.url, o);
        rank.set(o.url, rank.size);
      }
      if (pos === 0) return;
      const list = users.get(o.url);
      if (!list) users.set(o.url, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    });
  });
  const byKey = new Map<string, PageSetGroup>();
  for (const [url, list] of users) {
    const key = list.length === 1 ? `${list[0]}` : list.join(',');
    const o = objects.get(url)!;
    const g = byKey.get(key);
    if (g) {
      g.objects.push(o);
      g.bytes += o.sendBytes;
      g.firstRank = Math.min(g.firstRank, rank.get(url)!);
    } else {
      byKey.set(key, { pages: list, objects: [o], bytes: o.sendBytes, firstRank: rank.get(url)! });
    }
  }
  return { groups: [...byKey.values()], objects, rank };
}
