import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE, PACKAGE_DIR, ROUTES_FILE, type BuildManifest } from '@objpack/format';
import type { Diagnostic } from './discover/types.js';
import { CACHE_FILE } from './cache/build-cache.js';
import type { HostTarget } from './hosts/index.js';
import { REGISTER_PATH, WORKER_PATH } from './inject/inject.js';
import { NGINX_FILE, PUSH_MANIFEST_FILE, REPORT_FILE } from './emit/output-files.js';
import { unwalkedHostConfigs } from './hosts/config-dirs.js';
import { checkWorkerAssets, loadWorkerAssets, type WorkerAssets } from './emit/sw-assets.js';
import { resolveBase } from './base-option.js';
import { ErrorCode, ObjpackError } from './errors.js';
import { buildFingerprint } from './incremental/fingerprint.js';
import { patchBuild } from './incremental/patch-build.js';
import type { PackagePlan, PlanOptions } from './plan/types.js';
import { insideDir, reportPath } from './report/report-file.js';
import type { BuildSummary } from './report/summary.js';

/** Options of {@link build}; the CLI flags and objpack.config.* map onto these one to one. */
export interface BuildOptions extends PlanOptions {
  /** The built site (dist/, _site/, public/…). */
  root: string;
  /** Write a full copy of the site with the packages here instead of writing into `root`. */
  out?: string;
  /** The site's public origin (optionally with a base path): absolute URLs on it count as local. */
  origin?: string;
  /**
   * The URL path the site root is served under (`/repo/` for a GitHub Pages project site): every URL the
   * build writes lies under it, and the manifest records it for `objpack serve`. Default: the path of `origin`,
   * else `/`. Not a path, or another path than `origin`'s: OBJPACK_E_BAD_BASE.
   */
  base?: string;
  /** Site-relative paths or directories to leave out of the crawl. */
  exclude?: string[];
  /** Load pages in headless Chromium and add what the browser requested (a number: sample that many pages). */
  trace?: boolean | number;
  /**
   * Extra host configs: 'vercel', 'firebase', 'nginx'. `_headers` for Netlify/Cloudflare Pages is always
   * written; 'cloudflare' writes it within Cloudflare's 100 rules and 2,000-character lines.
   */
  targets?: HostTarget[];
  /** Add the worker registration `<script>` to every page (default true). */
  inject?: boolean;
  /** Write the service worker and its registration script (default true). */
  serviceWorker?: boolean;
  /** Write the self-unregistering worker instead, to take objpack off a site cleanly. */
  unregister?: boolean;
  /** Worker files to copy instead of those of @objpack/client-sw. */
  workerAssets?: WorkerAssets;
  /** Write the build report (default true). */
  report?: boolean;
  /**
   * Where the report goes, relative to `projectDir` (default `.objpack/report.html`). Name a file in the
   * output (`dist/objpack-report.html`) to publish it with the site.
   */
  reportFile?: string;
  /** The project the site is built from (default the working directory): the report goes beside it. */
  projectDir?: string;
  /** Audio/video larger than this go into packages only as a prefix of this many bytes (default 256 KiB). */
  partialThreshold?: number;
  /**
   * The host serves `/about.html` at `/about` too (Netlify, Cloudflare Pages, GitHub Pages, objpack serve;
   * Vercel/Firebase with `cleanUrls`), so the worker answers `/about` with that page. Default: on when the
   * site's vercel.json/firebase.json says `cleanUrls: true`, else off.
   */
  cleanUrls?: boolean;
  /**
   * The host serves a directory's page `/guide/` at `/guide` too, without redirecting (Vercel unless
   * `trailingSlash: true`, Firebase with `trailingSlash: false`, Render, Azure Static Web Apps), so the worker
   * answers `/guide` with that page. Default: from the site's vercel.json/firebase.json, else off (Netlify,
   * Cloudflare Pages, GitHub Pages and objpack serve redirect `/guide` to `/guide/`).
   */
  bareDirUrls?: boolean;
  /** Reuse digests, parse results and unchanged packages of the previous build (default true). */
  cache?: boolean;
  /** Parallel file operations (default 16). */
  concurrency?: number;
  onProgress?(progress: BuildProgress): void;
}

export interface BuildProgress {
  phase: 'discover' | 'trace' | 'hash' | 'plan' | 'write' | 'done';
  done: number;
  total: number;
}

export interface BuildResult {
  buildId: string;
  root: string;
  outDir: string;
  manifest: BuildManifest;
  plan: PackagePlan;
  summary: BuildSummary;
  /** Discovery diagnostics plus the build's own warnings; any 'error' makes the CLI exit 1. */
  diagnostics: Diagnostic[];
  written: string[];
  removed: string[];
  /** Packages kept byte-for-byte from the previous build. */
  reused: number;
  /** The report's absolute path, unless `report: false`. */
  report?: string;
  /** HTML pages parsed by this build; the others' closures came from the cache. */
  pagesParsed: number;
  /**
   * True when only pages' HTML changed and the previous outputs were patched (incremental/patch-build.ts);
   * `manifest` and `plan` are then read from the written files on first access.
   */
  patched: boolean;
  timings: Record<'discover' | 'trace' | 'hash' | 'plan' | 'write' | 'total', number>;
}

export const DEFAULT_PARTIAL_THRESHOLD = 256 * 1024;

/** Files the build writes; never crawled, never packaged. */
export const OWN_FILES = [
  PACKAGE_DIR,
  MANIFEST_FILE,
  REPORT_FILE,
  PUSH_MANIFEST_FILE,
  NGINX_FILE,
  WORKER_PATH.slice(1),
  REGISTER_PATH.slice(1),
];

/**
 * Crawls the site at `options.root`, computes each page's closure, plans page and shared packages and
 * writes them with the manifests, host configs, the service worker and the report. Recoverable problems
 * come back as `diagnostics`; misuse, an unusable root or a failed write throws {@link ObjpackError}.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const t0 = performance.now();
  const timings = { discover: 0, trace: 0, hash: 0, plan: 0, write: 0, total: 0 };
  const progress = options.onProgress ?? (() => undefined);
  options = { ...options, base: resolveBase(options) };
  const root = await resolveRoot(options.root);
  const outDir = options.out ? path.resolve(options.out) : root;
  const inPlace = outDir === root;
  if (!inPlace && (root + path.sep).startsWith(outDir + path.sep)) {
    throw new ObjpackError(ErrorCode.OUT_CONTAINS_INPUT, `--out ${outDir} contains the site directory ${root}`);
  }
  // A file at or above --out: a usage error here, not ENOTDIR from deep in the writer.
  if (
    !inPlace &&
    !(await stat(outDir).then(
      (st) => st.isDirectory(),
      (e: NodeJS.ErrnoException) => e.code !== 'ENOTDIR',
    ))
  ) {
    throw new ObjpackError(
      ErrorCode.USAGE,
      `--out ${outDir} is a file or lies under one; give a directory (it is created if missing)`,
      outDir,
    );
  }
  const outRel = path.relative(root, outDir);
  const outInside = !inPlace && !outRel.startsWith('..') && !path.isAbsolute(outRel);
  const report = reportPath(options);
  // A report written into the site (`reportFile: 'dist/report.html'`) is never one of its pages.
  const reportRel = report === undefined ? undefined : insideDir(root, report);
  const exclude = [
    ...(options.exclude ?? []),
    ...OWN_FILES,
    ...(outInside ? [outRel.split(path.sep).join('/')] : []),
    ...(reportRel ? [reportRel] : []),
  ];

  const wantWorker = options.serviceWorker !== false;
  const workerAssets = wantWorker
    ? options.workerAssets
      ? (await checkWorkerAssets(options.workerAssets), options.workerAssets)
      : await loadWorkerAssets()
    : undefined;
  const inject = options.inject !== false && wantWorker;
  const workerFiles = workerAssets
    ? [workerAssets.workerFile, workerAssets.registerFile, workerAssets.unregisterWorkerFile]
    : [];
  // Where the report lies outside the site it changes no output: a build from another directory is the same.
  const fingerprint = buildFingerprint({
    options: { ...options, report: report !== undefined && (reportRel ?? true) },
    exclude,
    inject,
    workerFiles,
    hostFiles: unwalkedHostConfigs(root),
  });
  if (inPlace && options.cache !== false && !options.trace) {
    const patched = await patchBuild({
      root,
      fingerprint,
      origin: options.origin,
      base: options.base,
      exclude,
      inject,
      worker: wantWorker,
      report,
      progress,
      t0,
    });
    if (patched) return patched;
  }
  // The pipeline's modules (parsers, thread pool, planner, emitter) load only when the patch cannot answer.
  const { fullBuild } = await import('./full-build.js');
  return fullBuild({
    options,
    t0,
    timings,
    progress,
    root,
    outDir,
    inPlace,
    exclude,
    workerAssets,
    inject,
    fingerprint,
    report,
  });
}

async function resolveRoot(root: string): Promise<string> {
  const abs = path.resolve(root);
  let st;
  try {
    st = await stat(abs);
  } catch {
    throw new ObjpackError(ErrorCode.INPUT_NOT_FOUND, `site directory not found: ${abs}`, abs);
  }
  if (!st.isDirectory()) throw new ObjpackError(ErrorCode.INPUT_NOT_DIRECTORY, `not a directory: ${abs}`, abs);
  return realpath(abs);
}

export { CACHE_FILE, ROUTES_FILE };
