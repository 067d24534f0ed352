import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE, ROUTES_FILE } from '@objpack/format';
import { STALE_FILE } from '../cache/build-cache.js';
import { isPage } from '../discover/is-page.js';
import type { Diagnostic, SiteFile } from '../discover/types.js';
import { walkFlat } from '../discover/walk.js';
import { generationUrl, packageFile } from '../emit/generation.js';
import { WarningCode } from '../errors.js';
import { REGISTER_PATH } from '../inject/inject.js';
import type { BuildContext } from '../pipeline/context.js';
import { fileKeysOf, outputSignatures, type BuildState, type ReportShared, type StateRows } from './build-state.js';
import { examine, type Changed } from './changed-page.js';
import { readAhead } from './read-ahead.js';

/** More changed pages than this: the pipeline (threads, caches) is the better tool. */
const MAX_PAGES = 64;

type Walked = Awaited<ReturnType<typeof walkFlat>>['walked'];

/** What changed since the last build, when the patch can answer it. */
export interface PatchChanges {
  /** Every walked file's stats, as the next state records them. */
  fileStats: Walked['stats'];
  /** The files whose stats changed: pages only. */
  touched: SiteFile[];
  /** Where each touched file's stats are in `fileStats`. */
  statsAt: Map<SiteFile, number>;
  /** The touched pages as the patch rewrites them. */
  changed: Changed[];
  reportShared: ReportShared[];
  /** The published manifest and route table, read while the walk runs. */
  manifestRead: Promise<Buffer | undefined>;
  routesRead: Promise<Buffer | undefined>;
}

/**
 * The patch's discover stage: checks that the last build's outputs are as it left them, walks the site,
 * and finds the pages that changed. Undefined when anything else changed: then the pipeline runs.
 */
export async function detectChanges(
  input: BuildContext,
  state: BuildState,
  rows: StateRows,
): Promise<PatchChanges | undefined> {
  const { root } = input;
  const abs = (rel: string) => path.join(root, rel);
  const current = outputSignatures(root, Object.keys(state.outputs));
  for (const [rel, sig] of Object.entries(state.outputs)) if (current[rel] !== sig) return undefined;
  // A patch killed mid-write leaves null marks: the files it was writing are unknown to the state.
  if (unfinished(root)) return undefined;
  // Read while the walk below holds this thread (20 MB for 10,000 pages): needed only if a package changes.
  const manifestRead = readAhead(abs(MANIFEST_FILE));
  const routesRead = readAhead(abs(ROUTES_FILE));

  input.progress({ phase: 'discover', done: 0, total: 1 });
  const walkDiagnostics: Diagnostic[] = [];
  const walkOptions = { origin: input.options.origin, base: input.options.base, exclude: input.exclude };
  const { walked } = await walkFlat(root, walkOptions, walkDiagnostics);
  const fileStats = walked.stats;
  if (fileKeysOf(walked.paths) !== state.fileKeys || JSON.stringify(walkDiagnostics) !== state.walkDiagnostics)
    return undefined;
  const touched: SiteFile[] = [];
  /** Where each touched file's stats are in `fileStats`. */
  const statsAt = new Map<SiteFile, number>();
  const s = state.fileStats;
  for (let i = 0; i < fileStats.length; i += 3) {
    if (s[i] !== fileStats[i] || s[i + 1] !== fileStats[i + 1] || s[i + 2] !== fileStats[i + 2]) {
      const f = walked.at(i / 3);
      if (!isPage(f) || touched.length === MAX_PAGES) return undefined;
      touched.push(f);
      statsAt.set(f, i);
    }
  }
  const changed: Changed[] = [];
  for (const f of touched) {
    const c = await examine(state, rows, f, input.inject, input.options.base);
    if (!c) return undefined;
    changed.push(c);
  }
  // Without a worker, the pipeline counts the pages that still load its script (emit/kept-worker.ts): an edit
  // that may change the count is left to it.
  if (
    input.workerAssets === undefined &&
    changed.length > 0 &&
    (state.diagnostics.includes(WarningCode.REGISTER_WITHOUT_SW) || changed.some((c) => c.body.includes(REGISTER_PATH)))
  )
    return undefined;
  const reportShared = JSON.parse(state.reportShared) as ReportShared[];
  if (!packagesIntact(root, reportShared, changed, state)) return undefined;
  return { fileStats, touched, statsAt, changed, reportShared, manifestRead, routesRead };
}

/** True when `.cache-updates.json` cannot be read or holds a null mark: a patch did not finish. */
function unfinished(root: string): boolean {
  let text: string;
  try {
    text = readFileSync(path.join(root, STALE_FILE), 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  try {
    const marks = JSON.parse(text) as unknown;
    return !marks || typeof marks !== 'object' || Array.isArray(marks) || Object.values(marks).some((m) => m === null);
  } catch {
    return true;
  }
}

/** Every shared package, and the changed pages' own packages, still exist with the sizes the build wrote. */
function packagesIntact(
  root: string,
  shared: readonly ReportShared[],
  changed: readonly Changed[],
  state: BuildState,
): boolean {
  const sizeIs = (url: string, bytes: number) =>
    statSync(path.join(root, packageFile(url)), { throwIfNoEntry: false })?.size === bytes;
  return (
    shared.every((s) => sizeIs(s.url, s.bytes)) &&
    changed.every((c) => sizeIs(generationUrl(c.record.packageUrl, state.pageBuilds[c.index]!), c.record.bytes))
  );
}
