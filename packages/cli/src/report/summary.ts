import type { BuildManifest } from '@objpack/format';
import { DiscoverCodes } from '../discover/diagnostic-codes.js';
import type { Diagnostic, PageClosure, SiteGraph } from '../discover/types.js';
import type { PackagePlan } from '../plan/types.js';

/** Per-page numbers behind the summary table and the report's charts. */
export interface PageSummary {
  url: string;
  objects: number;
  /** Bytes of the whole closure (HTML included). */
  closureBytes: number;
  /** Requests without objpack: one per object. */
  requestsBefore: number;
  /** Requests with objpack on a cold cache: the page package, its shared packages, partial-media remainders. */
  requestsAfter: number;
  /** Sequential round trips without objpack: the depth of the reference chain (HTML → CSS → font = 3). */
  roundTripsBefore: number;
  /** Bytes of the packages a first navigation to the page downloads: its page package and shared packages. */
  firstLoadBytes: number;
  /** The closure's later tier (discover/tiers.ts): objects and bytes left to the network. */
  laterObjects: number;
  laterBytes: number;
}

export interface BuildSummary {
  pages: number;
  objects: number;
  packages: { page: number; shared: number };
  /** Bytes of the distinct objects the packages carry. */
  objectBytes: number;
  /** Bytes of all package files. */
  packageBytes: number;
  /** Bytes carried by more than one package (objects inlined into several pages). */
  duplicatedBytes: number;
  missingReferences: number;
  warnings: number;
  errors: number;
  requestsBefore: number;
  requestsAfter: number;
  /** Round trips saved over all pages: each page needs one instead of its chain depth. */
  roundTripsSaved: number;
  /** Distinct objects of the pages' later tiers that no package carries, and their bytes. */
  later: { objects: number; bytes: number };
  /**
   * `--target cloudflare`: pages given a `Link` rule in `_headers`, of the pages with preloads, and how
   * many of the rest Cloudflare Pages' 100 rules left without one (`cut`; cloudflare-headers.ts).
   */
  linkRules?: { pages: number; of: number; cut: number };
  perPage: PageSummary[];
}

/**
 * `--target cloudflare`'s Link rules, for the summary table and the report: "94 of 10,000 pages (Cloudflare Pages'
 * 100-rule limit)".
 */
export function linkRulesText({ pages, of, cut }: NonNullable<BuildSummary['linkRules']>): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(pages)} of ${n(of)} pages${cut > 0 ? " (Cloudflare Pages' 100-rule limit)" : ''}`;
}

/** Depth of each page's reference chain, from the closure items' `from` links. */
function chainDepth(page: PageClosure): number {
  const depth = new Map<string, number>([[page.url, 1]]);
  const strip = (u: string) => u.split('?')[0]!;
  let max = 1;
  page.items.forEach((item, i) => {
    const d = i === 0 ? 1 : (depth.get(item.from) ?? depth.get(strip(item.from)) ?? 1) + 1;
    if (!depth.has(item.url)) depth.set(item.url, d);
    if (!depth.has(item.path)) depth.set(item.path, d);
    max = Math.max(max, d);
  });
  return max;
}

export function summarize(
  manifest: Pick<BuildManifest, 'packages' | 'pages'>,
  plan: PackagePlan,
  graph: SiteGraph,
  diagnostics: readonly Diagnostic[],
): BuildSummary {
  const closures = new Map(graph.pages.map((p) => [p.url, p]));
  const sizeOf = (url: string) => manifest.packages[url]?.bytes ?? 0;
  const later = new Map<string, number>();
  const perPage: PageSummary[] = plan.pages.map((p) => {
    const partial = p.closure.filter((o) => o.sendBytes < o.bytes).length;
    const closure = closures.get(p.url);
    for (const o of p.later ?? []) if (!plan.objects.has(o.url)) later.set(o.url, o.bytes);
    return {
      url: p.url,
      objects: p.closure.length,
      closureBytes: p.closure.reduce((s, o) => s + o.bytes, 0),
      requestsBefore: p.closure.length,
      requestsAfter: 1 + p.shared.length + partial,
      roundTripsBefore: closure ? chainDepth(closure) : 1,
      // The manifest names a page package by its file, the plan's slot with the build id.
      firstLoadBytes:
        sizeOf(manifest.pages[p.url]?.package ?? p.packageUrl) + p.shared.reduce((s, u) => s + sizeOf(u), 0),
      laterObjects: p.later?.length ?? 0,
      laterBytes: (p.later ?? []).reduce((s, o) => s + o.bytes, 0),
    };
  });
  const packages = Object.values(manifest.packages);
  return {
    pages: plan.pages.length,
    objects: plan.objects.size,
    packages: { page: plan.pages.length, shared: plan.shared.length },
    objectBytes: [...plan.objects.values()].reduce((s, o) => s + o.sendBytes, 0),
    packageBytes: packages.reduce((s, p) => s + p.bytes, 0),
    duplicatedBytes: plan.stats.duplicatedBytes,
    missingReferences: diagnostics.filter((d) => d.code === DiscoverCodes.MISSING_REF).length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    requestsBefore: perPage.reduce((s, p) => s + p.requestsBefore, 0),
    requestsAfter: perPage.reduce((s, p) => s + p.requestsAfter, 0),
    roundTripsSaved: perPage.reduce((s, p) => s + p.roundTripsBefore - 1, 0),
    later: { objects: later.size, bytes: [...later.values()].reduce((s, b) => s + b, 0) },
    perPage,
  };
}
