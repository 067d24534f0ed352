/** What the worker remembers about a package whose every object is verified and in Cache Storage. */
export interface HeldRecord {
  buildId: string;
  sharedRefs: string[];
  /** Name of the page's HTML entry (page packages only). */
  html?: string;
  objects: Array<{ name: string; digest: string }>;
}

/** Where an open page's objects come from, kept in the meta cache so a restarted worker still knows. */
export interface ClientRecord {
  buildId: string;
  packages: Array<{ path: string; cacheName: string }>;
  /** When the page was answered (ms since the epoch). */
  at: number;
  /** When the page went into the back/forward cache (ms since the epoch; see client-records.ts freeze). */
  frozenAt?: number;
}

/** Meta-cache keys of client records: not a URL any site serves (`/_objpack/` is the build's own). */
const CLIENT_PREFIX = '/_objpack/.client/';

/**
 * Cache Storage layout. Objects live under their own URLs, in one cache per build for page packages and one
 * cache per (content-hashed, immutable) shared package, so shared objects outlive deploys that keep them and
 * a page never reads an object written by another build. A package's record is stored under the package URL
 * in the same cache, written only after all its objects were stored: its presence means "complete".
 */
export class Store {
  constructor(
    private readonly prefix: string,
    private readonly origin: string,
    /**
     * This worker was replaced by a newer version: it writes nothing more. The new version deletes the old
     * layout's caches once, when it activates, and `caches.open` would make them again.
     */
    readonly retired: () => boolean = () => false,
  ) {}

  get metaName(): string {
    return `${this.prefix}-meta`;
  }
  /** Copies of held pages' HTML the browser answers stopped-worker navigations from (stopped-route.ts). */
  get pagesName(): string {
    return `${this.prefix}-pages`;
  }
  buildName(buildId: string): string {
    return `${this.prefix}-build-${buildId}`;
  }
  sharedName(packageUrl: string): string {
    return `${this.prefix}-shared-${packageUrl}`;
  }
  owns(cacheName: string): boolean {
    return cacheName.startsWith(`${this.prefix}-`);
  }

  key(path: string): string {
    return new URL(path, this.origin).href;
  }

  held(cacheName: string, packageUrl: string): Promise<HeldRecord | undefined> {
    return this.readJson<HeldRecord>(cacheName, this.key(packageUrl));
  }

  markHeld(cacheName: string, packageUrl: string, record: HeldRecord): Promise<void> {
    return this.writeJson(cacheName, this.key(packageUrl), record);
  }

  saveClient(id: string, record: ClientRecord): Promise<void> {
    return this.writeJson(this.metaName, this.clientKey(id), record);
  }

  client(id: string): Promise<ClientRecord | undefined> {
    return this.readJson<ClientRecord>(this.metaName, this.clientKey(id));
  }

  /** Puts `res` under `key` in the meta cache, unless this worker was replaced (see {@link retired}). */
  async putMeta(key: string, res: Response): Promise<void> {
    if (this.retired()) return;
    await (await caches.open(this.metaName)).put(key, res);
  }

  /** Deletes `key` from the meta cache, unless this worker was replaced. */
  async deleteMeta(key: string): Promise<void> {
    if (this.retired()) return;
    await (await caches.open(this.metaName)).delete(key);
  }

  /** Every saved client record, by client id. */
  async clients(): Promise<Map<string, ClientRecord>> {
    const out = new Map<string, ClientRecord>();
    if (!(await caches.has(this.metaName))) return out;
    const cache = await caches.open(this.metaName);
    const prefix = this.key(CLIENT_PREFIX);
    for (const req of await cache.keys()) {
      if (!req.url.startsWith(prefix)) continue;
      const res = await cache.match(req);
      if (res) out.set(decodeURIComponent(req.url.slice(prefix.length)), (await res.json()) as ClientRecord);
    }
    return out;
  }

  async forgetClient(id: string): Promise<void> {
    if (this.retired()) return;
    const cache = await caches.open(this.metaName);
    await cache.delete(this.clientKey(id));
  }

  private clientKey(id: string): string {
    return this.key(CLIENT_PREFIX + encodeURIComponent(id));
  }

  private async readJson<T>(cacheName: string, key: string): Promise<T | undefined> {
    // One call, and a missing cache is not created (as caches.open would).
    const res = await caches.match(key, { cacheName });
    return res ? ((await res.json()) as T) : undefined;
  }

  private async writeJson(cacheName: string, key: string, value: unknown): Promise<void> {
    if (this.retired()) return;
    const cache = await caches.open(cacheName);
    await cache.put(key, new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } }));
  }

  /** The first cached response for `path` in the given caches, in order. */
  async match(cacheNames: readonly string[], path: string): Promise<Response | undefined> {
    const key = this.key(path);
    for (const cacheName of cacheNames) {
      // One round trip to the storage backend per cache: this is on every cached object's path.
      const res = await caches.match(key, { cacheName });
      if (res) return res;
    }
    return undefined;
  }

  /** Deletes every cache of ours not in `keep`; returns the names deleted. */
  async prune(keep: ReadonlySet<string>): Promise<string[]> {
    const gone: string[] = [];
    for (const name of await caches.keys()) {
      if (this.owns(name) && name !== this.metaName && name !== this.pagesName && !keep.has(name)) {
        await caches.delete(name);
        gone.push(name);
      }
    }
    return gone;
  }

  /** Deletes all objpack caches, whatever their version prefix (kill switch, Clear-Site-Data). */
  static async clearAll(): Promise<string[]> {
    const gone: string[] = [];
    for (const name of await caches.keys()) {
      if (name.startsWith('objpack-')) {
        await caches.delete(name);
        gone.push(name);
      }
    }
    return gone;
  }
}
