import type { PackageIndex, RouteTable } from '@objpack/format';
import { resolveOptions, type ObjpackOptions, type ResolvedOptions } from '../options.js';
import { Delta } from './delta.js';
import { cacheControlOf } from './host-cache.js';
import { PackageRun } from './package-run.js';
import { carries, ofTable, type Binding, type BoundPackage } from './binding.js';
import { clientGone, mayComeBack, pinOpenPages, saveRecord } from './client-records.js';
import { activate, install, message } from './lifecycle.js';
import { navigate } from './navigation.js';
import { OtherPages } from './other-pages.js';
import { prefetch } from './prefetch.js';
import { Prefetches } from './prefetches.js';
import { RegisterCopy } from './register-copy.js';
import { answerable, clearSiteData, objectName } from './requests.js';
import { lookupRoute, Routes, type Route } from './routes.js';
import { Store, type ClientRecord, type HeldRecord } from './store.js';
import { subresource } from './subresource.js';
import { addStoppedRoutes, clearStoppedPages, keepStoppedPage } from './stopped-route.js';
import { warmPage } from './warm.js';
import type { PlanOptions, WorkerState } from './worker-state.js';

const noop = () => {};

/** Quiet time before Cache Storage writes start: longer than the gaps between a loading page's requests. */
const QUIET_MS = 150;
/** Longest the housekeeping after a navigation (table check, clean-up, delta) waits for a quiet page (ms). */
const MAX_REFRESH_DELAY_MS = 2000;
/** A binding lives at least this long: a navigation's client is not listed by matchAll() until it commits. */
const BINDING_GRACE_MS = 60_000;

/**
 * objpack's fetch handling, usable in any service worker: `handleFetch(event)` returns whether it answered.
 * The classic worker (`objpack-sw.js`) wires it to the events; a Workbox worker can call it first.
 */
export class ObjpackWorker implements WorkerState {
  readonly options: ResolvedOptions;
  readonly store: Store;
  readonly routes: Routes;
  readonly delta: Delta;
  /** @internal Objects of other pages of a page's build (client-side routers). */
  readonly otherPages = new OtherPages();
  /** @internal */ readonly origin: string;
  /** objpack's own directory in the scope (`/repo/_objpack/`): packages, the route table, the warm page (warm.ts). */
  private readonly ownDir: string;
  /** @internal Package path → its fetch and unpacking in progress. */
  readonly runs = new Map<string, PackageRun>();
  /** @internal Client id → the build and packages that page was served from. */
  readonly bindings = new Map<string, Binding>();
  /** @internal Packages fetched ahead: budgeted, cancelled by navigations that do not need them. */
  readonly prefetches: Prefetches;
  /** Client records being saved (see remember). */
  private readonly saving = new Set<Promise<void>>();
  /** @internal `performance.now()` of the last request or HTML completion this worker saw (for the write gate). */
  lastActivity = 0;
  /** @internal Page path → build during which objpack failed for it: that page goes to the network until a new one. */
  readonly bypass = new Map<string, string>();
  /** @internal Page path → build whose HTML entry's headers differ from an early response's: answered the usual way. */
  readonly late = new Map<string, string>();
  /** @internal Pages whose package was unreachable after an early answer: their reload goes to the network once. */
  readonly networkOnce = new Set<string>();
  /** @internal Until this `Date.now()`, navigations are not answered early: a package was just unreachable. */
  earlyOffUntil = 0;
  /** @internal The worker's copy of the registration snippet. */
  readonly register: RegisterCopy;

  constructor(
    /** @internal */ readonly scope: ServiceWorkerGlobalScope,
    options: ObjpackOptions = {},
  ) {
    this.origin = scope.location.origin;
    this.options = resolveOptions(options, this.origin, scope.registration?.scope);
    this.ownDir = `${this.options.scopePath}_objpack/`;
    this.store = new Store(this.options.cachePrefix, this.origin, () => this.retired());
    this.register = new RegisterCopy(this.store, this.options.registerPath, (r) => this.network(r));
    this.routes = new Routes(
      this.store,
      this.options,
      () => this.cleanup(),
      (outgoing) => pinOpenPages(this, outgoing),
      () => clearStoppedPages(this),
    );
    this.delta = new Delta(this.store, this.options);
    this.prefetches = new Prefetches(this.options.prefetchBytes, (run) => {
      if (this.runs.get(run.path) === run) this.runs.delete(run.path);
    });
  }

  /** Answers the request if objpack should; returns false (and does nothing) otherwise. */
  handleFetch(event: FetchEvent): boolean {
    this.lastActivity = performance.now();
    const req = event.request;
    if (!answerable(req, this.origin)) return false;
    const url = new URL(req.url);
    const warm = req.mode === 'navigate' && url.pathname === `${this.ownDir}warm`;
    if (warm) event.respondWith(warmPage(this, event, url));
    // Only the worker's own site: another one on the origin (above the base, or beside it) is none of its business.
    if (warm || !url.pathname.startsWith(this.options.scopePath) || url.pathname.startsWith(this.ownDir)) return warm;
    if (url.pathname === this.options.registerPath && req.mode !== 'navigate') {
      event.respondWith(this.register.answer(event));
      return true;
    }
    if (req.mode === 'navigate') {
      const table = this.routes.table;
      const route = table && lookupRoute(table, url.pathname);
      // Whatever the reader opens now, packages fetched ahead for other pages must not share the link with it.
      this.prefetches.navigation(new Set(route ? [route.page, ...route.shared] : []));
      if (table && !route) return false;
      event.respondWith(navigate(this, event, url));
      return true;
    }
    if (!event.clientId) return false;
    // Requests objpack cannot answer go straight to the network (or the host worker's own routes), without
    // a detour through this handler: pages it did not serve, and URLs in none of the page's packages.
    const binding = this.bindings.get(event.clientId);
    if (binding) {
      const name = objectName(req.url);
      const known = binding.packages.map((p) => carries(p, name));
      if (known.every((k) => k === false) && !this.otherPages.mayHave(this, name)) return false;
    }
    event.respondWith(subresource(this, event));
    return true;
  }

  handleInstall(event: ExtendableEvent): void {
    install(this, event);
    addStoppedRoutes(this, event, this.ownDir);
  }

  handleActivate(event: ExtendableEvent): void {
    activate(this, event);
  }

  handleMessage(event: ExtendableMessageEvent): void {
    message(this, event);
  }

  /** Fetches (without serving) the packages of pages the user is likely to open next. */
  prefetch(urls: readonly string[]): Promise<void> {
    return prefetch(this, urls);
  }

  /**
   * Packages of a route: held ones by cache name, missing ones fetched now. Each package's fetch starts as
   * soon as its own held-check answers, never behind another package's.
   */
  /** @internal */
  async plan(table: RouteTable, route: Route, how: PlanOptions = {}): Promise<Binding['packages']> {
    const { shared = route.shared, ahead = false } = how;
    // A package kept from an earlier build belongs to this table's build: its objects go to this build's cache.
    const buildCache = (index: PackageIndex) =>
      this.store.buildName(ofTable(table, route, index) ? table.buildId : index.buildId);
    const namesOf = (r: HeldRecord) => new Set(r.objects.map((o) => o.name));
    const bind = async (path: string, cacheName: string, start: () => PackageRun): Promise<BoundPackage> => {
      // A completed prefetch answers from memory (its bytes are verified), not object by object from Cache Storage.
      const p: BoundPackage = { path, cacheName, run: this.runs.get(path) };
      // Fetched ahead, its verified bytes wait in memory: a navigation takes them, another prefetch leaves them.
      if (!p.run && this.prefetches.holds(path, cacheName)) {
        if (!ahead) p.run = this.prefetches.take(path, cacheName);
        return p;
      }
      if (p.run) return p;
      const record = await this.store.held(cacheName, path);
      // Another navigation may have started it while we looked.
      p.run = this.runs.get(path);
      if (record && !p.run) {
        p.names = namesOf(record);
        p.html = record.html;
      } else p.run ??= start();
      return p;
    };
    return Promise.all([
      bind(route.page, this.store.buildName(table.buildId), () =>
        this.startRun(route.page, 'page', buildCache, { ahead, table }, table.buildId, route.build),
      ),
      ...shared.map((path) => {
        const cacheName = this.store.sharedName(path);
        return bind(path, cacheName, () => this.startRun(path, 'shared', () => cacheName, { ahead, table }));
      }),
    ]);
  }

  private startRun(
    path: string,
    kind: 'page' | 'shared',
    cacheFor: (i: PackageIndex) => string,
    { ahead, table }: { ahead: boolean; table: RouteTable },
    buildId = '',
    packageBuild = buildId,
  ): PackageRun {
    const run: PackageRun = new PackageRun({
      path,
      kind,
      origin: this.origin,
      options: this.options,
      store: this.store,
      cacheFor,
      have: kind === 'page' ? () => this.delta.plan(path, buildId, packageBuild) : undefined,
      observe: kind === 'page' ? (res, sent) => this.delta.observe(res, sent) : undefined,
      onHeld: (cacheName, record) => {
        this.delta.add(cacheName, record, path);
        this.otherPages.add(cacheName, record, path);
        const now = this.routes.table;
        if (kind === 'page' && record.html && now)
          this.keepCopy(keepStoppedPage(this, now, path, cacheName, record.html));
      },
      quiet: (deadline) => this.quiet(deadline),
      retired: this.store.retired,
      admit: (bytes) => this.prefetches.admit(run, bytes),
      cacheControl: cacheControlOf(table),
    });
    this.runs.set(path, run);
    // Counted before its response can arrive: the budget check runs on the response's headers.
    if (ahead) this.prefetches.add(run);
    void run.finished.then(() => {
      if (this.runs.get(path) === run) this.runs.delete(path);
    });
    return run;
  }

  /** @internal Tracks a page copy's write (stopped-route.ts) until it is done, as {@link settled} waits. */
  keepCopy(copy: Promise<void>): Promise<void> {
    const tracked = copy.catch(noop).finally(() => this.saving.delete(tracked));
    this.saving.add(tracked);
    return tracked;
  }

  /** This worker was replaced by a newer version (its state is `redundant`). */
  private retired(): boolean {
    const me = (this.scope as { serviceWorker?: ServiceWorker }).serviceWorker;
    return me?.state === 'redundant';
  }

  /**
   * Resolves once the worker has seen no request for {@link QUIET_MS} (or at `deadline`, or once `urgent`
   * says so; it is asked every {@link QUIET_MS} at most). Cache Storage
   * writes wait for it: while a page is loading, its requests must not queue behind writes on this thread.
   */
  /** @internal */
  quiet(deadline: number, urgent?: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        const now = performance.now();
        const idle = now - this.lastActivity;
        if (idle >= QUIET_MS || now >= deadline || urgent?.()) return resolve();
        setTimeout(check, Math.min(QUIET_MS - idle, deadline - now));
      };
      check();
    });
  }

  /** @internal */
  async network(request: Request): Promise<Response> {
    const res = await fetch(request);
    const csd = clearSiteData(res);
    if (csd) await this.clearAll(csd.unregister);
    return res;
  }

  /** Offline and the package could not be fetched: any build's copy of the page beats an error page. */
  /** @internal */
  async offlineCopy(...pathnames: string[]): Promise<Response | undefined> {
    // The URL asked for, then the page's own (`/about` for `/about.html`, `/dir/index.html` for `/dir/`).
    for (const pathname of new Set(pathnames)) {
      for (const name of (await caches.keys()).filter((n) => this.store.owns(n)).reverse()) {
        const res = await (await caches.open(name)).match(this.store.key(pathname));
        if (res) return res;
      }
    }
    return undefined;
  }

  /** @internal */
  async afterNavigation(): Promise<void> {
    // Once the page stops asking: the page's requests would wait on this thread behind the housekeeping (a
    // large site's table, 1.8 MB for 10,000 pages, holds it for 100 ms and more while it is read and parsed;
    // the clean-up reads every saved page record; the delta listing is a fetch and a parse).
    await this.quiet(performance.now() + MAX_REFRESH_DELAY_MS);
    if (this.routes.stale()) await this.routes.refresh().catch(noop);
    await this.cleanup();
    if (this.routes.table) await this.delta.refresh(this.routes.table.buildId).catch(noop);
  }

  /** Resolves once no package is in flight: every one unpacked and stored, or given up (tests, benchmarks). */
  async settled(): Promise<void> {
    while (this.runs.size > 0) await Promise.all([...this.runs.values()].map((r) => r.finished));
    await Promise.all(this.saving);
  }

  /**
   * Saves where a page's objects come from, once the worker is quiet: Chromium stops idle workers, and a
   * restarted one must not answer an open page of build 1 from a newer table (subresource.ts deriveBinding).
   * A page of another build than the current table's is saved at once: a restart would get it wrong now.
   */
  remember(clientId: string, binding: Binding): Promise<void> {
    if (!clientId) return Promise.resolve();
    const saving = (async () => {
      await this.quiet(
        performance.now() + 10_000,
        () => binding.saved === true || binding.buildId !== this.routes.table?.buildId,
      );
      if (!binding.saved) await saveRecord(this, clientId, binding).catch(noop);
    })().finally(() => this.saving.delete(saving));
    this.saving.add(saving);
    return saving;
  }

  /** Deletes caches that neither the current build nor any open page uses. */
  async cleanup(): Promise<void> {
    const table = this.routes.table;
    if (!table) return;
    const live = new Set(
      (await this.scope.clients.matchAll({ includeUncontrolled: true, type: 'all' })).map((c) => c.id),
    );
    const keep = new Set<string>([
      this.store.buildName(table.buildId),
      ...table.packages.map((p) => this.store.sharedName(p)),
    ]);
    for (const [id, b] of this.bindings) {
      // A page in the back/forward cache is listed nowhere: its pagehide mark keeps it (client-records.ts).
      const gone =
        !live.has(id) &&
        !mayComeBack(b.frozenAt) &&
        (Date.now() - b.createdAt > BINDING_GRACE_MS || (b.seen && (await clientGone(this.scope.clients, id))));
      if (gone) this.bindings.delete(id);
      else for (const p of b.packages) keep.add(p.cacheName);
    }
    // Pages answered before a restart of this worker are known only from their saved records (a page this
    // worker answered has its binding above, which decides).
    for (const [id, saved] of await this.store.clients().catch(() => new Map<string, ClientRecord>())) {
      if (this.bindings.has(id)) continue;
      if (live.has(id) || mayComeBack(saved.frozenAt)) for (const p of saved.packages) keep.add(p.cacheName);
      else await this.store.forgetClient(id).catch(noop);
    }
    for (const r of this.runs.values()) for (const name of [r.cacheName, ...r.borrowsFrom]) keep.add(name);
    // The awaits above let a refresh adopt a newer table and navigations bind to it: what they use stays.
    const now = this.routes.table;
    if (now && now !== table)
      for (const name of [this.store.buildName(now.buildId), ...now.packages.map((p) => this.store.sharedName(p))])
        keep.add(name);
    for (const b of this.bindings.values()) for (const p of b.packages) keep.add(p.cacheName);
    const gone = await this.store.prune(keep);
    this.delta.forget(gone);
    this.otherPages.forget(gone);
    if (gone.length > 0) this.options.onEvent({ type: 'caches-deleted', url: '', detail: gone.join(' ') });
  }

  /** Clear-Site-Data or a kill switch: forget everything; with `storage`, unregister too. */
  async clearAll(unregister: boolean): Promise<void> {
    for (const r of this.runs.values()) r.abort();
    this.runs.clear();
    this.bindings.clear();
    this.bypass.clear();
    this.late.clear();
    this.networkOnce.clear();
    this.earlyOffUntil = 0;
    this.register.forget();
    this.routes.reset();
    this.delta.reset();
    this.otherPages.reset();
    this.prefetches.clear();
    const gone = await Store.clearAll();
    this.options.onEvent({ type: 'caches-deleted', url: '', detail: gone.join(' ') });
    if (unregister) await this.scope.registration.unregister();
  }
}

/**
 * Creates objpack's fetch handling for use inside an existing service worker (Workbox or your own):
 * call `handler.handleFetch(event)` first in your fetch listener, and forward install/activate/message.
 */
export function createObjpackHandler(
  options: ObjpackOptions & { scope?: ServiceWorkerGlobalScope } = {},
): ObjpackWorker {
  // Static routes would send a host worker's own navigations to the network while it is stopped.
  return new ObjpackWorker(options.scope ?? (self as unknown as ServiceWorkerGlobalScope), {
    stoppedRoute: false,
    ...options,
  });
}
