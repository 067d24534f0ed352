import type { PackageIndex, RouteTable } from '@objpack/format';
import { errorCode, ObjpackSwError, SwErrorCode } from '../errors.js';
import { resolveOptions, type ObjpackOptions, type ResolvedOptions } from '../options.js';
import { Delta } from './delta.js';
import { htmlEntry } from './html-entry.js';
import { objectHeaders, objectResponse } from './object-response.js';
import { PackageRun, type Slot } from './package-run.js';
import { announcePreloads } from './preload-link.js';
import { partialResponse } from './partial.js';
import { carries, ofTable, type Binding, type BoundPackage } from './binding.js';
import { answerable, clearSiteData, objectName } from './requests.js';
import { lookupRoute, Routes, type Route } from './routes.js';
import { Store, type HeldRecord } from './store.js';

const noop = () => {};
// A meta refresh, not a script: it works under any Content-Security-Policy the page's headers carry.
const REFRESH = '<!doctype html><meta http-equiv="refresh" content="0">';
/** What the build writes for every `.html` page (`contentTypeOf` in the CLI): the early response's type. */
const EARLY_CONTENT_TYPE = 'text/html; charset=utf-8';
/** Table keys whose HTML entry the build types {@link EARLY_CONTENT_TYPE}: directory indexes and `.html`/`.htm`. */
const earlyType = (key: string) => /(\/|\.html?)$/i.test(key);

/** Quiet time before Cache Storage writes start: longer than the gaps between a loading page's requests. */
const QUIET_MS = 150;
/** A binding lives at least this long: a navigation's client is not listed by matchAll() until it commits. */
const BINDING_GRACE_MS = 60_000;

/**
 * objpack's fetch handling, usable in any service worker: `handleFetch(event)` returns whether it answered.
 * The classic worker (`objpack-sw.js`) wires it to the events; a Workbox worker can call it first.
 */
export class ObjpackWorker {
  readonly options: ResolvedOptions;
  readonly store: Store;
  readonly routes: Routes;
  readonly delta: Delta;
  private readonly origin: string;
  private readonly runs = new Map<string, PackageRun>();
  private readonly bindings = new Map<string, Binding>();
  /** `performance.now()` of the last request or HTML completion this worker saw (for the write gate). */
  private lastActivity = 0;
  /** Page path → build during which objpack failed for it: that page goes to the network until a new build. */
  private readonly bypass = new Map<string, string>();
  /** Page path → build whose HTML entry's headers differ from an early response's: answered the usual way. */
  private readonly late = new Map<string, string>();
  /** Pages whose package was unreachable after an early answer: their reload goes to the network once. */
  private readonly networkOnce = new Set<string>();

  constructor(
    private readonly scope: ServiceWorkerGlobalScope,
    options: ObjpackOptions = {},
  ) {
    this.origin = scope.location.origin;
    this.options = resolveOptions(options, this.origin);
    this.store = new Store(this.options.cachePrefix, this.origin);
    this.routes = new Routes(this.store, this.options, () => this.cleanup());
    this.delta = new Delta(this.store, this.options);
  }

  /** Answers the request if objpack should; returns false (and does nothing) otherwise. */
  handleFetch(event: FetchEvent): boolean {
    this.lastActivity = performance.now();
    const req = event.request;
    if (!answerable(req, this.origin)) return false;
    const url = new URL(req.url);
    if (url.pathname.startsWith('/_objpack/')) return false;
    if (req.mode === 'navigate') {
      const table = this.routes.table;
      if (table && !lookupRoute(table, url.pathname)) return false;
      event.respondWith(this.navigate(event, url));
      return true;
    }
    if (!event.clientId) return false;
    // Requests objpack cannot answer go straight to the network (or the host worker's own routes), without
    // a detour through this handler: pages it did not serve, and URLs in none of the page's packages.
    const binding = this.bindings.get(event.clientId);
    if (binding) {
      const name = objectName(req.url);
      const known = binding.packages.map((p) => carries(p, name));
      if (known.every((k) => k === false)) return false;
    }
    event.respondWith(this.subresource(event));
    return true;
  }

  handleInstall(event: ExtendableEvent): void {
    event.waitUntil(this.routes.refresh().catch(noop).then(() => this.scope.skipWaiting()));
  }

  handleActivate(event: ExtendableEvent): void {
    event.waitUntil(
      (async () => {
        // Caches of another objpack version's layout are unreadable to this one.
        for (const name of await caches.keys()) {
          if (name.startsWith('objpack-') && !this.store.owns(name)) await caches.delete(name);
        }
        await this.scope.clients.claim();
      })().catch(noop),
    );
  }

  handleMessage(event: ExtendableMessageEvent): void {
    const data = event.data as { type?: string; urls?: unknown } | null;
    if (data?.type === 'objpack:prefetch' && Array.isArray(data.urls)) {
      event.waitUntil(this.prefetch(data.urls.filter((u): u is string => typeof u === 'string')));
    }
  }

  /** Fetches (without serving) the packages of pages the user is likely to open next. */
  async prefetch(urls: readonly string[]): Promise<void> {
    const table = await this.routes.current();
    if (!table) return;
    const jobs: Array<Promise<boolean>> = [];
    for (const u of urls.slice(0, this.options.maxPrefetch)) {
      let url: URL;
      try {
        url = new URL(u, this.origin);
      } catch {
        continue;
      }
      const route = url.origin === this.origin ? lookupRoute(table, url.pathname) : undefined;
      if (!route || this.bypass.get(url.pathname) === table.buildId) continue;
      this.options.onEvent({ type: 'prefetch', url: url.pathname });
      for (const p of await this.plan(table, route)) if (p.run) jobs.push(p.run.finished);
    }
    await Promise.all(jobs);
  }

  private async navigate(event: FetchEvent, url: URL): Promise<Response> {
    const table = await this.routes.current().catch(() => undefined);
    if (!table) {
      event.waitUntil(this.routes.refresh().catch(noop));
      return this.network(event.request);
    }
    const route = lookupRoute(table, url.pathname);
    if (!route) return this.network(event.request);
    const once = this.networkOnce.delete(url.pathname);
    if (once || this.bypass.get(url.pathname) === table.buildId) {
      // The page comes from the network, maybe from a newer build: its objects must too.
      this.bindings.set(event.resultingClientId, { buildId: '', packages: [], createdAt: Date.now() });
      const res = this.network(event.request);
      return once ? res.catch(async (netErr) => (await this.offlineCopy(url.pathname)) ?? Promise.reject(netErr)) : res;
    }
    try {
      const res = await this.serveRoute(event, url, table, route);
      // After the page package's index (an early answer leaves before it): its response tells whether the
      // host serves deltas, which the follow-up work needs.
      const index = this.runs.get(route.page)?.index.catch(noop);
      event.waitUntil(Promise.resolve(index).then(() => this.afterNavigation()));
      return res;
    } catch (err) {
      this.options.onEvent({ type: 'fallback', url: url.pathname, code: errorCode(err) });
      if (errorCode(err) !== SwErrorCode.PACKAGE_NETWORK) this.bypass.set(url.pathname, table.buildId);
      // The page comes from the network, maybe from a newer build: its objects must too.
      this.bindings.set(event.resultingClientId, { buildId: '', packages: [], createdAt: Date.now() });
      return this.network(event.request).catch(async (netErr) => (await this.offlineCopy(url.pathname)) ?? Promise.reject(netErr));
    }
  }

  /**
   * Packages of a route: held ones by cache name, missing ones fetched now. Each package's fetch starts as
   * soon as its own held-check answers, never behind another package's.
   */
  private async plan(table: RouteTable, route: Route, sharedOverride?: readonly string[]): Promise<Binding['packages']> {
    // A package kept from an earlier build belongs to this table's build: its objects go to this build's cache.
    const buildCache = (index: PackageIndex) => this.store.buildName(ofTable(table, route, index) ? table.buildId : index.buildId);
    const namesOf = (r: HeldRecord) => new Set(r.objects.map((o) => o.name));
    const bind = async (path: string, cacheName: string, start: () => PackageRun): Promise<BoundPackage> => {
      const p: BoundPackage = { path, cacheName, run: this.runs.get(path) };
      if (p.run) return p;
      const record = await this.store.held(cacheName, path);
      // Another navigation may have started it while we looked.
      p.run = this.runs.get(path);
      if (record && !p.run) p.names = namesOf(record);
      else p.run ??= start();
      return p;
    };
    return Promise.all([
      bind(route.page, this.store.buildName(table.buildId), () => this.startRun(route.page, 'page', buildCache, table.buildId, route.build)),
      ...(sharedOverride ?? route.shared).map((path) => {
        const cacheName = this.store.sharedName(path);
        return bind(path, cacheName, () => this.startRun(path, 'shared', () => cacheName));
      }),
    ]);
  }

  private async serveRoute(event: FetchEvent, url: URL, table: RouteTable, route: Route): Promise<Response> {
    const packages = await this.plan(table, route);
    const page = packages[0]!;
    if (page.run && this.options.earlyResponse && earlyType(route.key) && this.late.get(url.pathname) !== table.buildId) {
      return this.earlyRoute(event, url, table, route, packages);
    }
    let html: Response | undefined;
    let bound: { buildId: string; packages: BoundPackage[] } = { buildId: table.buildId, packages };
    if (page.run) {
      const { buildId, current, index } = (bound = await this.bindPage(event, table, route, packages));
      const slot = await this.htmlSlot(page.run, index, route);
      const resultingClientId = event.resultingClientId;
      const body = slot.stream((_err, committed) => this.recover(url, table.buildId, resultingClientId, committed));
      // The page starts asking for its objects once its HTML is in: count that as activity for the write gate.
      void slot.done.then(() => (this.lastActivity = performance.now()), noop);
      const headers = objectHeaders(slot.entry, buildId);
      if (current && this.options.preload) announcePreloads(headers, table, route.key);
      html = new Response(body, { status: 200, headers });
    } else {
      const record = await this.store.held(page.cacheName, route.page);
      const cached = record?.html ? await this.store.match([page.cacheName], record.html) : undefined;
      if (!cached) throw new ObjpackSwError(SwErrorCode.OBJECT_ABSENT, route.page);
      // A cached Response's headers are immutable: copy them to announce the preloads.
      const headers = new Headers(cached.headers);
      html = this.options.preload && announcePreloads(headers, table, route.key) ? new Response(cached.body, { status: cached.status, statusText: cached.statusText, headers }) : cached;
    }
    this.bindings.set(event.resultingClientId, { buildId: bound.buildId, packages: bound.packages, createdAt: Date.now() });
    return html;
  }

  /** The page package's index is in: the build it names, and the page's packages (re-planned after a deploy). */
  private async bindPage(event: FetchEvent, table: RouteTable, route: Route, packages: BoundPackage[]) {
    const page = packages[0]!;
    const index = await page.run!.index;
    const current = ofTable(table, route, index);
    const buildId = current ? table.buildId : index.buildId;
    page.cacheName = this.store.buildName(buildId);
    if (!current) {
      // A deploy happened since our table: the package's own index names the build and its shared packages.
      event.waitUntil(this.routes.refresh().catch(noop));
      packages = [page, ...(await this.plan(table, route, index.sharedRefs)).slice(1)];
    }
    return { buildId, current, index, packages };
  }

  private async htmlSlot(run: PackageRun, index: PackageIndex, route: Route): Promise<Slot> {
    const entry = htmlEntry(index);
    const slot = entry && run.slots.get(entry.name);
    if (!entry || !slot) throw new ObjpackSwError(SwErrorCode.NO_HTML, route.page);
    // Left out of a delta: the held copy is local, and its headers are the page's own.
    if (slot.borrowed) await slot.done.catch(noop);
    if (slot.state === 'failed') throw new ObjpackSwError(SwErrorCode.DECODE, route.page);
    return slot;
  }

  /**
   * `earlyResponse`: the navigation is answered now, while the package is on its way, so the browser sends
   * the `Link` preloads during that round trip and they wait here for their bytes. The headers are the ones
   * the build gives every HTML entry; a page whose entry turns out to differ, and any failure before the
   * HTML's first byte, gets a one-line refresh and goes the usual way (or to the network) on its reload.
   */
  private earlyRoute(event: FetchEvent, url: URL, table: RouteTable, route: Route, packages: BoundPackage[]): Response {
    const run = packages[0]!.run!;
    const clientId = event.resultingClientId;
    const binding: Binding = { buildId: table.buildId, packages, createdAt: Date.now() };
    const bound = this.bindPage(event, table, route, packages);
    binding.ready = bound.then(
      (b) => void ((binding.buildId = b.buildId), (binding.packages = b.packages)),
      noop,
    ).finally(() => (binding.ready = undefined));
    this.bindings.set(clientId, binding);
    event.waitUntil(run.finished);
    const headers = new Headers({ 'content-type': EARLY_CONTENT_TYPE });
    // Preloads of the table's build; after a deploy the page may not use them all (a wasted request, no harm).
    if (this.options.preload) announcePreloads(headers, table, route.key);
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        if (!reader) {
          try {
            const slot = await this.htmlSlot(run, (await bound).index, route);
            if (slot.entry.contentType !== EARLY_CONTENT_TYPE || slot.entry.headers.length > 0) {
              // Headers already sent would be wrong: reload, and answer this page the usual way from now on.
              this.late.set(url.pathname, table.buildId);
              throw new ObjpackSwError(SwErrorCode.NO_HTML, `${route.page} ${slot.entry.contentType}`);
            }
            void slot.done.then(() => (this.lastActivity = performance.now()), noop);
            reader = slot.stream((_err, committed) => this.recover(url, table.buildId, clientId, committed)).getReader();
          } catch (err) {
            controller.enqueue(this.earlyFailure(url, table, err));
            controller.close();
            return;
          }
        }
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader?.cancel(reason),
    });
    return new Response(body, { status: 200, headers });
  }

  /**
   * No HTML byte reached an early-answered page: the same choice as a failed navigation (network, and a
   * bypass unless the package was merely unreachable), made on the page's reload by a meta refresh.
   */
  private earlyFailure(url: URL, table: RouteTable, err: unknown): Uint8Array {
    const code = errorCode(err);
    this.options.onEvent({ type: 'fallback', url: url.pathname, code, detail: 'early-refresh' });
    if (code === SwErrorCode.PACKAGE_NETWORK) this.networkOnce.add(url.pathname);
    // A page whose entry only had other headers than an early response's is served the usual way instead.
    else if (this.late.get(url.pathname) !== table.buildId) this.bypass.set(url.pathname, table.buildId);
    return new TextEncoder().encode(REFRESH);
  }

  /**
   * The HTML failed after the response was handed over (digest mismatch, cut stream). Send this page to the
   * network from now on and reload it, so it ends up exactly as without objpack: if no byte reached the
   * page yet, the document is a one-line refresh; otherwise the partial page is closed and navigated.
   */
  private recover(url: URL, buildId: string, clientId: string, committed: boolean): Uint8Array | undefined {
    this.bypass.set(url.pathname, buildId);
    this.options.onEvent({ type: 'fallback', url: url.pathname, code: SwErrorCode.DECODE, detail: committed ? 'navigate' : 'refresh' });
    if (!committed) return new TextEncoder().encode(REFRESH);
    const tryNavigate = async (attempt: number): Promise<void> => {
      const client = await this.scope.clients.get(clientId);
      if (client && 'navigate' in client) {
        await (client as WindowClient).navigate(url.href).catch(noop);
      } else if (attempt < 20) {
        await new Promise((r) => setTimeout(r, 50));
        return tryNavigate(attempt + 1);
      }
    };
    void tryNavigate(0);
    return undefined;
  }

  private async subresource(event: FetchEvent): Promise<Response> {
    const name = objectName(event.request.url);
    try {
      const binding = this.bindings.get(event.clientId) ?? (await this.deriveBinding(event.clientId));
      if (binding) binding.seen = true;
      if (binding?.ready) await binding.ready;
      const res = binding && (await this.fromBinding(binding, name, event.request.url));
      if (res) return res;
    } catch (err) {
      this.options.onEvent({ type: 'fallback', url: name, code: errorCode(err) });
    }
    return this.network(event.request);
  }

  private async fromBinding(binding: Binding, name: string, url: string): Promise<Response | undefined> {
    for (const p of binding.packages) {
      if (p.run) {
        const index = await p.run.index.catch(() => undefined);
        const slot = index && p.run.slots.get(name);
        if (slot) {
          const requestedAt = performance.now();
          // A failed or corrupt object is never served: the network answers instead.
          const bytes = await slot.done.catch(() => undefined);
          if (!bytes) return undefined;
          const res = slot.entry.partial ? partialResponse(slot.entry, bytes, url, p.run.buildId) : objectResponse(slot.entry, bytes, p.run.buildId);
          const now = performance.now();
          this.options.onEvent({
            type: 'object-served', url: name, ms: now - Math.max(slot.doneAt, requestedAt), detail: slot.doneAt >= requestedAt ? 'waited' : 'ready',
            at: performance.timeOrigin + slot.receivedAt,
          });
          return res;
        }
        if (index) continue;
      }
      // A held package's record lists its objects: no storage round trip for names it does not carry.
      if (p.names && !p.names.has(name)) continue;
      const cached = await this.store.match([p.cacheName], name);
      if (cached) return cached;
    }
    return undefined;
  }

  /** After a worker restart the bindings are gone: rebuild one from the page's URL and the current table. */
  private async deriveBinding(clientId: string): Promise<Binding | undefined> {
    if (!clientId) return undefined;
    const [client, table] = await Promise.all([this.scope.clients.get(clientId), this.routes.current()]);
    if (!client || !table) return undefined;
    const route = lookupRoute(table, new URL(client.url).pathname);
    if (!route) {
      this.bindings.set(clientId, { buildId: '', packages: [], createdAt: Date.now() });
      return undefined;
    }
    const packages = [
      { path: route.page, cacheName: this.store.buildName(table.buildId), run: this.runs.get(route.page) },
      ...route.shared.map((path) => ({ path, cacheName: this.store.sharedName(path), run: this.runs.get(path) })),
    ];
    const binding = { buildId: table.buildId, packages, createdAt: Date.now() };
    this.bindings.set(clientId, binding);
    return binding;
  }

  private startRun(path: string, kind: 'page' | 'shared', cacheFor: (i: PackageIndex) => string, buildId = '', packageBuild = buildId): PackageRun {
    const run = new PackageRun({
      path, kind, origin: this.origin, options: this.options, store: this.store, cacheFor,
      have: kind === 'page' ? () => this.delta.plan(path, buildId, packageBuild) : undefined,
      observe: kind === 'page' ? (res, sent) => this.delta.observe(res, sent) : undefined,
      onHeld: (cacheName, record) => this.delta.add(cacheName, record),
      quiet: (deadline) => this.quiet(deadline),
      retired: () => this.retired(),
    });
    this.runs.set(path, run);
    void run.finished.then(() => {
      if (this.runs.get(path) === run) this.runs.delete(path);
    });
    return run;
  }

  /** This worker was replaced by a newer version (its state is `redundant`). */
  private retired(): boolean {
    const me = (this.scope as { serviceWorker?: ServiceWorker }).serviceWorker;
    return me?.state === 'redundant';
  }

  /**
   * Resolves once the worker has seen no request for {@link QUIET_MS} (or at `deadline`). Cache Storage
   * writes wait for it: while a page is loading, its requests must not queue behind writes on this thread.
   */
  private quiet(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        const now = performance.now();
        const idle = now - this.lastActivity;
        if (idle >= QUIET_MS || now >= deadline) return resolve();
        setTimeout(check, Math.min(QUIET_MS - idle, deadline - now));
      };
      check();
    });
  }

  private async network(request: Request): Promise<Response> {
    const res = await fetch(request);
    const csd = clearSiteData(res);
    if (csd) await this.clearAll(csd.unregister);
    return res;
  }

  /** Offline and the package could not be fetched: any build's copy of the page beats an error page. */
  private async offlineCopy(pathname: string): Promise<Response | undefined> {
    for (const name of (await caches.keys()).filter((n) => this.store.owns(n)).reverse()) {
      const res = await (await caches.open(name)).match(this.store.key(pathname));
      if (res) return res;
    }
    return undefined;
  }

  private async afterNavigation(): Promise<void> {
    if (this.routes.stale()) await this.routes.refresh().catch(noop);
    await this.cleanup();
    const table = this.routes.table;
    if (table) await this.delta.refresh(table.buildId).catch(noop);
  }

  /** Resolves once no package is in flight: every one unpacked and stored, or given up (tests, benchmarks). */
  async settled(): Promise<void> {
    while (this.runs.size > 0) await Promise.all([...this.runs.values()].map((r) => r.finished));
  }

  /** Deletes caches that neither the current build nor any open page uses. */
  async cleanup(): Promise<void> {
    const table = this.routes.table;
    if (!table) return;
    const live = new Set((await this.scope.clients.matchAll({ includeUncontrolled: true, type: 'all' })).map((c) => c.id));
    const keep = new Set<string>([this.store.buildName(table.buildId), ...table.packages.map((p) => this.store.sharedName(p))]);
    for (const [id, b] of this.bindings) {
      if (!live.has(id) && (b.seen || Date.now() - b.createdAt > BINDING_GRACE_MS)) this.bindings.delete(id);
      else for (const p of b.packages) keep.add(p.cacheName);
    }
    for (const r of this.runs.values()) for (const name of [r.cacheName, ...r.borrowsFrom]) keep.add(name);
    const gone = await this.store.prune(keep);
    this.delta.forget(gone);
    if (gone.length > 0) this.options.onEvent({ type: 'caches-deleted', url: '', detail: gone.join(' ') });
  }

  /** Clear-Site-Data or a kill switch: forget everything; with `storage`, unregister too. */
  async clearAll(unregister: boolean): Promise<void> {
    for (const r of this.runs.values()) r.abort();
    this.runs.clear();
    this.bindings.clear();
    this.routes.reset();
    this.delta.reset();
    const gone = await Store.clearAll();
    this.options.onEvent({ type: 'caches-deleted', url: '', detail: gone.join(' ') });
    if (unregister) await this.scope.registration.unregister();
  }
}

/**
 * Creates objpack's fetch handling for use inside an existing service worker (Workbox or your own):
 * call `handler.handleFetch(event)` first in your fetch listener, and forward install/activate/message.
 */
export function createObjpackHandler(options: ObjpackOptions & { scope?: ServiceWorkerGlobalScope } = {}): ObjpackWorker {
  return new ObjpackWorker(options.scope ?? (self as unknown as ServiceWorkerGlobalScope), options);
}
