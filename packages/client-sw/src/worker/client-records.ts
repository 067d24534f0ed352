import type { RouteTable } from '@objpack/format';
import type { Binding } from './binding.js';
import type { ObjpackWorker } from './handler.js';
import type { ClientRecord } from './store.js';
import { tableBinding } from './subresource.js';

const noop = () => {};

/**
 * Saves where a page's objects come from as its client record (meta cache), so a restarted worker answers
 * the page from the same build (subresource.ts deriveBinding).
 */
export async function saveRecord(w: ObjpackWorker, clientId: string, binding: Binding): Promise<void> {
  const packages = binding.packages.map((p) => ({ path: p.path, cacheName: p.cacheName }));
  await w.store.saveClient(clientId, { buildId: binding.buildId, packages, at: Date.now() });
  binding.saved = true;
}

/**
 * Before a table of another build replaces `outgoing`: every open page without a saved record gets one.
 * A restarted worker takes a page with no record for the current table's (there is nothing else to go
 * by), which is right only while the table has not moved since the page was answered: records are saved
 * once the worker is quiet, and a worker stopped before that, after another tab moved the table to a new
 * deploy, served a build-1 page build 2's objects. So the table never moves while a page still depends on
 * it: the pages this worker answered are saved from their bindings, and open pages it knows only from
 * the current table (answered before a restart, no record yet) are bound to `outgoing` and saved.
 */
export async function pinOpenPages(w: ObjpackWorker, outgoing: RouteTable | undefined): Promise<void> {
  const [open, saved] = await Promise.all([
    w.scope.clients.matchAll({ type: 'all' }).catch(() => [] as readonly Client[]),
    w.store.clients().catch(() => new Map<string, ClientRecord>()),
  ]);
  if (outgoing) {
    for (const client of open) {
      if (w.bindings.has(client.id) || saved.has(client.id)) continue;
      const binding = tableBinding(w, outgoing, client.url);
      // In-flight runs are the newer table's: only the content-named shared packages' can serve this page.
      if (binding.packages[0]) binding.packages[0].run = undefined;
      w.bindings.set(client.id, binding);
    }
  }
  const unsaved = [...w.bindings].filter(([id, b]) => !b.saved && !saved.has(id));
  await Promise.all(
    unsaved.map(async ([id, binding]) => {
      // An early-answered page may still be re-planned for a newer build: save what it ends up with.
      await Promise.resolve(binding.ready).catch(noop);
      await saveRecord(w, id, binding).catch(noop);
    }),
  );
}
