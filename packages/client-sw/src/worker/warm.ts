import type { PreloadEntry, RouteTable } from '@objpack/format';
import { errorCode } from '../errors.js';
import { carries, type Binding, type BoundPackage } from './binding.js';
import { cacheControlOf, reusable } from './host-cache.js';
import { preloadsFor } from './preload-link.js';
import { lookupRoute } from './routes.js';
import type { WorkerState } from './worker-state.js';

/** Longest the warm page waits for the index of a shared package on its way (ms). */
const INDEX_WAIT_MS = 3000;

/** Longest the warm page waits for its classic scripts before it stops loading (ms). */
const SCRIPT_WAIT_MS = 5000;

/**
 * Elements per announced kind that fetch as the page's own would, and use what they fetch: Chromium drops an
 * unused preload from its memory cache when the frame goes. Fonts load through `FontFace` (warmScript).
 * A classic script is a `defer` one in a document that never finishes parsing (warmBody): fetched at once,
 * run only once parsing ends, which never happens.
 */
const TAG: Record<string, (href: string, mode: string) => string> = {
  style: (h, m) => `<link rel="stylesheet"${m} href="${h}">`,
  image: (h, m) => `<img${m} src="${h}" alt="">`,
  module: (h, m) => `<link rel="modulepreload"${m} href="${h}">`,
  script: (h, m) => `<script defer${m} src="${h}"></script>`,
};

/**
 * The warm page (`<scope>_objpack/warm?page=<path>`), which the registration snippet loads in a hidden
 * frame once the worker controls a page it did not answer (a first visit). Chromium's memory cache keeps
 * a controlled page's responses apart from those of a page without a worker, so the next page would ask
 * the worker for every object the first one already has; the frame, controlled from its start, preloads
 * the first page's objects that its shared packages carry and its host lets a browser reuse, from the
 * worker's memory or Cache Storage, never the network. The next page takes them from the memory cache.
 */
export async function warmPage(w: WorkerState, event: FetchEvent, url: URL): Promise<Response> {
  let links: string[] = [warmScript([], [])];
  let scripts = 0;
  let count = 0;
  try {
    const table = await w.routes.current();
    const route = table && lookupRoute(table, url.searchParams.get('page') ?? '');
    if (table && route) {
      const packages = await Promise.all(route.shared.map((path) => boundShared(w, path)));
      const binding: Binding = { buildId: table.buildId, packages, createdAt: Date.now(), seen: true };
      w.bindings.set(event.resultingClientId, binding);
      const { elements, fonts, classic } = warmList(table, route.key, packages);
      links = [...elements, warmScript(fonts, classic)];
      scripts = classic.length;
      count = elements.length + fonts.length;
    }
  } catch (err) {
    w.options.onEvent({ type: 'fallback', url: url.pathname, code: errorCode(err) });
  }
  w.options.onEvent({ type: 'warm', url: url.searchParams.get('page') ?? '', detail: String(count) });
  const body = `<!doctype html><meta charset="utf-8"><title>objpack</title>\n${links.join('\n')}\n`;
  return new Response(scripts > 0 ? endless(body) : body, {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * `text` as a body that never ends: the warm page's `defer` scripts wait for the end of parsing, so they
 * load but never run. The page stops itself (warmScript) and the snippet removes its frame, which cancels
 * the stream.
 */
function endless(text: string): ReadableStream<Uint8Array> {
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

/** The page's announced objects that `packages` carry and its host lets a browser reuse: elements, and fonts. */
function warmList(
  table: RouteTable,
  page: string,
  packages: readonly BoundPackage[],
): { elements: string[]; fonts: string[]; classic: string[] } {
  const cacheControl = cacheControlOf(table);
  const elements: string[] = [];
  const fonts: string[] = [];
  const classic: string[] = [];
  if (!cacheControl) return { elements, fonts, classic };
  const carried = (name: string) => packages.some((p) => carries(p, name) === true);
  for (const entry of preloadsFor(table, page)) {
    const [name, kind] = entry;
    if (!carried(name) || !reusable(cacheControl(name))) continue;
    if (kind === 'font') fonts.push(name);
    else if (kind in TAG) elements.push(element(entry));
    if (kind === 'script') classic.push(name);
  }
  return { elements, fonts, classic };
}

/**
 * Loads `fonts` as a page's `@font-face` would (CORS, the frame's credentials); once they and the frame's
 * elements are in, tells the registration snippet that the frame may go. With `classic` scripts the
 * document never finishes (no `load` event): it waits until each has a resource timing entry (its bytes
 * are in) or {@link SCRIPT_WAIT_MS}, then stops loading, which ends parsing without running them. The URLs
 * are same-origin printable-ASCII paths (preloadsFor).
 */
function warmScript(fonts: readonly string[], classic: readonly string[]): string {
  const css = fonts.map((u) => `url("${u.replace(/["\\]/g, (c) => `\\${c}`)}")`);
  const json = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');
  const loaded =
    classic.length === 0
      ? `new Promise((r) => addEventListener('load', r))`
      : `new Promise((r) => { const u = ${json(classic)}.map((p) => new URL(p, location.href).href); ` +
        `const check = () => u.every((n) => performance.getEntriesByName(n).length > 0) && r(); ` +
        `new PerformanceObserver(check).observe({ type: 'resource', buffered: true }); check(); ` +
        `setTimeout(r, ${SCRIPT_WAIT_MS}); }).then(() => stop())`;
  return (
    `<script>Promise.all([${loaded}, ` +
    `Promise.allSettled(${json(css)}.map((u, i) => new FontFace('objpack-warm-' + i, u).load()))])` +
    `.then(() => parent.postMessage({ type: 'objpack:warmed' }, location.origin));</script>`
  );
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function element([url, kind, cors]: PreloadEntry): string {
  const mode =
    cors === 'use-credentials' ? ' crossorigin="use-credentials"' : cors === 'anonymous' ? ' crossorigin' : '';
  return TAG[kind]!(escapeAttr(url), mode);
}
