import { ErrorCode, ObjpackError } from '../errors.js';
import type { PackagePlan } from '../plan/types.js';
import { planObjectOf, StateRows, STATE_ROWS_FILE, type BuildState, type SharedRecord } from './build-state.js';

/** The plan a full build would return, rebuilt from the state's rows (only when a caller asks for it). */
export function planFromState(root: string, state: BuildState): PackagePlan {
  const rows = StateRows.open(root, state);
  if (!rows)
    throw new ObjpackError(
      ErrorCode.SOURCE_CHANGED,
      `${STATE_ROWS_FILE} changed since this build: its plan can no longer be read`,
    );
  try {
    const objects = Array.from({ length: state.objectCount }, (_, k) => planObjectOf(rows.object(k)));
    const records = state.pageFiles.map((_, k) => rows.page(k));
    // A page's HTML carries its host headers, as in the pipeline's plan.
    for (const r of records) if (r.headers) objects[r.own[0]!]!.headers = r.headers;
    const shared = (JSON.parse(rows.get(state.objectCount + records.length)) as SharedRecord[]).map((s) => ({
      url: s.url,
      key: s.key,
      objects: s.objects.map((k) => objects[k]!),
      pages: s.pages.map((k) => records[k]!.url),
    }));
    return {
      pages: records.map((r, k) => ({
        url: r.url,
        file: r.file,
        packageUrl: r.packageUrl,
        key: state.pageKeys[k]!,
        objects: r.own.map((k) => objects[k]!),
        shared: r.shared,
        closure: r.closure.map((k) => objects[k]!),
        critical: r.critical,
        ...(r.preload ? { preload: r.preload } : {}),
        ...(r.earlyHints ? { earlyHints: r.earlyHints } : {}),
        crossOrigin: r.crossOrigin,
        ...(r.later ? { later: r.later } : {}),
      })),
      shared,
      objects: new Map(objects.map((o) => [o.url, o])),
      stats: state.stats,
    };
  } finally {
    rows.close();
  }
}
