import { lookupRoute } from './routes.js';
import type { WorkerState } from './worker-state.js';

/** Longest a prefetch waits for the worker to see no request before it starts anyway (ms). */
const MAX_PREFETCH_DELAY_MS = 3000;

/** Fetches (without serving) the packages of pages the user is likely to open next, once the worker is quiet. */
export async function prefetch(w: WorkerState, urls: readonly string[]): Promise<void> {
  await w.quiet(performance.now() + MAX_PREFETCH_DELAY_MS);
  const jobs: Array<Promise<boolean>> = [];
  for (const u of urls.slice(0, w.options.maxPrefetch)) {
    let url: URL;
    try {
      url = new URL(u, w.origin);
    } catch {
      continue;
    }
    if (url.origin !== w.origin) continue;
    // A hover comes just before the click: a restarted worker reads the link's shard, not the whole table.
    const table = await w.routes.forPath(url.pathname);
    if (!table) break;
    const route = lookupRoute(table, url.pathname);
    if (!route || w.bypass.get(url.pathname) === table.buildId) continue;
    w.options.onEvent({ type: 'prefetch', url: url.pathname });
    for (const p of await w.plan(table, route, { ahead: true })) if (p.run) jobs.push(p.run.finished);
  }
  await Promise.all(jobs);
}
