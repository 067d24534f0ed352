import type { RouteTable } from '@objpack/format';
import { errorCode } from '../errors.js';
import type { Binding } from './binding.js';
import { objectResponse } from './object-response.js';
import { partialResponse } from './partial.js';
import { objectName } from './requests.js';
import { lookupRoute } from './routes.js';
import type { ClientRecord } from './store.js';
import type { WorkerState } from './worker-state.js';

/** Answers a page's request for an object from the packages the page was served from, else the network. */
export async function subresource(w: WorkerState, event: FetchEvent): Promise<Response> {
  const name = objectName(event.request.url);
  try {
    const binding = w.bindings.get(event.clientId) ?? (await deriveBinding(w, event.clientId));
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

/**
 * After a worker restart the bindings are gone: the page's saved record says where its objects come from;
 * without one (answered by an older worker, or never saved), the page's URL in the current table does.
 */
async function deriveBinding(w: WorkerState, clientId: string): Promise<Binding | undefined> {
  if (!clientId) return undefined;
  const saved = await w.store.client(clientId).catch(() => undefined);
  if (saved) {
    const binding = recordBinding(w, saved);
    w.bindings.set(clientId, binding);
    return binding.packages.length > 0 ? binding : undefined;
  }
  const [client, table] = await Promise.all([w.scope.clients.get(clientId), w.routes.current()]);
  if (!client || !table) return undefined;
  // Right while the table is the one the page was answered from: before it moves, the binding is saved
  // (client-records.ts pinOpenPages).
  const binding = tableBinding(w, table, client.url);
  w.bindings.set(clientId, binding);
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
