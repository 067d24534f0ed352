import { canonicalPath, type RouteTable } from '@objpack/format';

/**
 * A large route table is also kept in shards: a restarted worker (Chromium stops idle ones after ~30 s)
 * otherwise reads and parses the whole table before its first navigation can start the page's package —
 * 1.8 MB for 10,000 pages, 150–300 ms in Chromium on the benchmark machine. A shard is itself a route table,
 * holding only its pages (and the packages, preloads and headers they name, re-indexed); the core holds the
 * rest and says which shards belong together.
 */
export const SHARD_MIN_CHARS = 256 * 1024;
const SHARD_CHARS = 64 * 1024;
const MAX_SHARDS = 256;

/** Fields that hold something per page; everything else is the same in every shard. */
const PER_PAGE = ['packages', 'pages', 'packageBuilds', 'preload', 'htmlTypes', 'htmlHeaders'] as const;

export interface ShardCore {
  /** Shards of one split carry its id: shards of another table are never mixed in. */
  id: string;
  shards: number;
  buildId: string;
}

/**
 * The path without what lookupRoute adds or drops when it tries a request's other spellings (`index.html`,
 * `.html`, a trailing slash), so that every key one lookup tries lies in the same shard.
 */
export function shardBase(pathname: string): string {
  let p = canonicalPath(pathname);
  if (p.endsWith('/index.html')) p = p.slice(0, -'index.html'.length);
  else p = p.replace(/\.html?$/i, '');
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/** FNV-1a over the base's UTF-16 code units. */
export function shardOf(pathname: string, shards: number): number {
  const base = shardBase(pathname);
  let h = 0x811c9dc5;
  for (let i = 0; i < base.length; i++) h = Math.imul(h ^ base.charCodeAt(i), 0x01000193) >>> 0;
  return h % shards;
}

/** Splits a table whose JSON is `chars` long into shards (undefined when it is small enough to read whole). */
export function splitTable(
  table: RouteTable,
  chars: number,
  id: string,
): { core: ShardCore; shards: RouteTable[] } | undefined {
  if (chars < SHARD_MIN_CHARS) return undefined;
  const n = Math.min(MAX_SHARDS, Math.ceil(chars / SHARD_CHARS));
  const common: Record<string, unknown> = { ...table };
  for (const k of PER_PAGE) delete common[k];
  const parts = Array.from({ length: n }, () => new ShardBuilder(table));
  for (const key of Object.keys(table.pages)) parts[shardOf(key, n)]!.add(key);
  return {
    core: { id, shards: n, buildId: table.buildId },
    shards: parts.map(
      (p) => ({ ...(common as Omit<RouteTable, 'packages' | 'pages'>), ...p.table(), shardOf: id }) as RouteTable,
    ),
  };
}

/** One shard's per-page fields, indices renumbered into its own lists. */
class ShardBuilder {
  private readonly packages: string[] = [];
  private readonly packageAt = new Map<number, number>();
  private readonly pages: Record<string, number[]> = {};
  private readonly packageBuilds: Record<string, string> = {};
  private readonly urls: NonNullable<RouteTable['preload']>['urls'] = [];
  private readonly urlAt = new Map<number, number>();
  private readonly preloadPages: Record<string, number[]> = {};
  private readonly htmlTypes: Record<string, string> = {};
  private readonly sets: NonNullable<RouteTable['htmlHeaders']>['sets'] = [];
  private readonly setAt = new Map<number, number>();
  private readonly headerPages: Record<string, number> = {};

  constructor(private readonly from: RouteTable) {}

  add(key: string): void {
    const t = this.from;
    this.pages[key] = t.pages[key]!.map((i) => {
      let at = this.packageAt.get(i);
      if (at === undefined) {
        this.packageAt.set(i, (at = this.packages.push(t.packages[i]!) - 1));
        const build = t.packageBuilds?.[String(i)];
        if (build !== undefined) this.packageBuilds[String(at)] = build;
      }
      return at;
    });
    const preload = t.preload?.pages[key];
    if (preload) {
      this.preloadPages[key] = preload.map((i) => {
        let at = this.urlAt.get(i);
        if (at === undefined) this.urlAt.set(i, (at = this.urls.push(t.preload!.urls[i]!) - 1));
        return at;
      });
    }
    if (t.htmlTypes && Object.hasOwn(t.htmlTypes, key)) this.htmlTypes[key] = t.htmlTypes[key]!;
    const set = t.htmlHeaders && Object.hasOwn(t.htmlHeaders.pages, key) ? t.htmlHeaders.pages[key] : undefined;
    if (set !== undefined) {
      let at = this.setAt.get(set);
      if (at === undefined) this.setAt.set(set, (at = this.sets.push(t.htmlHeaders!.sets[set]!) - 1));
      this.headerPages[key] = at;
    }
  }

  table(): Pick<RouteTable, (typeof PER_PAGE)[number]> {
    return {
      packages: this.packages,
      pages: this.pages,
      ...(Object.keys(this.packageBuilds).length > 0 ? { packageBuilds: this.packageBuilds } : {}),
      ...(this.from.preload ? { preload: { urls: this.urls, pages: this.preloadPages } } : {}),
      ...(this.from.htmlTypes ? { htmlTypes: this.htmlTypes } : {}),
      ...(this.from.htmlHeaders ? { htmlHeaders: { sets: this.sets, pages: this.headerPages } } : {}),
    };
  }
}
