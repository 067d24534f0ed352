/**
 * Closed-loop load: `clients` simulated users, each fetching pages one after another with think times,
 * starting pages for a fixed duration; pages in flight at the deadline are finished and counted.
 * Shared by experiments 001 and 002.
 */
import { fetchPage } from '../lib/page-client.mjs';

/**
 * @typedef {object} LoadPolicy
 * @property {import('../lib/page-client.mjs').FetchMode} mode
 * @property {boolean} keepAcrossPages keep one connection for the user's next pages (HTTP/1.1 as browsers
 *   do; the server's holding time closes it) instead of closing after each page (001's CHCM, 002's early close)
 */

/**
 * `minPages`: each user fetches at least this many pages even past the deadline (tests that need several
 * pages per user must not depend on how fast a loaded machine is).
 * @param {{ origin: string, clients: number, durationMs: number, minPages?: number, policy: LoadPolicy, Decoder?: any,
 *   nextPage: (user: number, step: number) => { paths: string[], packagePath?: string, thinkMs: number, endSession?:
 * boolean } }} o `endSession`: the user leaves after this page (its connection is closed whatever the policy)
 */
export async function closedLoop({ origin, clients, durationMs, minPages = 0, policy, Decoder, nextPage }) {
  const latencies = /** @type {number[]} */ ([]);
  let errors = 0,
    retries = 0,
    objects = 0,
    bytes = 0;
  /** @type {string | undefined} */
  let firstError;
  const t0 = performance.now();
  const deadline = t0 + durationMs;
  const user = async (/** @type {number} */ u) => {
    /** @type {import('undici').Dispatcher | null} */
    let dispatcher = null;
    // Spread the start over the first second so the users are not in lockstep.
    await sleep((u * 997) % 1000);
    for (let step = 0; performance.now() < deadline || step < minPages; step++) {
      const page = nextPage(u, step);
      const start = performance.now();
      const once = () =>
        fetchPage({
          origin,
          paths: page.paths,
          packagePath: page.packagePath,
          mode: policy.mode,
          Decoder,
          closeWhenDone: !policy.keepAcrossPages || Boolean(page.endSession),
          dispatcher,
          htmlFirst: true,
        });
      try {
        let r;
        try {
          r = await once();
        } catch (err) {
          // A kept connection the server closed as we reused it: browsers retry idempotent requests on a
          // fresh connection, so do we (counted apart from errors).
          if (!dispatcher) throw err;
          firstError ??= err instanceof Error ? err.message : String(err);
          retries++;
          await dispatcher.destroy().catch(() => {});
          dispatcher = null;
          r = await once();
        }
        dispatcher = r.dispatcher;
        // Pages started before the deadline all count, however long they wait: dropping the slow ones
        // would hide exactly the queueing the experiments measure.
        latencies.push(performance.now() - start);
        objects += r.objects;
        bytes += r.bytes;
      } catch (err) {
        errors++;
        firstError ??= err instanceof Error ? err.message : String(err);
        await dispatcher?.destroy().catch(() => {});
        dispatcher = null;
      }
      await sleep(Math.min(page.thinkMs, Math.max(0, deadline - performance.now())));
    }
    await dispatcher?.destroy().catch(() => {});
  };
  await Promise.all(Array.from({ length: clients }, (_, u) => user(u)));
  return { latencies, errors, retries, firstError, objects, bytes, seconds: (performance.now() - t0) / 1000 };
}

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));
