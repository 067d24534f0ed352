/**
 * The kill switch (`objpack build --unregister` ships this as objpack-sw.js): it replaces the worker,
 * deletes every objpack cache of its scope (another objpack site on the origin keeps its own), unregisters
 * itself and reloads the pages it controlled, which then load straight from the network. It answers no
 * fetch, so nothing can go wrong while it runs.
 */
import { isScopeCache } from './cache-scope.js';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const scopePath = new URL(self.registration.scope).pathname;
      for (const name of await caches.keys()) if (isScopeCache(name, scopePath)) await caches.delete(name);
      await self.registration.unregister();
      for (const client of await self.clients.matchAll({ type: 'window' })) {
        await client.navigate(client.url).catch(() => {});
      }
    })(),
  );
});
