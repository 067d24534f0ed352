import { createHash } from 'node:crypto';
import { generationUrl } from '../emit/generation.js';
import { stripQuery } from '../emit/manifest.js';
import type { BuildState } from './build-state.js';
import type { Changed } from './changed-page.js';
import type { PatchChanges } from './patch-detect.js';
import { locateManifest, patchManifest, patchRoutes, type PackageEdit } from './patch-manifest.js';

/** A rewritten package's size and digest, by page index. */
export type Fresh = ReadonlyMap<number, { bytes: number; digest: string }>;

/** The switch files' new contents, when the build id changes. */
export interface PatchSwitch {
  /** The route table, edited. */
  routes: string;
  /** The manifest's parts, edited with the rewritten packages' sizes and digests; undefined if its shape changed. */
  manifestText(fresh: Fresh): Buffer[] | undefined;
}

/** Every edit the patch makes, decided before any file is written. */
export interface PatchPlan {
  buildId: string;
  pageKeys: string[];
  pageBuilds: string[];
  /** Pages whose HTML bytes changed: each gets a new package. */
  rewritten: Changed[];
  /** Pages written back with the registration tag. */
  htmlWrites: Changed[];
  /** Package URL of the last build → of this one, for every rewritten page. */
  renamed: Map<string, string>;
  /** A page's package URL under the given builds. */
  fileUrl(k: number, builds: readonly string[]): string;
  /** Undefined when the build id stays: then neither the manifest nor the route table changes. */
  switch: PatchSwitch | undefined;
}

/**
 * The patch's plan step: the new build id and every edit to the manifest and route table, each checked
 * against the published files before any file is written, so a shape the patch cannot edit falls back to
 * the pipeline (undefined) with nothing touched.
 */
export async function planEdits(state: BuildState, found: PatchChanges): Promise<PatchPlan | undefined> {
  const { changed } = found;
  // Only pages whose HTML bytes changed get a new package; a touched page keeps its own.
  const pageKeys = [...state.pageKeys];
  const rewritten = changed.filter((c) => c.key !== state.pageKeys[c.index]);
  for (const c of rewritten) pageKeys[c.index] = c.key;
  const buildId = createHash('sha256')
    .update([...state.sharedKeys, ...pageKeys].join('\n'))
    .digest('hex')
    .slice(0, 16);
  const pageBuilds = [...state.pageBuilds];
  for (const c of rewritten) pageBuilds[c.index] = buildId;
  // A rewritten package gets its generation's name: the files the published table names stay as they are.
  const fileUrl = (k: number, builds: readonly string[]) => generationUrl(state.packageUrls[k]!, builds[k]!);
  const renamed = new Map(rewritten.map((c) => [fileUrl(c.index, state.pageBuilds), fileUrl(c.index, pageBuilds)]));
  const plan = { buildId, pageKeys, pageBuilds, rewritten, renamed, fileUrl };
  const htmlWrites = changed.filter((c) => c.rewrite);
  if (buildId === state.buildId) return { ...plan, htmlWrites, switch: undefined };
  const manifestSource = await found.manifestRead;
  const routesSource = await found.routesRead;
  if (!manifestSource || !routesSource) return undefined;
  const manifestText = planManifest(state, plan, manifestSource);
  if (!manifestText) return undefined;
  const routes = planRoutes(state, plan, routesSource.toString('utf8'));
  if (routes === undefined) return undefined;
  return { ...plan, htmlWrites, switch: { routes, manifestText } };
}

type PlanCore = Omit<PatchPlan, 'htmlWrites' | 'switch'>;

/** The manifest's edits, located once; undefined when the manifest has a shape the patch cannot edit. */
function planManifest(state: BuildState, plan: PlanCore, source: Buffer): PatchSwitch['manifestText'] | undefined {
  const { buildId, pageBuilds, rewritten, renamed, fileUrl } = plan;
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
  const moved = rewritten
    .map((c) => c.index)
    .sort((a, b) => a - b)
    .map((k) => fileUrl(k, state.pageBuilds))
    .filter((u) => renamed.get(u) !== u);
  const located = locateManifest(
    source,
    state.buildId,
    edited.map((k) => fileUrl(k, state.pageBuilds)),
    objectEdits.map((o) => o.url),
    moved,
  );
  if (!located) return undefined;
  const manifestText = (fresh: Fresh) => {
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
    return patchManifest(located, buildId, edits, objects);
  };
  // The same keys with the old sizes: the values the writes bring cannot change the shape.
  const old = new Map(rewritten.map((c) => [c.index, { bytes: c.record.bytes, digest: c.objects[0]!.sri }]));
  return manifestText(old) ? manifestText : undefined;
}

/** The route table with the new build id and package names; undefined when it cannot be edited. */
function planRoutes(state: BuildState, plan: PlanCore, source: string): string | undefined {
  // Route table indexes: shared packages first, then page packages in plan order (manifest.ts routeTable).
  const builds = new Map<number, string>();
  const shared = state.sharedKeys.length;
  for (let k = 0; k < plan.pageBuilds.length; k++) builds.set(shared + k, plan.pageBuilds[k]!);
  return patchRoutes(source, state.buildId, plan.buildId, shared + plan.pageBuilds.length, builds, plan.renamed);
}
