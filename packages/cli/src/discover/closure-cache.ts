/**
 * Stores assembled closures in the DiscoverCache compactly: most items are the same on every page (the
 * site's CSS, JS, fonts), so a build keeps one table of distinct items and each page stores indexes into
 * it (10,000 HTTP-Archive-like pages: ~100 MB of JSON as plain objects, a few MB as indexes).
 */
import { decodePath } from './resolve-url.js';
import type { PreloadCors } from '@objpack/format';
import type { ClosureItem, Diagnostic, DiscoverCache, PageClosure, PreloadAs } from './types.js';

/**
 * [url, path ('' = decoded url), as, critical, from ('' = the page), line (-1 = none), conditional, traced, cors ('' =
 * none), script ('c' classic, 'm' module, '' = not known)]
 */
type ItemRow = [string, string, PreloadAs, 0 | 1, string, number, string, 0 | 1, PreloadCors | '', 'c' | 'm' | ''];

export interface CachedClosure {
  /** Indexes into the build's item table. */
  items: number[];
  page: Omit<PageClosure, 'items'>;
  /** Positions (in `items`) of the stylesheets and modules the closure went through. */
  deps: number[];
  /** How each dep was parsed: 's' sheet, 'm' module, 'c' classic script. */
  depKinds: string;
  /** Hash of the deps' sizes and modification times when the closure was built. */
  depsSig: string;
  /** Warnings about the page's own references. */
  diagnostics: Diagnostic[];
}

export class ItemTable {
  private readonly rows: ItemRow[];
  private index: Map<string, number> | undefined;
  private grown = false;

  constructor(
    private readonly cache: DiscoverCache,
    private readonly key: string,
  ) {
    const stored = cache.get(key);
    this.rows = Array.isArray(stored) ? (stored as ItemRow[]) : [];
  }

  /** Items materialized from rows that do not depend on the page (shared, frozen). */
  private readonly shared: Array<ClosureItem | undefined> = [];

  /** The closure in its cacheable form. */
  pack(
    closure: PageClosure,
    deps: Omit<CachedClosure, 'items' | 'page' | 'diagnostics'>,
    diagnostics: Diagnostic[],
  ): CachedClosure {
    const { items, ...page } = closure;
    return { items: items.map((item) => this.indexOf(item, closure.url)), page, ...deps, diagnostics };
  }

  /** The closure back, or undefined if the table no longer has its rows. */
  unpack(cached: CachedClosure): PageClosure | undefined {
    const items: ClosureItem[] = [];
    for (const i of cached.items) {
      const item = this.shared[i] ?? this.materialize(i, cached.page.url);
      if (!item) return undefined;
      items.push(item);
    }
    return { ...cached.page, items };
  }

  /** The item at a position of a cached closure, for checking its dependencies. */
  pathAt(cached: CachedClosure, position: number): string | undefined {
    const i = cached.items[position] ?? -1;
    const shared = this.shared[i];
    if (shared) return shared.path;
    const row = this.rows[i];
    return row ? row[1] || (decodePath(row[0].split('?')[0] ?? row[0]) ?? row[0]) : undefined;
  }

  private materialize(i: number, pageUrl: string): ClosureItem | undefined {
    const row = this.rows[i];
    if (!row) return undefined;
    const [url, path, as, critical, from, line, conditional, traced, cors, script] = row;
    const item: ClosureItem = {
      url,
      path: path || (decodePath(url.split('?')[0] ?? url) ?? url),
      as,
      critical: critical === 1,
      from: from || pageUrl,
    };
    if (line >= 0) item.line = line;
    if (conditional) item.conditional = conditional;
    if (traced) item.traced = true;
    if (cors) item.cors = cors;
    if (script) item.script = script === 'c' ? 'classic' : 'module';
    if (from) this.shared[i] = Object.freeze(item);
    return item;
  }

  /** Writes the table back if pages added rows to it. */
  save(): void {
    if (this.grown) this.cache.set(this.key, this.rows);
  }

  private indexOf(item: ClosureItem, pageUrl: string): number {
    const decoded = decodePath(item.url.split('?')[0] ?? item.url);
    const row: ItemRow = [
      item.url,
      decoded === item.path ? '' : item.path,
      item.as,
      item.critical ? 1 : 0,
      item.from === pageUrl ? '' : item.from,
      item.line ?? -1,
      item.conditional ?? '',
      item.traced ? 1 : 0,
      item.cors ?? '',
      item.script === 'classic' ? 'c' : item.script === 'module' ? 'm' : '',
    ];
    const sig = row.join('\u0000');
    if (!this.index) this.index = new Map(this.rows.map((r, i) => [r.join('\u0000'), i]));
    let i = this.index.get(sig);
    if (i === undefined) {
      i = this.rows.push(row) - 1;
      this.index.set(sig, i);
      this.grown = true;
    }
    return i;
  }
}
