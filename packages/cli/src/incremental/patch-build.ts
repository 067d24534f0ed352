/**
 * The incremental fast path (one edited page of 10,000 rebuilt in ≤ 5 % of a full build). When the
 * only files that changed since the last build are pages whose parse result is unchanged — their closures,
 * warnings, the plan and every other package are then the same — the build re-encodes those pages'
 * packages and patches the previous manifest, route table and report instead of running the pipeline.
 * Anything else (a file added, deleted or changed that is not such a page, different options, outputs
 * touched since) returns undefined and the caller runs the full pipeline, which is always correct.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE, ROUTES_FILE, type BuildManifest } from '@objpack/format';
import { checkAborted } from '../abort.js';
import type { Diagnostic } from '../discover/types.js';
import { writeFileAtomic } from '../emit/atomic-write.js';
import { updatePackages } from '../cache/build-cache.js';
import { removeTempFiles } from '../emit/cleanup.js';
import { generationUrl, packageFile } from '../emit/generation.js';
import { stripQuery } from '../emit/manifest.js';
import { writePackage } from '../emit/write-package.js';
import type { BuildResult } from '../options.js';
import type { BuildContext } from '../pipeline/context.js';
import type { PackagePlan } from '../plan/types.js';
import { renderReport } from '../report/render-report.js';
import { insideDir, writeReport } from '../report/report-file.js';
import type { BuildSummary } from '../report/summary.js';
import {
  loadState,
  objectRow,
  outputSignatures,
  planObjectOf,
  saveState,
  StateRows,
  type BuildState,
} from './build-state.js';
import { detectChanges } from './patch-detect.js';
import { planFromState } from './plan-from-state.js';
import { locateManifest, patchManifest, patchRoutes, type ManifestSpans, type PackageEdit } from './patch-manifest.js';

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

async function patchWith(input: BuildContext, state: BuildState, rows: StateRows): Promise<BuildResult | undefined> {
  const { root, t0 } = input;
  const abs = (rel: string) => path.join(root, rel);
  const found = await detectChanges(input, state, rows);
  if (!found) return undefined;
  const { fileStats, touched, statsAt, changed, reportShared, manifestRead, routesRead } = found;
  const discoverMs = performance.now() - t0;

  // Only pages whose HTML bytes changed get a new package; a touched page keeps its own.
  const t1 = performance.now();
  const pageKeys = [...state.pageKeys];
  const rewritten = changed.filter((c) => c.key !== state.pageKeys[c.index]);
  for (const c of rewritten) pageKeys[c.index] = c.key;
  const buildId = createHash('sha256')
    .update([...state.sharedKeys, ...pageKeys].join('\n'))
    .digest('hex')
    .slice(0, 16);
  const hashMs = performance.now() - t1;

  const t2 = performance.now();
  const written: string[] = [];
  const htmlWrites = changed.filter((c) => c.rewrite);
  const pageBuilds = [...state.pageBuilds];
  for (const c of rewritten) pageBuilds[c.index] = buildId;
  const summary = JSON.parse(state.summary) as BuildSummary;
  const diagnostics = JSON.parse(state.diagnostics) as Diagnostic[];
  const overlay = { ...state.overlay };

  // Every edit is checked against the manifest and route table before any file is written: a shape the
  // patch cannot edit falls back to the pipeline with nothing touched.
  // Kept pages whose package build id changes: after a full build, all of them (the first patch names the
  // old build in each one's entry); afterwards none. Their entries are found once, before any write.
  const edited: number[] = [];
  const rewrittenAt = new Set(rewritten.map((c) => c.index));
  for (let k = 0; k < pageBuilds.length; k++) {
    const before = state.pageBuilds[k] !== state.buildId ? state.pageBuilds[k] : undefined;
    const after = pageBuilds[k] !== buildId ? pageBuilds[k] : undefined;
    if (rewrittenAt.has(k) || before !== after) edited.push(k);
  }
  const objectEdits = rewritten
    .map((c) => ({ c, url: stripQuery(c.objects[0]!.url), at: c.record.own[0]! }))
    .sort((a, b) => a.at - b.at);
  // A rewritten package gets its generation's name: the files the published table names stay as they are.
  const fileUrl = (k: number, builds: readonly string[]) => generationUrl(state.packageUrls[k]!, builds[k]!);
  const renamed = new Map(rewritten.map((c) => [fileUrl(c.index, state.pageBuilds), fileUrl(c.index, pageBuilds)]));
  let located: ManifestSpans | undefined;
  const manifestEdits = (fresh: ReadonlyMap<number, { bytes: number; digest: string }>) => {
    const edits: PackageEdit[] = edited.map((k) => {
      const w = fresh.get(k);
      const url = fileUrl(k, state.pageBuilds);
      const newUrl = renamed.get(url);
      return {
        url,
        ...(newUrl !== undefined && newUrl !== url ? { newUrl } : {}),
        buildId: pageBuilds[k] !== buildId ? pageBuilds[k] : undefined,
        ...(w ? { bytes: w.bytes, digest: w.digest } : {}),
      };
    });
    const objects = objectEdits.map((o) => ({ url: o.url, bytes: o.c.objects[0]!.bytes, digest: o.c.objects[0]!.sri }));
    return patchManifest(located!, buildId, edits, objects);
  };
  let manifestSource: Buffer | undefined;
  let routes: string | undefined;
  if (buildId !== state.buildId) {
    manifestSource = await manifestRead;
    const routesSource = await routesRead;
    if (!manifestSource || !routesSource) return undefined;
    const moved = rewritten
      .map((c) => c.index)
      .sort((a, b) => a - b)
      .map((k) => fileUrl(k, state.pageBuilds))
      .filter((u) => renamed.get(u) !== u);
    located = locateManifest(
      manifestSource,
      state.buildId,
      edited.map((k) => fileUrl(k, state.pageBuilds)),
      objectEdits.map((o) => o.url),
      moved,
    );
    if (
      !located ||
      !manifestEdits(new Map(rewritten.map((c) => [c.index, { bytes: c.record.bytes, digest: c.objects[0]!.sri }])))
    )
      return undefined;
    // Route table indexes: shared packages first, then page packages in plan order (manifest.ts routeTable).
    const builds = new Map<number, string>();
    const shared = state.sharedKeys.length;
    for (let k = 0; k < pageBuilds.length; k++) builds.set(shared + k, pageBuilds[k]!);
    routes = patchRoutes(
      routesSource.toString('utf8'),
      state.buildId,
      buildId,
      shared + pageBuilds.length,
      builds,
      renamed,
    );
    if (routes === undefined) return undefined;
  }

  // The last moment a cancelled patch leaves everything as it was.
  checkAborted(input.signal);
  // Null marks first: a patch killed from here on leaves them, and the next build re-encodes these files
  // (patchWith refuses while any is left). They are replaced by records only once the state is saved.
  const unknown = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, null]));
  updatePackages(
    root,
    unknown([...rewritten.map((c) => c.record.packageUrl), ...htmlWrites.map((c) => `file:${c.file.rel}`)]),
  );
  const fresh = new Map<number, { bytes: number; digest: string }>();
  for (const c of rewritten) {
    const rel = packageFile(fileUrl(c.index, pageBuilds));
    fresh.set(c.index, await writePackage(abs(rel), { buildId, sharedRefs: c.record.shared, objects: c.objects }));
    written.push(rel);
    input.progress({ phase: 'write', done: written.length, total: rewritten.length + htmlWrites.length + 3 });
  }
  for (const c of htmlWrites) {
    await writeFileAtomic(c.file.file, c.body);
    written.push(c.file.rel);
  }

  if (manifestSource && routes !== undefined) {
    for (const c of rewritten) {
      const w = fresh.get(c.index)!;
      const html = c.objects[0]!;
      const at = c.record.own[0]!;
      // The report's numbers follow the page's new HTML and package sizes.
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
    const manifestText = manifestEdits(fresh);
    // Checked above with the same keys: only the values differ.
    if (!manifestText) throw new Error('patchBuild: manifest shape changed during the patch');
    if (input.report !== undefined) {
      const html = renderReport(
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
      await writeReport(input.report, html);
      const rel = insideDir(root, input.report);
      if (rel !== undefined) written.push(rel);
    }
    await writeFileAtomic(abs(ROUTES_FILE), routes);
    written.push(ROUTES_FILE);
    await writeFileAtomic(abs(MANIFEST_FILE), manifestText, { fsync: true });
    written.push(MANIFEST_FILE);
  }
  // Unlike the pipeline, no stale package files to look for in _objpack/ (10,000 names): a state exists
  // only after the pipeline's own clean-up (full-build.ts saves it last). Once the switch is done, the
  // generation before last goes: what the state says it superseded and this build does not name again.
  const named = new Set([...renamed.values()].map(packageFile));
  const removed = manifestSource && routes !== undefined ? state.superseded.filter((f) => !named.has(f)) : [];
  await Promise.all(removed.map((f) => rm(abs(f), { force: true })));
  const superseded =
    manifestSource && routes !== undefined
      ? [...renamed].filter(([from, to]) => from !== to).map(([from]) => packageFile(from))
      : state.superseded;
  await removeTempFiles(root, new Set(['.', ...htmlWrites.map((c) => path.posix.dirname(c.file.rel))]));
  const writeMs = performance.now() - t2;

  // Pages written back with the tag are walked with their new signatures next time.
  for (const c of htmlWrites) {
    const st = statSync(c.file.file);
    fileStats.set([st.size, st.mtimeMs, st.ino], statsAt.get(c.file)!);
  }
  const next: BuildState = {
    ...state,
    fileStats,
    buildId,
    pageKeys,
    pageBuilds,
    superseded,
    overlay,
    summary: JSON.stringify(summary),
    outputs: {
      ...state.outputs,
      ...outputSignatures(
        root,
        written.filter((w) => w in state.outputs),
      ),
    },
  };
  if (touched.length > 0) await saveState(root, next);
  // The records the pipeline would have written (emit.ts), so its next run keeps these files.
  updatePackages(root, {
    ...Object.fromEntries(rewritten.map((c) => [c.record.packageUrl, { key: c.key, ...fresh.get(c.index)!, buildId }])),
    ...Object.fromEntries(
      htmlWrites.map((c) => [
        `file:${c.file.rel}`,
        { key: c.objects[0]!.sri, bytes: c.body.length, digest: c.objects[0]!.sri },
      ]),
    ),
  });

  const timings = {
    discover: discoverMs,
    trace: 0,
    hash: hashMs,
    plan: 0,
    write: writeMs,
    total: performance.now() - t0,
  };
  input.progress({ phase: 'done', done: 1, total: 1 });
  let manifest: BuildManifest | undefined;
  let plan: PackagePlan | undefined;
  return {
    buildId,
    root,
    outDir: root,
    get manifest() {
      return (manifest ??= JSON.parse(readFileSync(abs(MANIFEST_FILE), 'utf8')) as BuildManifest);
    },
    get plan() {
      return (plan ??= planFromState(root, next));
    },
    summary,
    diagnostics,
    written,
    removed,
    reused: state.sharedKeys.length + state.pageKeys.length - rewritten.length,
    ...(input.report !== undefined ? { report: input.report } : {}),
    pagesParsed: touched.length,
    patched: true,
    timings,
  };
}
