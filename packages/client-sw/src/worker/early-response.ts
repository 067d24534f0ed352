import { UTF8_HTML, type RouteTable } from '@objpack/format';
import { errorCode, ObjpackSwError, SwErrorCode } from '../errors.js';
import type { Binding, BoundPackage } from './binding.js';
import { recover, transient } from './html-recovery.js';
import { bind, bindPage, htmlSlot } from './page-binding.js';
import { announcePreloads } from './preload-link.js';
import { refreshTo } from './refresh.js';
import type { Route } from './routes.js';
import type { Slot } from './slot.js';
import type { WorkerState } from './worker-state.js';

const noop = () => {};
/** How long navigations skip the early answer after a package was unreachable (ms). */
const EARLY_BACKOFF_MS = 60_000;
/** Table keys whose HTML entry the build types {@link UTF8_HTML}: directory indexes and `.html`/`.htm`. */
export const earlyType = (key: string) => /(\/|\.html?)$/i.test(key);

/** Whether this navigation may be answered before its package's first byte. */
export function earlyAllowed(w: WorkerState, url: URL, table: RouteTable, route: Route): boolean {
  if (!w.options.earlyResponse || !earlyType(route.key) || w.late.get(route.key) === table.buildId) return false;
  // Under a CSP sandbox (without scripts) the failure path's meta refresh would be blocked: no early answer.
  if (route.htmlHeaders?.some(([n, v]) => n === 'content-security-policy' && /(^|;)\s*sandbox\b/i.test(v)))
    return false;
  // navigator.onLine false is reliable (true is not): no early answer that can only end in a refresh.
  return Date.now() >= w.earlyOffUntil && (w.scope as { navigator?: { onLine?: boolean } }).navigator?.onLine !== false;
}

/**
 * `earlyResponse`: the navigation is answered now, while the package is on its way, so the browser sends
 * the `Link` preloads during that round trip and they wait here for their bytes. The headers are the ones
 * the build gives every HTML entry; a page whose entry turns out to differ, and any failure before the
 * HTML's first byte, gets a one-line refresh and goes the usual way (or to the network) on its reload.
 */
export function earlyRoute(
  w: WorkerState,
  event: FetchEvent,
  url: URL,
  table: RouteTable,
  route: Route,
  packages: BoundPackage[],
): Response {
  const run = packages[0]!.run!;
  const clientId = event.resultingClientId;
  const binding: Binding = { buildId: table.buildId, packages, createdAt: Date.now() };
  const bound = bindPage(w, event, table, route, packages);
  binding.ready = bound
    .then(
      // A record saved before this (a back/forward-cache mark) no longer matches: it is saved again.
      (b) => void ((binding.buildId = b.buildId), (binding.packages = b.packages), (binding.saved = false)),
      noop,
    )
    .finally(() => (binding.ready = undefined));
  bind(w, event, binding);
  event.waitUntil(run.finished);
  const type = route.htmlType ?? UTF8_HTML;
  const headers = new Headers({ 'content-type': type });
  // The page's own headers (CSP, COOP/COEP…) as the table lists them; the package's entry must agree.
  for (const [name, value] of route.htmlHeaders ?? []) headers.append(name, value);
  // Preloads of the table's build; after a deploy the page may not use them all (a wasted request, no harm).
  if (w.options.preload) announcePreloads(headers, table, route.key);
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let html: Slot | undefined;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      if (!reader) {
        try {
          const slot = (html = await htmlSlot(run, (await bound).index, route));
          // The page went away while the package was on its way: attach no reader to the slot.
          if (cancelled) return;
          if (slot.entry.contentType !== type || !sameHeaders(slot.entry.headers, route.htmlHeaders ?? [])) {
            // Headers already sent would be wrong: reload, and answer this page the usual way from now on.
            w.late.set(route.key, table.buildId);
            throw new ObjpackSwError(SwErrorCode.NO_HTML, `${route.page} ${slot.entry.contentType}`);
          }
          void slot.done.then(() => (w.lastActivity = performance.now()), noop);
          reader = slot
            .stream((err, committed) => recover(w, url, table.buildId, clientId, committed, err))
            .getReader();
        } catch (err) {
          controller.enqueue(earlyFailure(w, url, table, route, err));
          controller.close();
          return;
        }
      }
      // Once the HTML is verified all its chunks are queued: hand them over and close in this turn, not one
      // chunk per pull (each pull waits its turn behind the worker's other work).
      do {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
      } while (html?.state === 'done' && !cancelled);
    },
    cancel: (reason) => {
      cancelled = true;
      return reader?.cancel(reason);
    },
  });
  return new Response(body, { status: 200, headers });
}

/** The entry's headers are exactly the ones the early answer sent (names as the build writes them: lower case). */
function sameHeaders(
  entry: ReadonlyArray<readonly [string, string]>,
  sent: ReadonlyArray<readonly [string, string]>,
): boolean {
  return (
    entry.length === sent.length && entry.every(([n, v], i) => n.toLowerCase() === sent[i]![0] && v === sent[i]![1])
  );
}

/**
 * No HTML byte reached an early-answered page: the same choice as a failed navigation (network, and a
 * bypass unless the package was merely unreachable), made on the page's reload by a meta refresh.
 */
function earlyFailure(w: WorkerState, url: URL, table: RouteTable, route: Route, err: unknown): Uint8Array {
  const code = errorCode(err);
  w.options.onEvent({ type: 'fallback', url: url.pathname, code, detail: 'early-refresh' });
  if (transient(code)) {
    w.networkOnce.add(url.pathname);
    // Offline or the host is down: answering early would cost every page a refresh on top of the network.
    w.earlyOffUntil = Date.now() + EARLY_BACKOFF_MS;
  }
  // A page whose entry only had other headers than an early response's is served the usual way instead.
  else if (w.late.get(route.key) !== table.buildId) w.bypass.set(url.pathname, table.buildId);
  return refreshTo(url);
}
