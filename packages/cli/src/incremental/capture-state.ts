import { statSync } from 'node:fs';
import path from 'node:path';
import type { BuildManifest } from '@objpack/format';
import { DiscoverCodes } from '../discover/diagnostic-codes.js';
import type { Diagnostic, SiteGraph } from '../discover/types.js';
import { WarningCode } from '../errors.js';
import type { PackagePlan } from '../plan/types.js';
import type { BuildSummary } from '../report/summary.js';
import {
  extractSignature,
  fileSnapshot,
  objectRow,
  type PageRecord,
  type ReportShared,
  type SharedRecord,
  type StateInput,
} from './build-state.js';

/**
 * The state a full build leaves for the next one to patch, or undefined when this build cannot vouch for it:
 * a file vanished or could not be read (the next build must look again), or a page has no parse result.
 * `written` are the site-relative files the build wrote: site files among them (pages that got the
 * registration tag, `_headers`) are recorded with their new signatures.
 */
export function captureState(input: {
  outDir: string;
  /** The origin's base path ('' or '/base/'): walked files are keyed by it. */
  basePath: string;
  /** The same as checkBasePath spells it: the registration tag's URL lies under it. */
  base?: string;
  fingerprint: string;
  graph: SiteGraph;
  plan: PackagePlan;
  manifest: BuildManifest;
  summary: BuildSummary;
  diagnostics: readonly Diagnostic[];
  written: readonly string[];
  /** Package files of the generation this build replaced that it does not name (emit `superseded`). */
  superseded: readonly string[];
  outputs: Record<string, string>;
}): { state: StateInput; rows: string[] } | undefined {
  const { graph, plan, manifest } = input;
  if (input.diagnostics.some((d) => UNSTABLE.has(d.code)) || !graph.extracts || !graph.walkDiagnostics)
    return undefined;
  const objects: string[] = [];
  const at = new Map<string, number>();
  for (const o of plan.objects.values()) {
    at.set(o.url, objects.length);
    objects.push(JSON.stringify(objectRow(o)));
  }
  const embedded = new Set<string>();
  for (const p of plan.pages) for (const o of p.closure.slice(1)) embedded.add(o.path);
  const pageIndex = new Map(plan.pages.map((p, i) => [p.url, i]));
  const warned = new Set(input.diagnostics.flatMap((d) => (d.file ? [d.file] : [])));
  const byChars = new Set(graph.pages.flatMap((p) => (p.fontsByChars ? [p.file] : [])));
  const pages: string[] = [];
  const pageKeys: string[] = [];
  const pageBuilds: string[] = [];
  for (const p of plan.pages) {
    const extract = graph.extracts.get(p.file);
    const pkg = manifest.packages[manifest.pages[p.url]?.package ?? ''];
    if (!extract || !pkg) return undefined;
    const record: PageRecord = {
      url: p.url,
      file: p.file,
      packageUrl: p.packageUrl,
      own: p.objects.map((o) => at.get(o.url)!),
      shared: p.shared,
      closure: p.closure.map((o) => at.get(o.url)!),
      critical: p.critical,
      ...(p.preload ? { preload: p.preload } : {}),
      ...(p.earlyHints ? { earlyHints: p.earlyHints } : {}),
      crossOrigin: p.crossOrigin,
      ...(p.later ? { later: p.later } : {}),
      bytes: pkg.bytes,
      extract: extractSignature(extract, warned.has(p.file), byChars.has(p.file), input.base),
      lines: warned.has(p.file),
      ...(byChars.has(p.file) ? { fontsByChars: true } : {}),
      embedded: embedded.has(p.closure[0]!.path),
      ...(p.objects[0]?.headers ? { headers: p.objects[0].headers } : {}),
    };
    pages.push(JSON.stringify(record));
    pageKeys.push(p.key);
    pageBuilds.push(pkg.buildId ?? manifest.buildId);
  }
  const shared: SharedRecord[] = plan.shared.map((s) => ({
    url: s.url,
    key: s.key,
    bytes: manifest.packages[s.url]?.bytes ?? 0,
    objects: s.objects.map((o) => at.get(o.url)!),
    pages: s.pages.map((u) => pageIndex.get(u)!),
  }));
  // Files this build wrote into the site (pages given the tag, `_headers`) are walked by the next one.
  const files = new Map(graph.files);
  const known = new Set([...files.values()].map((f) => f.rel));
  let added = false;
  for (const rel of input.written) {
    if (!known.has(rel) && !HOST_CONFIGS.has(rel)) continue;
    const st = statSync(path.join(input.outDir, rel), { throwIfNoEntry: false });
    if (!st) return undefined;
    const key = `${input.basePath}${rel}`;
    const f = files.get(key);
    if (!f) added = true;
    files.set(key, {
      ...(f ?? { path: key, file: path.join(input.outDir, rel), rel, contentType: '' }),
      bytes: st.size,
      mtimeMs: st.mtimeMs,
      ino: st.ino,
    });
  }
  const sorted = added ? new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : files;
  const state: StateInput = {
    fingerprint: input.fingerprint,
    ...fileSnapshot(sorted),
    walkDiagnostics: JSON.stringify(graph.walkDiagnostics),
    buildId: manifest.buildId,
    sharedKeys: plan.shared.map((s) => s.key),
    pageFiles: plan.pages.map((p) => p.file),
    packageUrls: plan.pages.map((p) => p.packageUrl),
    pageKeys,
    pageBuilds,
    superseded: [...input.superseded],
    objectCount: objects.length,
    reportShared: JSON.stringify(
      plan.shared.map((s): ReportShared => ({
        url: s.url,
        bytes: manifest.packages[s.url]?.bytes ?? 0,
        pages: s.pages.length,
        urls: s.objects.map((o) => o.url),
      })),
    ),
    stats: plan.stats,
    summary: JSON.stringify(input.summary),
    diagnostics: JSON.stringify(input.diagnostics),
    outputs: input.outputs,
  };
  return { state, rows: [...objects, ...pages, JSON.stringify(shared)] };
}

/** Host configs a build writes into the site (when it writes one, the next walk finds it). */
const HOST_CONFIGS = new Set(['_headers', 'vercel.json', 'firebase.json']);

/** Warnings about files that were there and then were not: the next build must look at the site again. */
const UNSTABLE = new Set<string>([DiscoverCodes.FILE_VANISHED, DiscoverCodes.UNREADABLE, WarningCode.OBJECT_VANISHED]);
