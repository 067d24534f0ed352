import type { RouteTable } from '@objpack/format';
import type { Binding } from './binding.js';
import type { ClientRecord } from './store.js';
import { recordBinding, tableBinding } from './subresource.js';
import type { WorkerState } from './worker-state.js';

const noop = () => {};

/**
 * Saves where a page's objects come from as its client record (meta cache), so a restarted worker answers
 * the page from the same build (subresource.ts deriveBinding).
 */
export async function saveRecord(w: WorkerState, clientId: string, binding: Binding): Promise<void> {
  const packages = binding.packages.map((p) => ({ path: p.path, cacheName: p.cacheName }));
  const frozen = binding.frozenAt === undefined ? {} : { frozenAt: binding.frozenAt };
  await w.store.saveClient(clientId, { buildId: binding.buildId, packages, at: Date.now(), ...frozen });
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
export async function pinOpenPages(w: WorkerState, outgoing: RouteTable | undefined): Promise<void> {
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
      // An early-answered page may still be re-planned for a newer build: save what it ends up with. A
      // package that never brings its index must not hold the table back: such a page is saved once
      // re-planned (remember: at once when its build is not the table's).
      if (await settles(binding.ready, READY_WAIT_MS)) await saveRecord(w, id, binding).catch(noop);
    }),
  );
}

/** Longest the pinning waits for an early-answered page's index (the stall watchdog's default). */
const READY_WAIT_MS = 10_000;

/** Whether `p` settles within `ms`. */
async function settles(p: Promise<unknown> | undefined, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)));
  return Promise.race([
    Promise.resolve(p).then(
      () => true,
      () => true,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}

/**
 * How long a page in the back/forward cache keeps its binding, record and caches. Such a page is in neither
 * `clients.matchAll()` nor `clients.get()`, so a clean-up took it for closed, and once restored after a
 * deploy it got the new build's objects. Chromium keeps a page there for 10 minutes; a page it evicts
 * without notice keeps its build's caches this long.
 */
export const FROZEN_KEEP_MS = 30 * 60_000;

/** Whether a page that went into the back/forward cache at `frozenAt` may still come back. */
export const mayComeBack = (frozenAt: number | undefined): boolean =>
  frozenAt !== undefined && Date.now() - frozenAt < FROZEN_KEEP_MS;

/**
 * The page `clientId` at `url` went into the back/forward cache (its `pagehide`, objpack-register.js): its
 * record says so, written when the worker is quiet like any record.
 */
export async function freeze(w: WorkerState, clientId: string, url: string): Promise<void> {
  let binding = w.bindings.get(clientId);
  if (!binding) {
    const saved = await w.store.client(clientId).catch(() => undefined);
    const table = saved ? undefined : await w.routes.current().catch(() => undefined);
    binding = saved ? recordBinding(w, saved) : table && tableBinding(w, table, url);
    if (!binding) return;
    w.bindings.set(clientId, binding);
  }
  binding.frozenAt = Date.now();
  binding.saved = false;
  await w.remember(clientId, binding);
}

/** Longest clean-up waits for `clients.get()` to say whether an unlisted page is there (it then stays). */
const CLIENT_CHECK_MS = 5_000;

/**
 * Whether a page missing from `clients.matchAll()` is really gone. Chromium lists a page once the browser
 * has taken in its commit, which can come after the page's first requests reached this worker; dropping
 * its binding then sent its later requests to the newest table (a build-1 page got build 2's objects).
 * `clients.get()` waits for such a page and finds nothing only for one that has gone.
 */
export async function clientGone(clients: Clients, id: string): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unsure = new Promise<'unsure'>((r) => (timer = setTimeout(() => r('unsure'), CLIENT_CHECK_MS)));
  const client = await Promise.race([clients.get(id).catch(() => 'unsure' as const), unsure]).finally(() =>
    clearTimeout(timer),
  );
  return client === undefined;
}
