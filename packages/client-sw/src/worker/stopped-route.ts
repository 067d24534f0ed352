import type { RouteTable } from '@objpack/format';
import { announcePreloads } from './preload-link.js';
import { pageUrls, stoppedRoutes, type RouterRule } from './stopped-route-rules.js';
import type { WorkerState } from './worker-state.js';

const noop = () => {};

/** Longest a page's copy waits for the worker to be quiet (ms): it is a Cache Storage write like the rest. */
const MAX_COPY_DELAY_MS = 10_000;

/**
 * Navigations while the worker is stopped. Chromium stops a worker after 30 s without events, so a reader who
 * stays on a page opens the next one with the worker stopped, and a stopped worker's first answer comes
 * 30–40 ms after the browser starts it. Where the browser has static routing (`InstallEvent.addRoutes`), the
 * worker leaves those navigations to the browser, which answers them from the pages cache without starting
 * it: a copy of each held page's HTML, as the worker answers it, under the URLs readers open.
 *
 * A page not in the pages cache goes to the network (the router does not fall back to the fetch handler).
 * Its HTML may be a newer deploy's, so its objects come by a table checked now (subresource.ts). Every entry
 * belongs to the build of the table the worker holds: the cache is emptied before another table is stored
 * (Routes `beforeStore`), and a copy is written only while no other table is being adopted.
 */
export const staticRouting = (): boolean => {
  const install = (globalThis as { InstallEvent?: { prototype: object } }).InstallEvent;
  return install !== undefined && 'addRoutes' in install.prototype;
};

/** Whether this worker leaves navigations to the pages cache while it is stopped. */
export const routesStopped = (w: WorkerState): boolean => w.options.stoppedRoute && staticRouting();

/** Registers the routes during install; a browser that refuses them answers every navigation through the worker. */
export function addStoppedRoutes(w: WorkerState, event: ExtendableEvent, ownDir: string): void {
  if (!routesStopped(w)) return;
  const add = (event as ExtendableEvent & { addRoutes?: (rules: RouterRule[]) => Promise<void> }).addRoutes;
  if (typeof add !== 'function') return;
  event.waitUntil(
    add.call(event, stoppedRoutes(w.options.scopePath, ownDir, w.store.pagesName)).catch((err: unknown) => {
      w.options.onEvent({ type: 'fallback', url: w.store.pagesName, detail: String(err) });
    }),
  );
}

/** Empties the pages cache (before another table is stored). */
export async function clearStoppedPages(w: WorkerState): Promise<void> {
  if (!staticRouting()) return;
  await caches.delete(w.store.pagesName);
}

/**
 * Copies a held page's HTML into the pages cache under the URLs that open it (`opened`: the one a navigation
 * used), once the worker is quiet; nothing for a page held in another build's cache than `table`'s, when the
 * table moved meanwhile, or when the copy is there already.
 */
export async function keepStoppedPage(
  w: WorkerState,
  table: RouteTable,
  pagePackage: string,
  cacheName: string,
  html: string,
  opened?: string,
): Promise<void> {
  if (!routesStopped(w) || w.store.retired() || cacheName !== w.store.buildName(table.buildId)) return;
  // Even the look-up waits (a large table's keys are many): a held page's navigation asks for this, and its
  // own requests come first.
  await w.quiet(performance.now() + MAX_COPY_DELAY_MS);
  const keys = Object.keys(table.pages).filter((k) => table.packages[table.pages[k]?.[0] ?? -1] === pagePackage);
  const urls = keys.flatMap((k) => pageUrls(table, k, opened).map((u) => ({ key: k, url: w.store.key(u) })));
  if (urls.length === 0) return;
  const have = await Promise.all(urls.map((u) => caches.match(u.url, { cacheName: w.store.pagesName })));
  const missing = urls.filter((_, i) => !have[i]);
  if (missing.length === 0) return;
  const cached = await w.store.match([cacheName], html);
  if (!cached) return;
  const body = await cached.arrayBuffer();
  const cache = await caches.open(w.store.pagesName);
  for (const { key, url } of missing) {
    const headers = new Headers(cached.headers);
    // A package kept from an earlier build names that build; its copy here is the table's.
    headers.set('x-objpack-build', table.buildId);
    if (w.options.preload) announcePreloads(headers, table, key);
    // Checked right before each write: a table being adopted empties this cache, and nothing of the old
    // build may land in it after that. (A restarted worker may hold only a shard of the stored table.)
    const now = w.routes.table;
    if ((now && now !== table) || w.routes.replacing || w.store.retired()) return;
    await cache.put(url, new Response(body, { status: cached.status, statusText: cached.statusText, headers }));
  }
}

/**
 * For a page this worker did not answer and has no record of: the build of the pages-cache copy the browser
 * answered it from (its objects are then that build's, when it is the table's); undefined when it has none.
 */
export async function copyBuild(w: WorkerState, url: string): Promise<string | undefined> {
  const u = new URL(url);
  u.hash = '';
  const res = await caches.match(u.href, { cacheName: w.store.pagesName }).catch(noop);
  return res?.headers.get('x-objpack-build') ?? undefined;
}

/**
 * A page the browser answered from its copy had no navigation in the worker: the table check and clean-up
 * that follow one run when it first speaks to the worker (its prefetch hints), if none of its requests did.
 */
export async function afterCopiedPage(w: WorkerState, url: string): Promise<void> {
  if (!routesStopped(w)) return;
  const table = await w.routes.current();
  if (table && (await copyBuild(w, url)) === table.buildId) await w.afterNavigation();
}
