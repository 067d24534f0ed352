import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE, type BuildManifest } from '@objpack/format';
import { updatePackages } from '../cache/build-cache.js';
import type { BuildResult } from '../options.js';
import type { BuildContext, Timings } from '../pipeline/context.js';
import type { PackagePlan } from '../plan/types.js';
import { outputSignatures, saveState, type BuildState } from './build-state.js';
import type { PatchChanges } from './patch-detect.js';
import type { PatchPlan } from './patch-plan.js';
import { planFromState } from './plan-from-state.js';
import type { Switched } from './patch-switch.js';
import type { PatchWritten } from './patch-write.js';

/** What the patch's steps handed forward. */
export interface PatchSteps {
  found: PatchChanges;
  plan: PatchPlan;
  wrote: PatchWritten;
  switched: Switched;
}

/**
 * The patch's record step: saves the state the next build patches from, records the written files in the
 * build cache as the pipeline would have (emit.ts), so its next run keeps them, and returns what build()
 * returns. The manifest and plan are read back only if the caller asks for them.
 */
export async function recordPatch(
  input: BuildContext,
  state: BuildState,
  steps: PatchSteps,
  timings: Timings,
): Promise<BuildResult> {
  const { root } = input;
  const { found, plan, wrote, switched } = steps;
  const { buildId, rewritten, htmlWrites } = plan;
  const { fileStats, touched, statsAt } = found;
  const { written, fresh } = wrote;
  // Pages written back with the tag are walked with their new signatures next time.
  for (const c of htmlWrites) {
    const st = statSync(c.file.file);
    fileStats.set([st.size, st.mtimeMs, st.ino], statsAt.get(c.file)!);
  }
  const next: BuildState = {
    ...state,
    fileStats,
    buildId,
    pageKeys: plan.pageKeys,
    pageBuilds: plan.pageBuilds,
    superseded: switched.superseded,
    overlay: switched.overlay,
    summary: JSON.stringify(switched.summary),
    outputs: {
      ...state.outputs,
      ...outputSignatures(
        root,
        written.filter((w) => w in state.outputs),
      ),
    },
  };
  if (touched.length > 0) await saveState(root, next);
  updatePackages(root, {
    ...Object.fromEntries(rewritten.map((c) => [c.record.packageUrl, { key: c.key, ...fresh.get(c.index)!, buildId }])),
    ...Object.fromEntries(
      htmlWrites.map((c) => [
        `file:${c.file.rel}`,
        { key: c.objects[0]!.sri, bytes: c.body.length, digest: c.objects[0]!.sri },
      ]),
    ),
  });
  timings.total = performance.now() - input.t0;
  input.progress({ phase: 'done', done: 1, total: 1 });
  let manifest: BuildManifest | undefined;
  let packagePlan: PackagePlan | undefined;
  return {
    buildId,
    root,
    outDir: root,
    get manifest() {
      return (manifest ??= JSON.parse(readFileSync(path.join(root, MANIFEST_FILE), 'utf8')) as BuildManifest);
    },
    get plan() {
      return (packagePlan ??= planFromState(root, next));
    },
    summary: switched.summary,
    diagnostics: switched.diagnostics,
    written,
    removed: switched.removed,
    reused: state.sharedKeys.length + state.pageKeys.length - rewritten.length,
    ...(input.report !== undefined ? { report: input.report } : {}),
    pagesParsed: touched.length,
    patched: true,
    timings,
  };
}
