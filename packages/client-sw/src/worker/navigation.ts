import type { PackageIndex, RouteTable } from '@objpack/format';
import { errorCode, ObjpackSwError, SwErrorCode } from '../errors.js';
import { ofTable, type Binding, type BoundPackage } from './binding.js';
import { earlyAllowed, earlyRoute } from './early-response.js';
import type { ObjpackWorker } from './handler.js';
import { htmlEntry } from './html-entry.js';
import { objectHeaders } from './object-response.js';
import type { PackageRun } from './package-run.js';
import type { Slot } from './slot.js';
import { announcePreloads } from './preload-link.js';
import { refreshTo } from './refresh.js';
import { lookupRoute, type Route } from './routes.js';

const noop = () => {};

/** Failures of the transfer, not of the build: the next visit tries the package again. */
export const transient = (code: string) => code === SwErrorCode.PACKAGE_NETWORK || code === SwErrorCode.PACKAGE_STALLED;

/** Answers a navigation to a page of the table: from its packages, or from the network when objpack cannot. */
export async function navigate(w: ObjpackWorker, event: FetchEvent, url: URL): Promise<Response> {
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
  w: ObjpackWorker,
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
    const record = await w.store.held(page.cacheName, route.page);
    const cached = record?.html ? await w.store.match([page.cacheName], record.html) : undefined;
    if (!cached) throw new ObjpackSwError(SwErrorCode.OBJECT_ABSENT, route.page);
    // A cached Response's headers are immutable: copy them to announce the preloads.
    const headers = new Headers(cached.headers);
    html =
      w.options.preload && announcePreloads(headers, table, route.key)
        ? new Response(cached.body, { status: cached.status, statusText: cached.statusText, headers })
        : cached;
  }
  bind(w, event, { buildId: bound.buildId, packages: bound.packages, createdAt: Date.now() });
  return html;
}

/** Records where the page this navigation creates gets its objects, in memory and (for restarts) on disk. */
export function bind(w: ObjpackWorker, event: FetchEvent, binding: Binding): void {
  w.bindings.set(event.resultingClientId, binding);
  event.waitUntil(
    Promise.resolve(binding.ready)
      .then(() => w.remember(event.resultingClientId, binding))
      .catch(noop),
  );
}

/** The page package's index is in: the build it names, and the page's packages (re-planned after a deploy). */
export async function bindPage(
  w: ObjpackWorker,
  event: FetchEvent,
  table: RouteTable,
  route: Route,
  packages: BoundPackage[],
) {
  const page = packages[0]!;
  const index = await page.run!.index;
  const current = ofTable(table, route, index);
  const buildId = current ? table.buildId : index.buildId;
  page.cacheName = w.store.buildName(buildId);
  if (!current) {
    // A deploy happened since our table: the package's own index names the build and its shared packages.
    event.waitUntil(w.routes.refresh().catch(noop));
    packages = [page, ...(await w.plan(table, route, index.sharedRefs)).slice(1)];
  }
  return { buildId, current, index, packages };
}

/** The slot of the page's HTML entry, once it can be streamed; throws when the package has none or it failed. */
export async function htmlSlot(run: PackageRun, index: PackageIndex, route: Route): Promise<Slot> {
  const entry = htmlEntry(index);
  const slot = entry && run.slots.get(entry.name);
  if (!entry || !slot) throw new ObjpackSwError(SwErrorCode.NO_HTML, route.page);
  // Left out of a delta: the held copy is local, and its headers are the page's own.
  if (slot.borrowed) await slot.done.catch(noop);
  if (slot.state === 'failed') throw new ObjpackSwError(SwErrorCode.DECODE, route.page);
  return slot;
}

/**
 * The HTML failed after the response was handed over (digest mismatch, cut or stalled stream). Send this
 * page to the network (for this build, or only this once when the transfer failed) and reload it, so it
 * ends up exactly as without objpack: if no byte reached the page yet, the document is a one-line refresh;
 * otherwise the partial page is closed and navigated.
 */
export function recover(
  w: ObjpackWorker,
  url: URL,
  buildId: string,
  clientId: string,
  committed: boolean,
  err?: unknown,
): Uint8Array | undefined {
  // A package cut off or stalled on the way says nothing about the build: only this load goes to the network.
  const code = errorCode(err);
  if (transient(code)) w.networkOnce.add(url.pathname);
  else w.bypass.set(url.pathname, buildId);
  w.options.onEvent({
    type: 'fallback',
    url: url.pathname,
    code: transient(code) ? code : SwErrorCode.DECODE,
    detail: committed ? 'navigate' : 'refresh',
  });
  if (!committed) return refreshTo(url);
  const tryNavigate = async (attempt: number): Promise<void> => {
    const client = await w.scope.clients.get(clientId);
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
