import { PACKAGE_DIR, sriToDigest } from '@objpack/format';
import type { ResolvedOptions } from '../options.js';
import { textUpTo } from './capped-body.js';
import type { HeldRecord, Store } from './store.js';

/** One object of a page package, as the build names it: [name, `sha256-…` digest, content type]. */
type ListingRow = readonly [name: string, digest: string, contentType: string];

/**
 * What a delta needs of a build: page packages' objects, in package order, from `objpack serve`'s listing
 * (`complete`: every page package of the build is in it).
 */
interface Listing {
  buildId: string;
  complete: boolean;
  packages: Record<string, ListingRow[]>;
}

/** An object the worker says it holds, and the verified copy in Cache Storage that will stand in for it. */
export interface Claim {
  name: string;
  digest: string;
  contentType: string;
  /** Cache and URL path of the copy (another page's package, or the previous build's). */
  cacheName: string;
  heldAs: string;
}

/** What a page-package request sends in `X-Objpack-Have`, and how to rebuild the whole package from the delta. */
export interface HavePlan {
  buildId: string;
  /** Build ids a delta for these claims may name: the listing's, and the one the page package itself carries. */
  builds: readonly string[];
  header: string;
  claims: Map<string, Claim>;
  /** The full package's objects in order (from the listing). */
  order: readonly ListingRow[];
}

/**
 * `objpack serve`'s delta listing (serve/src/delta-listing.ts): all page packages while small, else those asked.
 * Its path for a site at `/`; the worker asks the one in its scope (`/repo/_objpack/listing`).
 */
export const LISTING_PATH = `/${PACKAGE_DIR}/listing`;
/** Packages named per listing request (the server's limit). */
const MAX_LISTED = 64;
/** Longest listing URL (paths are encoded twice): well under servers' 8–16 KB request-header limits. */
const MAX_LISTING_URL = 6000;
/** After a listing request that failed (status, size, another build, network): no new one before this. */
export const LISTING_RETRY_MS = 60_000;
/** A listing is read up to this size decoded (a hostile or broken server cannot make the worker parse more). */
export const MAX_LISTING_BYTES = 4 * 1024 * 1024;

/** Server-side: at most 2000 items; a header this size stays far below every server's header limit. */
const MAX_CLAIMS = 400;
/** 16 base64 characters = 96 bits of the digest: objpack serve accepts prefixes of 8 or more. */
const PREFIX = 16;

const normal = (sri: string) => sri.replace(/=+$/, '');

/**
 * Delta packages with `objpack serve` (its `X-Objpack-Have` extra). Off until a page-package response
 * says the origin varies on that header, so a plain static host never sees it and never costs a request.
 * The page's objects and their digests come from the server's listing, fetched in the background once per
 * build: for every page while the site is small, else for the page packages the worker holds (a page seen
 * before that a deploy changed gets a delta; a page never seen comes whole). Without it the worker could
 * not tell which held copy stands for an object the delta leaves out (the server matches digests, the page
 * asks for URLs). The worker claims only verified copies it holds.
 */
export class Delta {
  /** undefined: not known; true: the origin answers `X-Objpack-Have`; false: it ignores it. */
  capable: boolean | undefined;
  private listing: Listing | undefined;
  /** Digest → where a verified copy lives, from the records of complete packages. */
  private readonly held = new Map<string, { cacheName: string; name: string }>();
  /** Page packages held (URL path → cache): the ones an incomplete listing is asked for. */
  private readonly heldPages = new Map<string, string>();
  private scanned = false;
  private loaded: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  /** Packages a listing of the build answered for (listed, or not page packages of it): not asked again. */
  private asked: { buildId: string; paths: Set<string> } | undefined;
  /** A build whose listing request failed, and when to try again. */
  private retry: { buildId: string; at: number } | undefined;

  constructor(
    private readonly store: Store,
    private readonly options: ResolvedOptions,
  ) {}

  private get stateKey(): string {
    return this.store.key(`${this.options.scopePath}${PACKAGE_DIR}/.worker-delta-state`);
  }

  /** Notes what a page-package response says about the origin (no request of its own). */
  observe(res: Response, sentHave: boolean): void {
    if (!this.options.delta) return;
    const varies = /(^|,)\s*x-objpack-have\s*(,|$)/i.test(res.headers.get('vary') ?? '');
    let next = this.capable;
    // A server that varies on the header but answered a claim with a plain package has deltas switched off.
    if (sentHave && !res.headers.has('x-objpack-dynamic')) next = false;
    else if (varies && this.capable === undefined) next = true;
    if (next === this.capable) return;
    this.capable = next;
    this.options.onEvent({ type: 'delta', url: res.url, detail: next ? 'capable' : 'off' });
    void this.persist();
  }

  /**
   * The claims for a page package, from memory only (never delays a navigation); undefined = ask for all.
   * `buildId` is the route table's build; `packageBuild` the build id the package's index carries in it
   * (an earlier build's for a package an incremental build kept).
   */
  plan(packagePath: string, buildId: string, packageBuild = buildId): HavePlan | undefined {
    const m = this.listing;
    if (!this.options.delta || this.capable !== true || !m || m.buildId !== buildId) return undefined;
    const order = m.packages[packagePath];
    if (!order) return undefined;
    const claims = new Map<string, Claim>();
    for (const [name, digest, contentType] of order) {
      const at = this.held.get(normal(digest));
      if (!at || claims.size >= MAX_CLAIMS) continue;
      claims.set(name, { name, digest, contentType, cacheName: at.cacheName, heldAs: at.name });
    }
    if (claims.size === 0) return undefined;
    const header = [...claims.values()].map((c) => c.digest.replace(/^sha256-/, '').slice(0, PREFIX)).join(',');
    return { buildId, builds: packageBuild === buildId ? [buildId] : [buildId, packageBuild], header, claims, order };
  }

  /** A package (URL path `path`) became complete in `cacheName`: its objects can be claimed from now on. */
  add(cacheName: string, record: HeldRecord, path: string): void {
    for (const o of record.objects) this.held.set(normal(o.digest), { cacheName, name: o.name });
    if (record.html !== undefined) this.heldPages.set(path, cacheName);
  }

  /** Caches that were deleted: their objects are gone. */
  forget(cacheNames: readonly string[]): void {
    const gone = new Set(cacheNames);
    for (const [d, at] of this.held) if (gone.has(at.cacheName)) this.held.delete(d);
    for (const [p, cacheName] of this.heldPages) if (gone.has(cacheName)) this.heldPages.delete(p);
  }

  reset(): void {
    this.capable = undefined;
    this.listing = undefined;
    this.held.clear();
    this.heldPages.clear();
    this.asked = undefined;
    this.retry = undefined;
    this.scanned = false;
    this.loaded = undefined;
  }

  /** Background work after a navigation: state from the meta cache, the held digests, the build's listing. */
  refresh(buildId: string): Promise<void> {
    this.refreshing ??= this.doRefresh(buildId).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async doRefresh(buildId: string): Promise<void> {
    if (!this.options.delta) return;
    await (this.loaded ??= this.load());
    if (this.capable !== true) return;
    if (!this.scanned) await this.scan();
    let m = this.listing?.buildId === buildId ? this.listing : undefined;
    if (m?.complete) return;
    if (this.retry?.buildId === buildId && Date.now() < this.retry.at) return;
    if (this.asked?.buildId !== buildId) this.asked = { buildId, paths: new Set() };
    const asked = this.asked.paths;
    const listingUrl = (paths: readonly string[]) => {
      const u = new URL(this.store.key(`${this.options.scopePath}${LISTING_PATH.slice(1)}`));
      for (const p of paths) u.searchParams.append('p', p);
      return u;
    };
    const want: string[] = [];
    for (const p of this.heldPages.keys()) {
      if (asked.has(p) || m?.packages[p]) continue;
      if (want.length === MAX_LISTED || listingUrl([...want, p]).href.length > MAX_LISTING_URL) break;
      want.push(p);
    }
    const url = listingUrl(want);
    // The first request of a build goes even with nothing held: a small site's answer is complete.
    if (m && want.length === 0) return;
    const ownDir = `${this.options.scopePath}${PACKAGE_DIR}/`;
    const answer = await fetch(url.href, { cache: 'no-store', credentials: 'same-origin' })
      .then(async (res) => (res.status === 200 ? await textUpTo(res, MAX_LISTING_BYTES) : undefined))
      .then((text) => (text === undefined ? undefined : parseListing(text, ownDir)))
      .catch(() => undefined);
    if (!answer || answer.buildId !== buildId) {
      // Too big, refused, unreadable, or another build (a deploy under way): not again on every navigation.
      this.retry = { buildId, at: Date.now() + LISTING_RETRY_MS };
      this.options.onEvent({ type: 'delta', url: url.pathname, detail: `listing failed for build ${buildId}` });
      return;
    }
    this.retry = undefined;
    for (const p of want) asked.add(p);
    m = this.listing?.buildId === buildId ? this.listing : undefined;
    this.listing = { buildId, complete: answer.complete, packages: { ...m?.packages, ...answer.packages } };
    this.options.onEvent({
      type: 'delta',
      url: url.pathname,
      detail: `listing ${buildId}${answer.complete ? '' : ` (${Object.keys(answer.packages).length} packages)`}`,
    });
    await this.persist();
  }

  private async load(): Promise<void> {
    const res = await caches.match(this.stateKey, { cacheName: this.store.metaName }).catch(() => undefined);
    if (!res) return;
    const state = (await res.json().catch(() => undefined)) as { capable?: boolean; listing?: Listing } | undefined;
    this.capable ??= state?.capable;
    this.listing ??= state?.listing;
  }

  /** Reads the records of every complete package we hold (once; later ones arrive through add()). */
  private async scan(): Promise<void> {
    this.scanned = true;
    for (const name of await caches.keys()) {
      if (!this.store.owns(name) || name === this.store.metaName) continue;
      const cache = await caches.open(name);
      for (const req of await cache.keys()) {
        const path = new URL(req.url).pathname;
        if (!path.startsWith(`${this.options.scopePath}${PACKAGE_DIR}/`) || !path.endsWith('.objp')) continue;
        const record = (await (await cache.match(req))?.json().catch(() => undefined)) as HeldRecord | undefined;
        if (record && Array.isArray(record.objects)) this.add(name, record, path);
      }
    }
  }

  private async persist(): Promise<void> {
    // `false` is not kept: a restarted worker asks again once, so a server that turns deltas on is noticed.
    const body = JSON.stringify({ capable: this.capable === true ? true : undefined, listing: this.listing });
    await this.store
      .putMeta(this.stateKey, new Response(body, { headers: { 'content-type': 'application/json' } }))
      .catch(() => {});
  }
}

/**
 * A listing as `objpack serve` writes it; undefined when it is not one we understand (rows checked one by one).
 * Packages are named in objpack's directory of the worker's scope (`ownDir`, `/repo/_objpack/`).
 */
function parseListing(text: string, ownDir: string): Listing | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { buildId, complete, packages } = (v ?? {}) as { buildId?: unknown; complete?: unknown; packages?: unknown };
  if (typeof buildId !== 'string' || !packages || typeof packages !== 'object') return undefined;
  const out: Record<string, ListingRow[]> = {};
  for (const [url, list] of Object.entries(packages)) {
    if (!url.startsWith(ownDir) || !Array.isArray(list)) continue;
    const rows: ListingRow[] = [];
    for (const r of list as unknown[]) {
      if (
        !Array.isArray(r) ||
        typeof r[0] !== 'string' ||
        !r[0].startsWith('/') ||
        typeof r[1] !== 'string' ||
        !sriToDigest(r[1])
      )
        continue;
      rows.push([r[0], r[1], String(r[2])]);
    }
    out[url] = rows;
  }
  return { buildId, complete: complete === true, packages: out };
}
