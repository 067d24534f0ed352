import type { PreloadEntry, RouteTable } from '@objpack/format';
import { errorCode } from '../errors.js';
import { carries, type Binding, type BoundPackage } from './binding.js';
import { cacheControlOf, reusable } from './host-cache.js';
import { preloadsFor } from './preload-link.js';
import { warmable, warmDocument } from './warm-document.js';
import { lookupRoute } from './routes.js';
import type { WorkerState } from './worker-state.js';

/** Longest the warm page waits for the index of a shared package on its way (ms). */
const INDEX_WAIT_MS = 3000;

/**
 * The warm page (`<scope>_objpack/warm?page=<path>`), which the registration snippet loads in a hidden
 * frame once the worker controls a page it did not answer (a first visit). Chromium's memory cache keeps
 * a controlled page's responses apart from those of a page without a worker, so the next page would ask
 * the worker for every object the first one already has; the frame, controlled from its start, preloads
 * the first page's objects that its shared packages carry and its host lets a browser reuse, and the
 * registration snippet, from the worker's memory or Cache Storage, never the network. The next page takes
 * them from the memory cache.
 */
export async function warmPage(w: WorkerState, event: FetchEvent, url: URL): Promise<Response> {
  let entries: PreloadEntry[] = [];
  try {
    const table = await w.routes.current();
    const route = table && lookupRoute(table, url.searchParams.get('page') ?? '');
    if (table && route) {
      const packages = await Promise.all(route.shared.map((path) => boundShared(w, path)));
      const binding: Binding = { buildId: table.buildId, packages, createdAt: Date.now(), seen: true };
      w.bindings.set(event.resultingClientId, binding);
      entries = warmList(table, route.key, packages);
      // The snippet rides along when the frame loads anyway: alone it is not worth a frame.
      const snippet = w.register.path;
      if (entries.length > 0 && !entries.some(([u]) => u === snippet) && (await w.register.held()))
        entries.push([snippet, 'script']);
    }
  } catch (err) {
    w.options.onEvent({ type: 'fallback', url: url.pathname, code: errorCode(err) });
  }
  w.options.onEvent({ type: 'warm', url: url.searchParams.get('page') ?? '', detail: String(entries.length) });
  const { html, endless } = warmDocument(entries);
  return new Response(endless ? neverEnding(html) : html, {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * `text` as a body that never ends: the warm page's `defer` scripts wait for the end of parsing, so they
 * load but never run. The page stops itself (warm-document.ts) and the snippet removes its frame, which
 * cancels the stream.
 */
function neverEnding(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(text)) });
}

/** A shared package as held or on its way, without fetching it: the warm page never costs a byte. */
async function boundShared(w: WorkerState, path: string): Promise<BoundPackage> {
  const cacheName = w.store.sharedName(path);
  const run = w.runs.get(path) ?? w.prefetches.peek(path, cacheName);
  if (run) {
    const wait = new Promise((r) => setTimeout(r, INDEX_WAIT_MS));
    await Promise.race([run.index.catch(() => undefined), wait]);
    return { path, cacheName, run };
  }
  const record = await w.store.held(cacheName, path);
  return { path, cacheName, names: new Set(record?.objects.map((o) => o.name) ?? []) };
}

/** The page's announced objects that `packages` carry, its host lets a browser reuse and the warm page loads. */
function warmList(table: RouteTable, page: string, packages: readonly BoundPackage[]): PreloadEntry[] {
  const cacheControl = cacheControlOf(table);
  if (!cacheControl) return [];
  const carried = (name: string) => packages.some((p) => carries(p, name) === true);
  return preloadsFor(table, page).filter(
    ([name, kind]) => warmable(kind) && carried(name) && reusable(cacheControl(name)),
  );
}
