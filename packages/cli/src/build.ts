import { patchBuild } from './incremental/patch-build.js';
import type { BuildOptions, BuildResult } from './options.js';
import { checkAborted } from './abort.js';
import { settle } from './pipeline/settle.js';

export {
  BUILD_DEFAULTS,
  DEFAULT_PARTIAL_THRESHOLD,
  OWN_FILES,
  type BuildOptions,
  type BuildProgress,
  type BuildResult,
} from './options.js';

/**
 * Crawls the site at `options.root`, computes each page's closure, plans page and shared packages and
 * writes them with the manifests, host configs, the service worker and the report. Recoverable problems
 * come back as `diagnostics`; misuse, an unusable root, a failed write or an aborted `signal` throws
 * {@link ObjpackError}. The stages are in docs/ARCHITECTURE.md.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const ctx = await settle(options);
  checkAborted(ctx.signal);
  if (ctx.inPlace && ctx.options.cache !== false && !ctx.options.trace) {
    const patched = await patchBuild(ctx);
    if (patched) return patched;
  }
  checkAborted(ctx.signal);
  // The pipeline's modules (parsers, thread pool, planner, emitter) load only when the patch cannot answer.
  const { fullBuild } = await import('./pipeline/full-build.js');
  return fullBuild(ctx);
}
