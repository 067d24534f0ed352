import { isScopeCache } from '../cache-scope.js';
import { freeze } from './client-records.js';
import { prefetch } from './prefetch.js';
import { afterCopiedPage } from './stopped-route.js';
import type { WorkerState } from './worker-state.js';

const noop = () => {};

/**
 * Install: fetch the route table and this version's copy of the registration snippet, then take over at
 * once (the worker holds no state an old one needs).
 */
export function install(w: WorkerState, event: ExtendableEvent): void {
  event.waitUntil(
    Promise.all([w.routes.refresh().catch(noop), w.register.keep().catch(noop)]).then(() => w.scope.skipWaiting()),
  );
}

/** Activate: drop caches of another objpack version's layout, then control open pages. */
export function activate(w: WorkerState, event: ExtendableEvent): void {
  event.waitUntil(
    (async () => {
      // Caches of another objpack version's layout are unreadable to this one.
      // Only this scope's: a worker of another site on the origin keeps its own.
      for (const name of await caches.keys()) {
        if (isScopeCache(name, w.options.scopePath) && !w.store.owns(name)) await caches.delete(name);
      }
      await w.scope.clients.claim();
    })().catch(noop),
  );
}

/**
 * Messages from the register snippet: `objpack:prefetch` with the URLs of likely next pages (`warm`: answer
 * `objpack:warm` once they are in), `objpack:frozen` from a page going into the back/forward cache.
 */
export function message(w: WorkerState, event: ExtendableMessageEvent): void {
  const data = event.data as { type?: string; urls?: unknown; warm?: unknown } | null;
  const source = event.source as Client | null;
  if (data?.type === 'objpack:frozen' && source?.id) event.waitUntil(freeze(w, source.id, source.url).catch(noop));
  if (data?.type === 'objpack:prefetch' && Array.isArray(data.urls)) {
    const done = prefetch(
      w,
      data.urls.filter((u): u is string => typeof u === 'string'),
    );
    // A page the worker took over after it loaded (a first visit) loads the warm page (warm.ts) once what
    // was fetched ahead is in: the shared packages it preloads from.
    const warm = data.warm === true && source ? done.then(() => source.postMessage({ type: 'objpack:warm' })) : done;
    event.waitUntil(warm.catch(noop));
    if (source?.id && !w.bindings.has(source.id)) event.waitUntil(afterCopiedPage(w, source.url).catch(noop));
  }
}
