import { canonicalPath, isHeaderName, isHeaderValue, type RouteTable } from '@objpack/format';
import { ObjpackSwError, SwErrorCode } from '../errors.js';
import type { ResolvedOptions } from '../options.js';
import { shardOf, splitTable, type ShardCore } from './route-shards.js';
import type { Store } from './store.js';

const noop = () => {};

/** The packages one page needs, from the route table: its own first, then shared ones. */
export interface Route {
  page: string;
  shared: string[];
  /**
   * Build id the page package's index carries in this table's build: the table's own, or an earlier one's
   * for a package an incremental build kept byte for byte (`packageBuilds`).
   */
  build: string;
  /** The table's key for the page (`/guide/` for `/guide/index.html`), for the page's other records. */
  key: string;
  /** The HTML entry's `Content-Type` when the table says it is not UTF-8 HTML (`htmlTypes`). */
  htmlType?: string;
  /** The HTML entry's own headers (`htmlHeaders`: CSP, COOP/COEP… from the site's host config). */
  htmlHeaders?: Array<[string, string]>;
}

/**
 * The route table: kept in memory, persisted in the meta cache (so a restarted worker or an offline start
 * still knows the site), refreshed from the network in the background, never in front of a navigation.
 */
export class Routes {
  table: RouteTable | undefined;
  /** Build of the table this one replaced: its caches hold what a delta request can name. */
  previousBuildId: string | undefined;
  private checkedAt = 0;
  private loading: Promise<RouteTable | undefined> | undefined;
  private refreshing: Promise<RouteTable | undefined> | undefined;

  constructor(
    private readonly store: Store,
    private readonly options: ResolvedOptions,
    /** Called when a table for a new build replaces the current one. */
    private readonly onAdopt: (table: RouteTable) => Promise<void>,
    /** Called before a table for a new build is stored or used, with the one it replaces. */
    private readonly beforeAdopt: (outgoing: RouteTable | undefined) => Promise<void> = async () => {},
    /** Called before another table (a new build, or the same one mapping URLs otherwise) is stored. */
    private readonly beforeStore: () => Promise<void> = async () => {},
  ) {}

  /** A fetched table is replacing the current one: from before it is stored until it is the current one. */
  replacing = false;

  /**
   * The current table from memory or the meta cache; no network. `stored`: the meta cache's answer for
   * the table, when the caller already asked for it.
   */
  current(stored?: Promise<Response | undefined>): Promise<RouteTable | undefined> {
    if (this.table) return Promise.resolve(this.table);
    this.loading ??= (async () => {
      const res = await (stored ?? this.readStored());
      if (res && !this.table) this.table = parseTable(await res.json());
      return this.table;
    })().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /**
   * The table to look `pathname` up in for a navigation: the current one, or, when a restarted worker has
   * not read it yet, the shard that holds the path (route-shards.ts), which is a few KB to read instead of
   * the whole table. The whole table is read when something needs it (prefetch, clean-up, a refresh).
   */
  async forPath(pathname: string): Promise<RouteTable | undefined> {
    if (this.table) return this.table;
    // Asked for with the shard core, not after it: a small site has no shards, and its table's response
    // (read only when there is no core) is then one Cache Storage round trip sooner.
    const stored = this.readStored();
    stored.catch(() => undefined);
    return (await this.readShard(pathname).catch(() => undefined)) ?? this.current(stored);
  }

  private readStored(): Promise<Response | undefined> {
    return caches.match(this.options.routesUrl, { cacheName: this.store.metaName });
  }

  private async readShard(pathname: string): Promise<RouteTable | undefined> {
    const cacheName = this.store.metaName;
    const coreRes = await caches.match(this.shardKey('core'), { cacheName });
    if (!coreRes) return undefined;
    const core = (await coreRes.json()) as ShardCore;
    if (typeof core?.id !== 'string' || !Number.isInteger(core.shards) || core.shards < 1) return undefined;
    const res = await caches.match(this.shardKey(String(shardOf(pathname, core.shards))), { cacheName });
    const shard = res && ((await res.json()) as RouteTable & { shardOf?: string });
    // A shard of another split (a table stored while this one was being written) is never used.
    if (!shard || shard.shardOf !== core.id || shard.buildId !== core.buildId) return undefined;
    return this.table ?? parseTable(shard);
  }

  private shardKey(which: string): string {
    const url = new URL(this.options.routesUrl);
    url.searchParams.set('objpack-shard', which);
    return url.href;
  }

  /**
   * Stores the table and, when large, its shards. The core goes first out and last in: shards are read only
   * through a core, which then names the table stored with them (best effort; a missing core means none).
   */
  private async persist(text: string, table: RouteTable): Promise<void> {
    await this.store.deleteMeta(this.shardKey('core'));
    await this.store.putMeta(
      this.options.routesUrl,
      new Response(text, { headers: { 'content-type': 'application/json' } }),
    );
    const split = splitTable(
      table,
      text.length,
      `${table.buildId}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`,
    );
    if (!split) return;
    const json = (value: unknown) =>
      new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } });
    await Promise.all(split.shards.map((s, i) => this.store.putMeta(this.shardKey(String(i)), json(s))));
    await this.store.putMeta(this.shardKey('core'), json(split.core));
  }

  stale(): boolean {
    return Date.now() - this.checkedAt >= this.options.routesMaxAgeMs;
  }

  /** Fetches the table; adopts it when its build differs. Concurrent callers share one request. */
  refresh(): Promise<RouteTable | undefined> {
    this.refreshing ??= this.fetchTable().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /**
   * A navigation's table when none is held (Cache Storage evicted, or the install's fetch failed): fetched
   * now and used as soon as it is parsed; it is stored while the page loads (`stored`, for waitUntil).
   * Without it every object of the page would go to the network one by one.
   */
  async recover(timeoutMs: number): Promise<{ table: RouteTable; stored: Promise<void> } | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), timeoutMs)));
    const got = await Promise.race([this.download().catch(() => undefined), late]).finally(() => clearTimeout(timer));
    if (!got) return undefined;
    if (this.table) return { table: this.table, stored: Promise.resolve() };
    this.table = got.table;
    this.options.onEvent({ type: 'routes-updated', url: this.options.routesUrl, detail: got.table.buildId });
    return { table: got.table, stored: this.persist(got.text, got.table).catch(noop) };
  }

  private async download(): Promise<{ text: string; table: RouteTable }> {
    this.checkedAt = Date.now();
    const res = await fetch(this.options.routesUrl, { cache: 'no-cache', credentials: 'same-origin' });
    if (res.status !== 200) throw new ObjpackSwError(SwErrorCode.ROUTES, `${this.options.routesUrl} ${res.status}`);
    const text = await res.text();
    return { text, table: parseTable(JSON.parse(text)) };
  }

  private async fetchTable(): Promise<RouteTable | undefined> {
    const { text, table } = await this.download();
    await this.current();
    const sameBuild = this.table?.buildId === table.buildId;
    // The build id hashes the packages only: a rebuild that just changed how the host maps URLs (clean
    // URLs, redirects) keeps it.
    if (sameBuild && sameUrlMapping(this.table!, table)) return this.table;
    this.replacing = true;
    try {
      // Open pages that depend on the current table are pinned to its build first (client-records.ts).
      if (!sameBuild) await this.beforeAdopt(this.table).catch(noop);
      await this.beforeStore().catch(noop);
      // Persisting is best effort (a full disk must not stop the worker from knowing the site).
      await this.persist(text, table).catch(noop);
      if (sameBuild) {
        // Same packages, same caches: only how URLs map to pages changed.
        this.table = table;
        return table;
      }
      this.previousBuildId = this.table?.buildId;
      this.table = table;
    } finally {
      this.replacing = false;
    }
    this.options.onEvent({ type: 'routes-updated', url: this.options.routesUrl, detail: table.buildId });
    await this.onAdopt(table);
    return table;
  }

  /** Forgets everything (Clear-Site-Data, kill switch). */
  reset(): void {
    this.table = undefined;
    this.previousBuildId = undefined;
    this.checkedAt = 0;
  }
}

const sameUrlMapping = (a: RouteTable, b: RouteTable): boolean =>
  (a.cleanUrls === true) === (b.cleanUrls === true) &&
  (a.cleanSlashUrls === true) === (b.cleanSlashUrls === true) &&
  (a.bareDirUrls === true) === (b.bareDirUrls === true) &&
  JSON.stringify(a.redirects ?? []) === JSON.stringify(b.redirects ?? []);

/**
 * The route for a URL path: exact, or `/dir/index.html` ↔ `/dir/` (same document, same base URL), and with
 * `cleanUrls` `/about` → `/about.html` (same directory, so the same base URL too) unless `/about/` is a page.
 * With `bareDirUrls` the host serves `/dir/`'s page at `/dir` as well; a bare path naming both `/a.html`
 * and `/a/` (hosts differ on which wins) is left to the network. With `cleanSlashUrls` `/about/` is
 * `/about.html` where no page `/about/` is (Vercel and Firebase look for the directory's index first).
 */
export function lookupRoute(table: RouteTable, requested: string): Route | undefined {
  // Keyed by the page's file, while a link may spell its URL otherwise (`/%5Bslug%5D.html` for /[slug].html).
  const pathname = canonicalPath(requested);
  const keys = [pathname];
  const has = (k: string) => Object.hasOwn(table.pages, k) && (table.pages[k]?.length ?? 0) > 0;
  if (pathname.endsWith('/index.html')) keys.push(pathname.slice(0, -'index.html'.length));
  let slashClean: string | undefined;
  if (pathname.endsWith('/')) {
    keys.push(`${pathname}index.html`);
    if (table.cleanSlashUrls === true && pathname.length > 1) keys.push((slashClean = `${pathname.slice(0, -1)}.html`));
  } else if (!has(pathname) && !/\.html?$/i.test(pathname)) {
    const dir = has(`${pathname}/`);
    const clean = table.cleanUrls === true && has(`${pathname}.html`);
    if (table.bareDirUrls === true && dir && clean) return undefined;
    if (table.bareDirUrls === true && dir) keys.push(`${pathname}/`);
    // A directory page wins (`/a` → `/a/`, as objpack serve and most hosts redirect), and so does the bare path.
    else if (clean && !dir) keys.push(`${pathname}.html`);
  }
  const key = keys.find(has);
  const idx = key === undefined ? undefined : table.pages[key];
  if (key === undefined || !Array.isArray(idx) || idx.length === 0) return undefined;
  if (hostTakes(table, pathname, key === `${pathname}.html` || key === `${pathname}/` || key === slashClean))
    return undefined;
  const paths = idx.map((i) => table.packages[i]);
  if (paths.some((p) => typeof p !== 'string')) return undefined;
  const [page, ...shared] = paths as string[];
  const build = table.packageBuilds?.[String(idx[0])];
  const types = table.htmlTypes;
  const htmlType = types && typeof types === 'object' && Object.hasOwn(types, key) ? types[key] : undefined;
  return {
    page: page!,
    shared,
    build: typeof build === 'string' && build ? build : table.buildId,
    key,
    // It becomes a response header.
    ...(isHeaderValue(htmlType) && htmlType !== '' ? { htmlType } : {}),
    ...htmlHeadersOf(table, key),
  };
}

interface CompiledRule {
  re: RegExp;
  host?: string;
  clean: boolean;
}

const compiled = new WeakMap<RouteTable, CompiledRule[] | null>();

function compile(list: unknown): CompiledRule[] | null {
  try {
    if (!Array.isArray(list)) throw new TypeError('malformed redirects');
    return list.map((r: unknown): CompiledRule => {
      if (!Array.isArray(r) || typeof r[0] !== 'string' || typeof r[1] !== 'string')
        throw new TypeError('malformed redirect');
      const scope = (r[2] ?? {}) as { host?: unknown; clean?: unknown };
      if (typeof scope !== 'object' || (scope.host !== undefined && typeof scope.host !== 'string'))
        throw new TypeError('malformed redirect');
      return {
        re: new RegExp(r[0], r[1]),
        ...(scope.host !== undefined ? { host: scope.host } : {}),
        clean: scope.clean === true,
      };
    });
  } catch {
    return null;
  }
}

/**
 * Whether the host answers `pathname` itself before its files (the table's `redirects`), tried as sent and
 * percent-decoded; `clean`: the path names its page only by clean URLs (`/about` for about.html), where
 * rules that apply where no file is count too. A list this browser cannot compile takes every path: the
 * host's rules are unknown.
 */
function hostTakes(table: RouteTable, pathname: string, clean: boolean): boolean {
  if (table.redirects === undefined) return false;
  let rules = compiled.get(table);
  if (rules === undefined) compiled.set(table, (rules = compile(table.redirects)));
  if (rules === null) return true;
  if (rules.length === 0) return false;
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // a malformed escape: only the path as sent
  }
  const host = (globalThis as { location?: { host?: string } }).location?.host?.toLowerCase();
  return rules.some(
    (r) =>
      (clean || !r.clean) &&
      (r.host === undefined || host === undefined || r.host === host) &&
      (r.re.test(pathname) || (decoded !== pathname && r.re.test(decoded))),
  );
}

/** The page's header list from the table, if it has a well-formed one (names are tokens, values printable). */
function htmlHeadersOf(table: RouteTable, key: string): { htmlHeaders?: Array<[string, string]> } {
  const h = table.htmlHeaders;
  if (
    !h ||
    typeof h !== 'object' ||
    !Array.isArray(h.sets) ||
    !h.pages ||
    typeof h.pages !== 'object' ||
    !Object.hasOwn(h.pages, key)
  )
    return {};
  const list: unknown = h.sets[h.pages[key]!];
  const ok =
    Array.isArray(list) &&
    list.every((e) => Array.isArray(e) && e.length === 2 && isHeaderName(e[0]) && isHeaderValue(e[1]));
  return ok ? { htmlHeaders: list as Array<[string, string]> } : {};
}

function parseTable(json: unknown): RouteTable {
  const t = json as RouteTable;
  if (
    !t ||
    typeof t !== 'object' ||
    typeof t.buildId !== 'string' ||
    !Array.isArray(t.packages) ||
    typeof t.pages !== 'object'
  ) {
    throw new ObjpackSwError(SwErrorCode.ROUTES, 'malformed route table');
  }
  return t;
}
