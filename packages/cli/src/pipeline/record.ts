import { MANIFEST_FILE, ROUTES_FILE } from '@objpack/format';
import type { Discovered } from '../discover/discover-stage.js';
import type { Emitted } from '../emit/emit-stage.js';
import { NGINX_FILE, PUSH_MANIFEST_FILE } from '../emit/output-files.js';
import { parseOrigin } from '../discover/site-origin.js';
import { outputSignatures, saveState } from '../incremental/build-state.js';
import { captureState } from '../incremental/capture-state.js';
import { REGISTER_PATH, WORKER_PATH } from '../inject/inject.js';
import type { BuildResult } from '../options.js';
import type { PackagePlan } from '../plan/types.js';
import { insideDir } from '../report/report-file.js';
import { summarize } from '../report/summary.js';
import type { BuildContext, Timings } from './context.js';

/**
 * The last stage of a full build: completes the summary with every warning and, for an in-place build,
 * saves the state the next build patches from (incremental/). Returns what build() returns.
 */
export async function recordBuild(
  ctx: BuildContext,
  found: Discovered,
  plan: PackagePlan,
  emitted: Emitted,
  timings: Timings,
): Promise<BuildResult> {
  const { root, outDir, inPlace, report, options } = ctx;
  const { graph, base, detected, diagnostics } = found;
  const { result } = emitted;
  const summary = emitted.summary ?? summarize(result.manifest, plan, graph, diagnostics);
  if (result.linkRules) summary.linkRules = result.linkRules;
  summary.warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  summary.errors = diagnostics.filter((d) => d.severity === 'error').length;
  // A detected base is not in the fingerprint: the next build must detect it again, not patch this one.
  if (inPlace && detected === undefined) {
    const reportRel = report === undefined ? undefined : insideDir(root, report);
    const outputs = outputSignatures(root, [
      MANIFEST_FILE,
      ROUTES_FILE,
      ...(reportRel ? [reportRel] : []),
      PUSH_MANIFEST_FILE,
      NGINX_FILE,
      '_headers',
      'vercel.json',
      'firebase.json',
      WORKER_PATH.slice(1),
      REGISTER_PATH.slice(1),
    ]);
    const { basePath } = parseOrigin(options.origin, base);
    const state = captureState({
      outDir: root,
      basePath,
      base,
      fingerprint: ctx.fingerprint,
      graph,
      plan,
      manifest: result.manifest,
      summary,
      diagnostics,
      written: result.written,
      superseded: result.superseded,
      outputs,
    });
    if (state) await saveState(root, state.state, state.rows);
  }
  timings.total = performance.now() - ctx.t0;
  ctx.progress({ phase: 'done', done: 1, total: 1 });
  return {
    buildId: result.manifest.buildId,
    root,
    outDir,
    manifest: result.manifest,
    plan,
    summary,
    diagnostics,
    written: result.written,
    removed: result.removed,
    reused: result.reused,
    ...(report !== undefined ? { report } : {}),
    pagesParsed: graph.pagesParsed,
    patched: false,
    timings,
  };
}
