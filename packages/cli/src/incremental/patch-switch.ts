import { rm } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE, ROUTES_FILE } from '@objpack/format';
import type { Diagnostic } from '../discover/types.js';
import { writeFileAtomic } from '../emit/atomic-write.js';
import { removeTempFiles } from '../emit/cleanup.js';
import { packageFile } from '../emit/generation.js';
import type { BuildContext } from '../pipeline/context.js';
import { renderReport } from '../report/render-report.js';
import { insideDir, writeReport } from '../report/report-file.js';
import type { BuildSummary } from '../report/summary.js';
import { objectRow, planObjectOf, type BuildState, type ReportShared } from './build-state.js';
import type { Fresh, PatchPlan, PatchSwitch } from './patch-plan.js';
import type { PatchWritten } from './patch-write.js';

/** What the switch step leaves for the record step. */
export interface Switched {
  summary: BuildSummary;
  diagnostics: Diagnostic[];
  /** State rows replaced by this patch and the ones before it. */
  overlay: Record<number, string>;
  /** Package files of the generation before last, removed once the switch is done. */
  removed: string[];
  superseded: string[];
}

/**
 * The patch's switch step: once every package is written, the report, the route table and the manifest
 * (last, synced) name the new generation; then the generation before last goes. Adds what it writes to
 * `wrote.written`. Without a switch (the build id stays) only temporary files are cleaned up.
 */
export async function writeSwitch(
  input: BuildContext,
  state: BuildState,
  reportShared: readonly ReportShared[],
  plan: PatchPlan,
  wrote: PatchWritten,
): Promise<Switched> {
  const { root } = input;
  const abs = (rel: string) => path.join(root, rel);
  const { written } = wrote;
  const summary = JSON.parse(state.summary) as BuildSummary;
  const diagnostics = JSON.parse(state.diagnostics) as Diagnostic[];
  const overlay = { ...state.overlay };
  const sw = plan.switch;
  if (sw) {
    patchRecords(state, plan, wrote.fresh, summary, overlay);
    const manifestText = sw.manifestText(wrote.fresh);
    // Checked by planEdits with the same keys: only the values differ.
    if (!manifestText) throw new Error('patchBuild: manifest shape changed during the patch');
    if (input.report !== undefined) {
      await writeReport(input.report, patchedReport(plan.buildId, reportShared, summary, diagnostics));
      const rel = insideDir(root, input.report);
      if (rel !== undefined) written.push(rel);
    }
    await writeFileAtomic(abs(ROUTES_FILE), sw.routes);
    written.push(ROUTES_FILE);
    await writeFileAtomic(abs(MANIFEST_FILE), manifestText, { fsync: true });
    written.push(MANIFEST_FILE);
  }
  const { removed, superseded } = await retireGeneration(root, state, plan, sw);
  await removeTempFiles(root, new Set(['.', ...plan.htmlWrites.map((c) => path.posix.dirname(c.file.rel))]));
  return { summary, diagnostics, overlay, removed, superseded };
}

/** The report's numbers and the state's rows follow the rewritten pages' new HTML and package sizes. */
function patchRecords(
  state: BuildState,
  plan: PatchPlan,
  fresh: Fresh,
  summary: BuildSummary,
  overlay: Record<number, string>,
): void {
  for (const c of plan.rewritten) {
    const w = fresh.get(c.index)!;
    const html = c.objects[0]!;
    const at = c.record.own[0]!;
    const oldHtml = planObjectOf(c.html);
    const perPage = summary.perPage[c.index];
    if (perPage) {
      perPage.closureBytes += html.bytes - oldHtml.bytes;
      perPage.firstLoadBytes += w.bytes - c.record.bytes;
    }
    summary.objectBytes += html.sendBytes - oldHtml.sendBytes;
    summary.packageBytes += w.bytes - c.record.bytes;
    overlay[at] = JSON.stringify(objectRow(html));
    overlay[state.objectCount + c.index] = JSON.stringify({ ...c.record, bytes: w.bytes });
  }
}

/** The report as the full build renders it, from what the state keeps of the shared packages. */
function patchedReport(
  buildId: string,
  reportShared: readonly ReportShared[],
  summary: BuildSummary,
  diagnostics: Diagnostic[],
): string {
  return renderReport(
    { buildId, packages: Object.fromEntries(reportShared.map((s) => [s.url, { bytes: s.bytes }])) },
    {
      shared: reportShared.map((s) => ({
        url: s.url,
        pages: { length: s.pages },
        objects: s.urls.map((url) => ({ url })),
      })),
    },
    summary,
    diagnostics,
  );
}

/**
 * Unlike the pipeline, no stale package files to look for in _objpack/: a state exists only after the
 * pipeline's own clean-up (pipeline/record.ts saves it last). Once the switch is done, the generation before
 * last goes: what the state says it superseded and this build does not name again.
 */
async function retireGeneration(
  root: string,
  state: BuildState,
  plan: PatchPlan,
  sw: PatchSwitch | undefined,
): Promise<{ removed: string[]; superseded: string[] }> {
  if (!sw) return { removed: [], superseded: state.superseded };
  const named = new Set([...plan.renamed.values()].map(packageFile));
  const removed = state.superseded.filter((f) => !named.has(f));
  await Promise.all(removed.map((f) => rm(path.join(root, f), { force: true })));
  const superseded = [...plan.renamed].filter(([from, to]) => from !== to).map(([from]) => packageFile(from));
  return { removed, superseded };
}
