import type { RouteTable } from '@objpack/format';
import { errorCode } from '../errors.js';
import { ofTable, type Binding } from './binding.js';
import { objectResponse } from './object-response.js';
import { partialResponse } from './partial.js';
import { objectName } from './requests.js';
import { lookupRoute } from './routes.js';
import { copyBuild, routesStopped } from './stopped-route.js';
import type { ClientRecord } from './store.js';
import type { WorkerState } from './worker-state.js';

const noop = () => {};

/** Answers a page's request for an object from the packages the page was served from, else the network. */
export async function subresource(w: WorkerState, event: FetchEvent): Promise<Response> {
  const name = objectName(event.request.url);
  try {
    const binding = w.bindings.get(event.clientId) ?? (await derived(w, event));
    if (binding) binding.seen = true;
    if (binding?.ready) await binding.ready;
    const res =
      binding &&
      ((await fromBinding(w, binding, name, event.request.url)) ??
        (await w.otherPages.answer(w, binding, name, event.request.url)));
    if (res) return res;
  } catch (err) {
    w.options.onEvent({ type: 'fallback', url: name, code: errorCode(err) });
  }
  return w.network(event.request);
}

async function fromBinding(w: WorkerState, binding: Binding, name: string, url: string): Promise<Response | undefined> {
  for (const p of binding.packages) {
    if (p.run) {
      const index = await p.run.index.catch(() => undefined);
      const slot = index && p.run.slots.get(name);
      if (slot) {
        const requestedAt = performance.now();
        // A failed or corrupt object is never served: the network answers instead.
        const bytes = await slot.done.catch(() => undefined);
        if (!bytes) return undefined;
        const res = slot.entry.partial
          ? partialResponse(slot.entry, bytes, url, p.run.buildId)
          : objectResponse(slot.entry, bytes, p.run.buildId);
        const now = performance.now();
        w.options.onEvent({
          type: 'object-served',
          url: name,
          ms: now - Math.max(slot.doneAt, requestedAt),
          detail: slot.doneAt >= requestedAt ? 'waited' : 'ready',
          at: performance.timeOrigin + slot.receivedAt,
        });
        return res;
      }
      if (index) continue;
    }
    // A held package's record lists its objects: no storage round trip for names it does not carry.
    if (p.names && !p.names.has(name)) continue;
    const cached = await w.store.match([p.cacheName], name);
    if (cached) return cached;
  }
  return undefined;
}

/** Bindings being derived, by worker and client: a page's first requests arrive together, and share one. */
const deriving = new WeakMap<WorkerState, Map<string, Promise<Binding | undefined>>>();

function derived(w: WorkerState, event: FetchEvent): Promise<Binding | undefined> {
  let ongoing = deriving.get(w);
  if (!ongoing) deriving.set(w, (ongoing = new Map()));
  let p = ongoing.get(event.clientId);
  if (!p) {
    const map = ongoing;
    p = deriveBinding(w, event).finally(() => map.delete(event.clientId));
    map.set(event.clientId, p);
  }
  return p;
}

/**
 * After a worker restart the bindings are gone: the page's saved record says where its objects come from;
 * without one (answered by an older worker, never saved, or by the browser from the pages cache), the page's
 * URL in the current table (or the shard holding it) does. With static routes, a page not from the pages
 * cache is the network's.
 *
 * A restarted worker's first answers wait on this, so it reads in two rounds rather than one after another:
 * the record with the client, then (without a record) the table with the page's copy.
 */
async function deriveBinding(w: WorkerState, event: FetchEvent): Promise<Binding | undefined> {
  const { clientId } = event;
  if (!clientId) return undefined;
  const clientAsked = w.scope.clients.get(clientId);
  // Nothing is lost if the record is there: the client is one message, not a read.
  clientAsked.catch(noop);
  const saved = await w.store.client(clientId).catch(() => undefined);
  if (saved) {
    const binding = recordBinding(w, saved);
    w.bindings.set(clientId, binding);
    return binding.packages.length > 0 ? binding : undefined;
  }
  const client = await clientAsked;
  if (!client) return undefined;
  const [table, copy] = await Promise.all([
    w.routes.forPath(new URL(client.url).pathname),
    routesStopped(w) ? copyBuild(w, client.url) : undefined,
  ]);
  if (!routesStopped(w)) return table && bindByTable(w, clientId, tableBinding(w, table, client.url));
  if (!(table && copy === table.buildId)) return fromNetworkPage(w, event, client.url, table);
  // The browser answered the navigation from its copy: the table check that follows a navigation runs now.
  event.waitUntil(w.afterNavigation().catch(noop));
  const packages = await copiedPackages(w, table, client.url).catch(() => undefined);
  return bindByTable(w, clientId, packages ?? tableBinding(w, table, client.url));
}

/**
 * A copied page's packages, planned as a navigation plans them: the held packages' records name their
 * objects, so requests for objects no package carries go to the network without a Cache Storage look-up per
 * package, and a package gone since the copy was written comes whole. A page package fetched now is whatever
 * the host serves: it answers only while it is still the copy's build (the copy is `table`'s).
 */
async function copiedPackages(w: WorkerState, table: RouteTable, url: string): Promise<Binding | undefined> {
  const route = lookupRoute(table, new URL(url).pathname);
  if (!route) return undefined;
  const packages = await w.plan(table, route);
  const own = packages[0];
  if (own?.run) {
    const index = await own.run.index.catch(() => undefined);
    if (!index || !ofTable(table, route, index)) packages[0] = { ...own, run: undefined };
  }
  return { buildId: table.buildId, packages, createdAt: Date.now() };
}

/**
 * Sets a binding derived by a table (empty when the table has no such page). One by `tableBinding` is set
 * right when the table is read: before the table moves, open pages' bindings are saved (client-records.ts
 * pinOpenPages). A copied page's is of the copy's build, whenever it is set.
 */
function bindByTable(w: WorkerState, clientId: string, binding: Binding): Binding | undefined {
  w.bindings.set(clientId, binding);
  return binding.packages.length > 0 ? binding : undefined;
}

/**
 * A page this worker did not answer and has no record of, which the browser did not take from the pages cache:
 * the network's, while the worker was stopped (stopped-route.ts), or a first visit's taken over after its load.
 * Its HTML is the host's current build, so its objects come by a table checked within `routesMaxAgeMs` (one
 * request when older), held packages first. With no table at all (Cache Storage evicted), one request for the
 * table and the page's packages, as a navigation recovers, rather than each object through this worker.
 */
async function fromNetworkPage(
  w: WorkerState,
  event: FetchEvent,
  url: string,
  table: RouteTable | undefined,
): Promise<Binding | undefined> {
  let binding: Binding = { buildId: '', packages: [], createdAt: Date.now(), seen: true };
  if (!table) {
    const recovered = await w.routes.recover(w.options.packageStallMs);
    if (recovered) event.waitUntil(recovered.stored);
    const route = recovered && lookupRoute(recovered.table, new URL(url).pathname);
    if (route) {
      binding = { ...binding, buildId: recovered.table.buildId, packages: await w.plan(recovered.table, route) };
    }
  } else {
    const fresh = w.routes.stale() ? ((await w.routes.refresh().catch(() => undefined)) ?? table) : table;
    binding = { ...tableBinding(w, fresh, url), seen: true };
  }
  w.bindings.set(event.clientId, binding);
  event.waitUntil(w.remember(event.clientId, binding));
  return binding.packages.length > 0 ? binding : undefined;
}

/** Where a page gets its objects by its saved record. */
export function recordBinding(w: WorkerState, saved: ClientRecord): Binding {
  // Runs started since the restart are the current table's; a page package's URL is the same in every
  // build, so only the (content-named) shared packages' runs can serve this page.
  const packages = saved.packages.map((p, i) => ({ ...p, run: i > 0 ? w.runs.get(p.path) : undefined }));
  return { buildId: saved.buildId, packages, createdAt: saved.at, seen: true, saved: true, frozenAt: saved.frozenAt };
}

/** Where a page at `url` gets its objects by `table` (none when the table has no such page). */
export function tableBinding(w: WorkerState, table: RouteTable, url: string): Binding {
  const route = lookupRoute(table, new URL(url).pathname);
  if (!route) return { buildId: '', packages: [], createdAt: Date.now() };
  const packages = [
    { path: route.page, cacheName: w.store.buildName(table.buildId), run: w.runs.get(route.page) },
    ...route.shared.map((path) => ({ path, cacheName: w.store.sharedName(path), run: w.runs.get(path) })),
  ];
  return { buildId: table.buildId, packages, createdAt: Date.now() };
}
