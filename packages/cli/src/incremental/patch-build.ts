/**
 * The incremental fast path: rebuilding one edited page costs a small part of a full build. When the
 * only files that changed since the last build are pages whose parse result is unchanged — their closures,
 * warnings, the plan and every other package are then the same — the build re-encodes those pages'
 * packages and patches the previous manifest, route table and report instead of running the pipeline.
 * Anything else (a file added, deleted or changed that is not such a page, different options, outputs
 * touched since) returns undefined and the caller runs the full pipeline, which is always correct.
 */
import type { BuildResult } from '../options.js';
import { noTimings, type BuildContext } from '../pipeline/context.js';
import { loadState, StateRows, type BuildState } from './build-state.js';
import { detectChanges } from './patch-detect.js';
import { planEdits } from './patch-plan.js';
import { recordPatch } from './patch-record.js';
import { writeSwitch } from './patch-switch.js';
import { writePatchPackages } from './patch-write.js';

export async function patchBuild(input: BuildContext): Promise<BuildResult | undefined> {
  const state = loadState(input.root);
  if (!state || state.fingerprint !== input.fingerprint) return undefined;
  const rows = StateRows.open(input.root, state);
  if (!rows) return undefined;
  try {
    return await patchWith(input, state, rows);
  } finally {
    rows.close();
  }
}

/**
 * The patch's stages: discover what changed, plan every edit, write the packages, switch the manifest and
 * route table to them, record. Each step before the writes may answer undefined: then nothing is touched.
 */
async function patchWith(input: BuildContext, state: BuildState, rows: StateRows): Promise<BuildResult | undefined> {
  const timings = noTimings();
  const found = await detectChanges(input, state, rows);
  if (!found) return undefined;
  timings.discover = performance.now() - input.t0;
  const t1 = performance.now();
  const plan = await planEdits(state, found);
  if (!plan) return undefined;
  timings.hash = performance.now() - t1;
  const t2 = performance.now();
  const wrote = await writePatchPackages(input, plan);
  const switched = await writeSwitch(input, state, found.reportShared, plan, wrote);
  timings.write = performance.now() - t2;
  return recordPatch(input, state, { found, plan, wrote, switched }, timings);
}
