import { createHash } from 'node:crypto';
import { PACKAGE_DIR } from '@objpack/format';
import { groupByPageSet, type PageSetGroup } from './group.js';
import type { PackagePlan, PlanObject, PlanOptions, PlanPage, PlannedPage, PlannedShared } from './types.js';

export const DEFAULT_PLAN_OPTIONS: Required<PlanOptions> = {
  sessionPages: 10,
  requestCostBytes: 4096,
  minSharedBytes: 8192,
  mergeCoverage: 0.5,
  maxInlinePages: 16,
  base: '/',
};

/**
 * Expected extra copies of an object used by a share `q` of the pages if it were inlined into every page
 * package, over a session of `k` distinct pages drawn independently: E[max(0, X − 1)] for X ~ Bin(k, q).
 */
export function expectedExtraCopies(q: number, k: number): number {
  return Math.max(0, k * q - 1 + Math.pow(1 - q, k));
}

/**
 * Places every object of every closure in exactly one package. The trade-off:
 * - objects used by one page go into that page's package (never resent, no extra request);
 * - objects used by several pages form groups by the exact set of pages using them (grouping by page set
 *   never sends a page an object it does not need);
 * - a group is inlined into each of its pages' packages when the bytes it would resend in a session
 *   (`expectedExtraCopies`) cost less than the extra requests a separate package costs
 *   (`requestCostBytes` per navigation that needs it) and it is used by at most `maxInlinePages` pages
 *   (copies cost disk and build time too); rarely shared small objects end up inlined;
 * - a small group (< `minSharedBytes`) whose pages are all covered by a bigger group, and that is used by
 *   at least `mergeCoverage` of that group's pages, rides in the bigger group (bounded waste, one request
 *   fewer); otherwise it stays its own content-hashed shared package.
 */
export function planPackages(pages: readonly PlanPage[], options: PlanOptions = {}): PackagePlan {
  const opts = { ...DEFAULT_PLAN_OPTIONS, ...options };
  const { base } = opts;
  const { groups, objects, rank } = groupByPageSet(pages);
  const n = pages.length;
  const k = Math.min(opts.sessionPages, n);

  const own = new Map<number, PlanObject[]>();
  const kept: PageSetGroup[] = [];
  const small: PageSetGroup[] = [];
  let inlinedGroups = 0;
  let duplicatedBytes = 0;
  for (const g of groups) {
    const m = g.pages.length;
    const inline = () => {
      for (const p of g.pages) {
        const list = own.get(p) ?? [];
        list.push(...g.objects);
        own.set(p, list);
      }
    };
    if (m === 1) {
      inline();
      continue;
    }
    const q = m / n;
    if (m <= opts.maxInlinePages && g.bytes * expectedExtraCopies(q, k) <= opts.requestCostBytes * k * q) {
      inline();
      inlinedGroups++;
      duplicatedBytes += g.bytes * (m - 1);
      continue;
    }
    (g.bytes >= opts.minSharedBytes ? kept : small).push(g);
  }

  // Small groups, most widely used first, ride in the best covering group (kept ones, or small ones that
  // stayed on their own before them).
  const byPage = new Map<number, PageSetGroup[]>();
  const index = (g: PageSetGroup) => {
    g.pageSet = new Set(g.pages);
    for (const p of g.pages) {
      const list = byPage.get(p) ?? [];
      list.push(g);
      byPage.set(p, list);
    }
  };
  kept.forEach(index);
  small.sort((a, b) => b.pages.length - a.pages.length || a.firstRank - b.firstRank);
  let mergedGroups = 0;
  for (const g of small) {
    let best: PageSetGroup | undefined;
    let bestCoverage = opts.mergeCoverage;
    for (const t of byPage.get(g.pages[0]!) ?? []) {
      const coverage = g.pages.length / t.pages.length;
      if (coverage < bestCoverage || (coverage === bestCoverage && best)) continue;
      if (g.pages.every((p) => t.pageSet!.has(p))) {
        best = t;
        bestCoverage = coverage;
      }
    }
    if (best) {
      best.objects.push(...g.objects);
      best.bytes += g.bytes;
      mergedGroups++;
    } else {
      kept.push(g);
      index(g);
    }
  }

  const shared: PlannedShared[] = [];
  const packageOf = new Map<string, string>();
  kept.sort((a, b) => a.firstRank - b.firstRank);
  for (const g of kept) {
    const objs = g.objects.sort((a, b) => rank.get(a.url)! - rank.get(b.url)!);
    const key = contentKey(objs);
    const url = `${base}${PACKAGE_DIR}/shared/${key.slice(0, 16)}.objp`;
    for (const o of objs) packageOf.set(o.url, url);
    shared.push({ url, key, objects: objs, pages: g.pages.map((p) => pages[p]!.url) });
  }

  const planned: PlannedPage[] = pages.map((page, i) => {
    const mine = new Set((own.get(i) ?? []).map((o) => o.url));
    const refs: string[] = [];
    const objs: PlanObject[] = [];
    page.items.forEach((o, pos) => {
      if (pos === 0 || mine.has(o.url)) return void objs.push(o);
      const pkg = packageOf.get(o.url);
      if (pkg && !refs.includes(pkg)) refs.push(pkg);
    });
    const packageUrl = pagePackageUrl(page.file, base);
    return {
      url: page.url,
      file: page.file,
      packageUrl,
      key: contentKey(objs, `${packageUrl}\n${refs.join('\n')}\n`),
      objects: objs,
      shared: refs,
      closure: page.items,
      critical: page.critical,
      ...(page.preload ? { preload: page.preload } : {}),
      ...(page.earlyHints ? { earlyHints: page.earlyHints } : {}),
      crossOrigin: page.crossOrigin,
      ...(page.later && page.later.length > 0 ? { later: page.later } : {}),
    };
  });

  return {
    pages: planned,
    shared,
    objects,
    stats: { groups: groups.length, inlinedGroups, mergedGroups, sharedPackages: shared.length, duplicatedBytes },
  };
}

/**
 * `/_objpack/pages/<page file>.objp`, the slot of a page's package under `base` (`/repo/_objpack/pages/…`); its
 * file adds the build id (emit/generation.ts).
 */
export function pagePackageUrl(file: string, base = '/'): string {
  return `${base}${PACKAGE_DIR}/pages/${file.split('/').map(encodeURIComponent).join('/')}.objp`;
}

/** Hex SHA-256 over everything that determines a package's bytes except the build id. */
export function contentKey(objects: readonly PlanObject[], extra = ''): string {
  const h = createHash('sha256');
  h.update(extra);
  for (const o of objects) {
    h.update(`${o.url}\0${o.contentType}\0${o.sendBytes}\0${o.bytes}\0${o.headers ? JSON.stringify(o.headers) : ''}\0`);
    h.update(o.digest);
    h.update('\n');
  }
  return h.digest('hex');
}
