/**
 * The kill switch (`objpack build --unregister` ships this as /objpack-sw.js): it replaces the worker,
 * deletes every objpack cache, unregisters itself and reloads the pages it controlled, which then load
 * straight from the network. It answers no fetch, so nothing can go wrong while it runs.
 */
declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('objpack-')) await caches.delete(name);
      await self.registration.unregister();
      for (const client of await self.clients.matchAll({ type: 'window' })) {
        await client.navigate(client.url).catch(() => {});
      }
    })(),
  );
});
export {};
