import type { RouteTable } from '@objpack/format';
import { errorCode } from '../errors.js';
import type { Binding } from './binding.js';
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
 * URL in the current table does. With static routes, a page not from the pages cache is the network's.
 *
 * A restarted worker's first answers wait on this: the record, the client, the table (or the shard holding
 * the page) and the page's copy are asked for together, not one Cache Storage round trip after another.
 */
async function deriveBinding(w: WorkerState, event: FetchEvent): Promise<Binding | undefined> {
  const { clientId } = event;
  if (!clientId) return undefined;
  const savedAsked = w.store.client(clientId).catch(() => undefined);
  const clientAsked = w.scope.clients.get(clientId);
  const tableAsked = clientAsked.then((c) => (c ? w.routes.forPath(new URL(c.url).pathname) : undefined));
  const copyAsked = clientAsked.then((c) => (c && routesStopped(w) ? copyBuild(w, c.url) : undefined));
  // Unused when the page has a record; its failures are the awaits' below.
  tableAsked.catch(noop);
  copyAsked.catch(noop);
  const saved = await savedAsked;
  if (saved) {
    const binding = recordBinding(w, saved);
    w.bindings.set(clientId, binding);
    return binding.packages.length > 0 ? binding : undefined;
  }
  const [client, table] = await Promise.all([clientAsked, tableAsked]);
  if (!client) return undefined;
  if (!routesStopped(w)) return table && bindByTable(w, clientId, tableBinding(w, table, client.url));
  if (!(table && (await copyAsked) === table.buildId)) return fromNetworkPage(w, event, client.url, table);
  // The browser answered the navigation from its copy: the table check that follows a navigation runs now.
  event.waitUntil(w.afterNavigation().catch(noop));
  // Planned as a navigation is: the held packages' records name their objects, so requests for objects no
  // package carries go to the network without a Cache Storage look-up per package, and a package gone since
  // the copy was written comes whole. The copy is of this table's build, so the binding stays right if the
  // table moves meanwhile.
  const route = lookupRoute(table, new URL(client.url).pathname);
  if (!route) return undefined;
  const packages = await w.plan(table, route);
  return bindByTable(w, clientId, { buildId: table.buildId, packages, createdAt: Date.now() });
}

function bindByTable(w: WorkerState, clientId: string, binding: Binding): Binding | undefined {
  // Right while the table is the one the page was answered from: before it moves, the binding is saved
  // (client-records.ts pinOpenPages).
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
