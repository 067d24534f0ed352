import type { PackageIndex, RouteTable } from '@objpack/format';
import { ObjpackSwError, SwErrorCode } from '../errors.js';
import { ofTable, type Binding, type BoundPackage } from './binding.js';
import { htmlEntry } from './html-entry.js';
import type { PackageRun } from './package-run.js';
import type { Route } from './routes.js';
import type { Slot } from './slot.js';
import type { WorkerState } from './worker-state.js';

const noop = () => {};

/** Records where the page this navigation creates gets its objects, in memory and (for restarts) on disk. */
export function bind(w: WorkerState, event: FetchEvent, binding: Binding): void {
  w.bindings.set(event.resultingClientId, binding);
  event.waitUntil(
    Promise.resolve(binding.ready)
      .then(() => w.remember(event.resultingClientId, binding))
      .catch(noop),
  );
}

/** The page package's index is in: the build it names, and the page's packages (re-planned after a deploy). */
export async function bindPage(
  w: WorkerState,
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
    packages = [page, ...(await w.plan(table, route, { shared: index.sharedRefs })).slice(1)];
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
