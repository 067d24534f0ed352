import { checkAborted } from '../abort.js';
import { BuildCache } from '../cache/build-cache.js';
import { discoverStage } from '../discover/discover-stage.js';
import { emitStage } from '../emit/emit-stage.js';
import { dropState } from '../incremental/build-state.js';
import { BUILD_DEFAULTS, type BuildResult } from '../options.js';
import { traceClosures } from '../plan/apply-trace.js';
import { planPackages } from '../plan/plan-packages.js';
import { ThreadPool } from '../pool/thread-pool.js';
import { aboutSite } from '../inject/own-paths.js';
import { preparePages, rememberRewrittenPages } from '../prepare/prepare-pages.js';
import { noTimings, type BuildContext } from './context.js';
import { hostStage } from './host-stage.js';
import { recordBuild } from './record.js';

/**
 * The whole pipeline, stage after stage: discover (on the parser pool, with the previous build's caches),
 * trace, hosts, prepare, plan, emit (every output, manifest last), record. The signal is checked between
 * stages; until emit writes, an aborted build has changed nothing.
 */
export async function fullBuild(ctx: BuildContext): Promise<BuildResult> {
  const { options, outDir, signal } = ctx;
  const timings = noTimings();
  const cache = options.cache === false ? BuildCache.empty() : await BuildCache.load(outDir);
  const pool = await ThreadPool.create(
    options.concurrency === undefined ? undefined : Math.min(BUILD_DEFAULTS.poolThreads, options.concurrency),
  );
  // The pool stays up through the write stage: packages are encoded and written on its threads.
  try {
    const found = await discoverStage(ctx, { pool, cache });
    timings.discover = performance.now() - ctx.t0;
    checkAborted(signal);

    let t = performance.now();
    if (options.trace) {
      const { graph } = found;
      ctx.progress({ phase: 'trace', done: 0, total: graph.pages.length });
      const sample = typeof options.trace === 'number' ? options.trace : undefined;
      found.diagnostics.push(...(await traceClosures(ctx.root, graph, sample)).filter(aboutSite));
      checkAborted(signal);
    }
    timings.trace = performance.now() - t;

    t = performance.now();
    const hosts = await hostStage(ctx, found.graph, found.diagnostics);
    checkAborted(signal);
    const pages = await preparePages(found.graph, {
      cache,
      inject: ctx.inject,
      base: found.base,
      partialThreshold: ctx.partialThreshold,
      concurrency: ctx.concurrency,
      diagnostics: found.diagnostics,
      progress: ctx.progress,
      hashing: found.hashing,
      pageHeaders: hosts.forPage,
      signal,
    });
    timings.hash = performance.now() - t;
    checkAborted(signal);

    t = performance.now();
    ctx.progress({ phase: 'plan', done: 0, total: 1 });
    const plan = planPackages(pages, { ...options, base: found.base });
    timings.plan = performance.now() - t;
    checkAborted(signal);

    t = performance.now();
    // Before anything is written: a state in the output directory (an earlier in-place build of it) vouches
    // only for outputs this build replaces.
    dropState(outDir);
    const emitted = await emitStage(ctx, { ...found, pages, plan, hosts, cache, writer: pool }).finally(() =>
      pool.close(),
    );
    timings.write = performance.now() - t;
    if (ctx.inPlace) {
      rememberRewrittenPages(ctx.root, found.graph, new Set(emitted.result.written), cache, ctx.inject, found.base);
    }
    await cache.save(outDir);
    return await recordBuild(ctx, found, plan, emitted, timings);
  } finally {
    await pool.close();
  }
}
