import type { RouteTable } from '@objpack/format';
import { errorCode, ObjpackSwError, SwErrorCode } from '../errors.js';
import type { BoundPackage } from './binding.js';
import { earlyAllowed, earlyRoute } from './early-response.js';
import { recover, transient } from './html-recovery.js';
import { objectHeaders } from './object-response.js';
import { bind, bindPage, htmlSlot } from './page-binding.js';
import { announcePreloads } from './preload-link.js';
import { lookupRoute, type Route } from './routes.js';
import { keepStoppedPage } from './stopped-route.js';
import type { WorkerState } from './worker-state.js';

const noop = () => {};

/** Answers a navigation to a page of the table: from its packages, or from the network when objpack cannot. */
export async function navigate(w: WorkerState, event: FetchEvent, url: URL): Promise<Response> {
  let table = await w.routes.forPath(url.pathname).catch(() => undefined);
  if (!table) {
    // No table in memory or Cache Storage: one request for it, then the page's packages, rather than
    // the page from the network and each of its objects through this worker.
    const recovered = await w.routes.recover(w.options.packageStallMs);
    if (recovered) event.waitUntil(recovered.stored);
    table = recovered?.table;
  }
  if (!table) {
    // Its objects go straight to the network too, not through this worker one by one.
    bind(w, event, { buildId: '', packages: [], createdAt: Date.now() });
    return w.network(event.request);
  }
  const route = lookupRoute(table, url.pathname);
  if (!route) return w.network(event.request);
  const once = w.networkOnce.delete(url.pathname);
  if (once || w.bypass.get(url.pathname) === table.buildId) {
    // The page comes from the network, maybe from a newer build: its objects must too.
    bind(w, event, { buildId: '', packages: [], createdAt: Date.now() });
    const res = w.network(event.request);
    return once
      ? res.catch(async (netErr) => (await w.offlineCopy(url.pathname, route.key)) ?? Promise.reject(netErr))
      : res;
  }
  try {
    const res = await serveRoute(w, event, url, table, route);
    // After the page package's index (an early answer leaves before it): its response tells whether the
    // host serves deltas, which the follow-up work needs.
    const index = w.runs.get(route.page)?.index.catch(noop);
    event.waitUntil(Promise.resolve(index).then(() => w.afterNavigation()));
    return res;
  } catch (err) {
    w.options.onEvent({ type: 'fallback', url: url.pathname, code: errorCode(err) });
    // Unreachable or stalled: this attempt goes to the network, the next visit tries the package again.
    if (!transient(errorCode(err))) w.bypass.set(url.pathname, table.buildId);
    // The page comes from the network, maybe from a newer build: its objects must too.
    bind(w, event, { buildId: '', packages: [], createdAt: Date.now() });
    return w
      .network(event.request)
      .catch(async (netErr) => (await w.offlineCopy(url.pathname, route.key)) ?? Promise.reject(netErr));
  }
}

async function serveRoute(
  w: WorkerState,
  event: FetchEvent,
  url: URL,
  table: RouteTable,
  route: Route,
): Promise<Response> {
  const packages = await w.plan(table, route);
  const page = packages[0]!;
  if (page.run && earlyAllowed(w, url, table, route)) {
    return earlyRoute(w, event, url, table, route, packages);
  }
  let html: Response | undefined;
  let bound: { buildId: string; packages: BoundPackage[] } = { buildId: table.buildId, packages };
  if (page.run) {
    const { buildId, current, index } = (bound = await bindPage(w, event, table, route, packages));
    const slot = await htmlSlot(page.run, index, route);
    const resultingClientId = event.resultingClientId;
    const body = slot.stream((err, committed) => recover(w, url, table.buildId, resultingClientId, committed, err));
    // The page starts asking for its objects once its HTML is in: count that as activity for the write gate.
    void slot.done.then(() => (w.lastActivity = performance.now()), noop);
    const headers = objectHeaders(slot.entry, buildId);
    if (current && w.options.preload) announcePreloads(headers, table, route.key);
    html = new Response(body, { status: 200, headers });
  } else {
    // The record plan() read names the HTML entry: a restarted worker's first answer reads it only once.
    const cached = page.html ? await w.store.match([page.cacheName], page.html) : undefined;
    if (!cached) throw new ObjpackSwError(SwErrorCode.OBJECT_ABSENT, route.page);
    // A cached Response's headers are immutable: copy them to announce the preloads.
    const headers = new Headers(cached.headers);
    html =
      w.options.preload && announcePreloads(headers, table, route.key)
        ? new Response(cached.body, { status: cached.status, statusText: cached.statusText, headers })
        : cached;
    // The next time this page opens with the worker stopped, the browser answers it (stopped-route.ts).
    if (url.search === '')
      event.waitUntil(w.keepCopy(keepStoppedPage(w, table, route.page, page.cacheName, page.html!, url.pathname)));
  }
  bind(w, event, { buildId: bound.buildId, packages: bound.packages, createdAt: Date.now() });
  return html;
}
