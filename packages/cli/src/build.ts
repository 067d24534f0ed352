import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE, PACKAGE_DIR, ROUTES_FILE, type BuildManifest } from '@objpack/format';
import { DiscoverCodes, DiscoverError, isPage, type Diagnostic, type SiteFile, type SiteGraph } from './discover/index.js';
import { discoverWith } from './discover/discover-site.js';
import { PageParser } from './discover/page-parser.js';
import { BuildCache, CACHE_FILE } from './emit/build-cache.js';
import { emit, NGINX_FILE, PUSH_MANIFEST_FILE, REPORT_FILE } from './emit/emit.js';
import type { HostTarget } from './emit/host-config.js';
import { REGISTER_PATH, REGISTER_TAG, WORKER_PATH } from './emit/inject.js';
import { htmlBody } from './emit/write-package.js';
import { checkWorkerAssets, loadWorkerAssets, type WorkerAssets } from './emit/sw-assets.js';
import { ErrorCode, ObjpackError, WarningCode } from './errors.js';
import type { FileDigest } from './discover/file-digest.js';
import { planPackages } from './plan/plan-packages.js';
import type { PackagePlan, PlanOptions, PlanPage } from './plan/types.js';
import { OWN_PATHS, preparePages, rememberRewrittenPages } from './prepare-pages.js';
import { renderReport } from './report/render-report.js';
import { summarize, type BuildSummary } from './report/summary.js';
import { traceClosures } from './plan/apply-trace.js';
import { dropState, outputSignatures, saveState } from './incremental/build-state.js';
import { captureState } from './incremental/capture-state.js';
import { buildFingerprint } from './incremental/fingerprint.js';
import { patchBuild } from './incremental/patch-build.js';
import { parseOrigin } from './discover/site-origin.js';

/** Options of {@link build}; the CLI flags and objpack.config.* map onto these one to one. */
export interface BuildOptions extends PlanOptions {
  /** The built site (dist/, _site/, public/…). */
  root: string;
  /** Write a full copy of the site with the packages here instead of writing into `root`. */
  out?: string;
  /** The site's public origin (optionally with a base path): absolute URLs on it count as local. */
  origin?: string;
  /** Site-relative paths or directories to leave out of the crawl. */
  exclude?: string[];
  /** Load pages in headless Chromium and add what the browser requested (a number: sample that many pages). */
  trace?: boolean | number;
  /** Extra host configs: 'vercel', 'firebase', 'nginx' (`_headers` for Netlify/Cloudflare is always written). */
  targets?: HostTarget[];
  /** Add the worker registration `<script>` to every page (default true). */
  inject?: boolean;
  /** Write the service worker and its registration script (default true). */
  serviceWorker?: boolean;
  /** Write the self-unregistering worker instead, to take objpack off a site cleanly. */
  unregister?: boolean;
  /** Worker files to copy instead of those of @objpack/client-sw. */
  workerAssets?: WorkerAssets;
  /** Write objpack-report.html (default true). */
  report?: boolean;
  /** Audio/video larger than this go into packages only as a prefix of this many bytes (default 256 KiB). */
  partialThreshold?: number;
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
export const OWN_FILES = [PACKAGE_DIR, MANIFEST_FILE, REPORT_FILE, PUSH_MANIFEST_FILE, NGINX_FILE, WORKER_PATH.slice(1), REGISTER_PATH.slice(1)];
const OWN_REF = /(^|\/)objpack-(register|sw)\.js$/;

/**
 * Crawls the site at `options.root`, computes each page's closure, plans page and shared packages and
 * writes them with the manifests, host configs, the service worker and the report. Recoverable problems
 * come back as `diagnostics`; misuse, an unusable root or a failed write throws {@link ObjpackError}.
 */
export async function build(options: BuildOptions): Promise<BuildResult> {
  const t0 = performance.now();
  const timings = { discover: 0, trace: 0, hash: 0, plan: 0, write: 0, total: 0 };
  const progress = options.onProgress ?? (() => undefined);
  const root = await resolveRoot(options.root);
  const outDir = options.out ? path.resolve(options.out) : root;
  const inPlace = outDir === root;
  if (!inPlace && (root + path.sep).startsWith(outDir + path.sep)) {
    throw new ObjpackError(ErrorCode.OUT_CONTAINS_INPUT, `--out ${outDir} contains the site directory ${root}`);
  }
  const outRel = path.relative(root, outDir);
  const outInside = !inPlace && !outRel.startsWith('..') && !path.isAbsolute(outRel);
  const exclude = [...(options.exclude ?? []), ...OWN_FILES, ...(outInside ? [outRel.split(path.sep).join('/')] : [])];

  const wantWorker = options.serviceWorker !== false;
  const workerAssets = wantWorker ? (options.workerAssets ? (await checkWorkerAssets(options.workerAssets), options.workerAssets) : await loadWorkerAssets()) : undefined;
  const inject = options.inject !== false && wantWorker;
  const workerFiles = workerAssets ? [workerAssets.workerFile, workerAssets.registerFile, workerAssets.unregisterWorkerFile] : [];
  const fingerprint = buildFingerprint({ options: { ...options }, exclude, inject, workerFiles });
  if (inPlace && options.cache !== false && !options.trace) {
    const patched = await patchBuild({ root, fingerprint, origin: options.origin, exclude, inject, report: options.report !== false, reportFile: REPORT_FILE, progress, t0 });
    if (patched) return patched;
  }
  if (inPlace) dropState(root);
  const cache = options.cache === false ? BuildCache.empty() : await BuildCache.load(outDir);

  let graph: SiteGraph;
  const partialThreshold = options.partialThreshold ?? DEFAULT_PARTIAL_THRESHOLD;
  const pool = await PageParser.create(options.concurrency === undefined ? undefined : Math.min(4, options.concurrency));
  // Files the cache cannot vouch for are hashed on the pool's threads while discovery runs (behind the
  // page parses), so the hash phase mostly finds its digests done.
  const hashing = new Map<string, Promise<FileDigest>>();
  const prehash = (files: ReadonlyMap<string, SiteFile>) => {
    // With a previous build's cache, the few changed files are hashed when a page needs them: hashing every
    // unreferenced file ahead (their digests are never kept) would cost more than the rebuild.
    if (cache.discover.warm) return;
    for (const f of files.values()) {
      if (isPage(f) || OWN_PATHS.has(f.path)) continue;
      const send = /^(video|audio)\//.test(f.contentType) && f.bytes > partialThreshold ? partialThreshold : f.bytes;
      if (cache.digest(f.file, f, send)) continue;
      const p = pool.digest(f.file, send, { size: f.bytes, mtimeMs: f.mtimeMs, ...(f.ino !== undefined ? { ino: f.ino } : {}) });
      p.catch(() => undefined); // a file that vanished is reported when a page needs it
      hashing.set(f.file, p);
    }
  };
  let diagnostics: Diagnostic[];
  let pages: PlanPage[];
  let t: number;
  try {
    try {
      graph = await discoverWith(pool, root, { origin: options.origin, exclude, cache: cache.discover, hashIgnore: REGISTER_TAG, finalHtml: inject ? 'inject' : 'plain', onProgress: (done, total) => progress({ phase: 'discover', done, total }) }, prehash);
    } catch (err) {
      throw fromDiscoverError(err);
    }
    timings.discover = performance.now() - t0;
    const needed = new Set<string>();
    for (const page of graph.pages) for (const item of page.items) needed.add(graph.files.get(item.path)?.file ?? '');
    pool.dropDigests((file) => !needed.has(file));
    diagnostics = graph.diagnostics.filter((d) => !(d.ref && OWN_REF.test(d.ref.split(/[?#]/)[0]!)));
    if (graph.pages.length === 0) {
      throw new ObjpackError(ErrorCode.NO_PAGES, `no HTML pages in ${root}`);
    }

    t = performance.now();
    if (options.trace) {
      progress({ phase: 'trace', done: 0, total: graph.pages.length });
      diagnostics.push(...(await traceClosures(root, graph, typeof options.trace === 'number' ? options.trace : undefined)));
    }
    timings.trace = performance.now() - t;

    t = performance.now();
    pages = await preparePages(graph, { cache, inject, partialThreshold, concurrency: options.concurrency ?? 16, diagnostics, progress, hashing });
    timings.hash = performance.now() - t;
  } catch (err) {
    await pool.close();
    throw err;
  }

  t = performance.now();
  progress({ phase: 'plan', done: 0, total: 1 });
  const plan = planPackages(pages, options);
  timings.plan = performance.now() - t;

  t = performance.now();
  const html = pages
    .filter((p) => !inPlace || p.items[0]!.inject)
    .map((p) => ({ rel: p.file, key: p.items[0]!.sri, load: () => htmlBody(p.items[0]!) }));
  let summary: BuildSummary | undefined;
  // The pool stays up through the write phase: packages are encoded and written on its threads.
  const result = await emit({
    root,
    outDir,
    plan,
    copy: inPlace ? undefined : [...graph.files.values()],
    html,
    worker: workerAssets ? { assets: workerAssets, unregister: options.unregister === true } : undefined,
    targets: options.targets ?? [],
    cache,
    report:
      options.report === false
        ? undefined
        : (manifest) => {
            summary = summarize(manifest, plan, graph, diagnostics);
            return renderReport(manifest, plan, summary, diagnostics);
          },
    concurrency: options.concurrency,
    writer: pool,
    onFile: (_rel, done, total) => progress({ phase: 'write', done, total }),
  }).finally(() => pool.close());
  timings.write = performance.now() - t;
  if (inPlace) rememberRewrittenPages(root, graph, new Set(result.written), cache, inject);
  await cache.save(outDir);
  for (const w of result.linkTruncated) {
    diagnostics.push({ code: WarningCode.LINK_HEADER_TRUNCATED, severity: 'warning', message: `Link header of ${w.page} cut to stay under 8 KB (${w.dropped} preloads dropped)`, ref: w.page });
  }
  for (const m of result.hostWarnings) diagnostics.push({ code: WarningCode.HOST_CONFIG_LIMIT, severity: 'warning', message: m });
  summary ??= summarize(result.manifest, plan, graph, diagnostics);
  summary.warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  summary.errors = diagnostics.filter((d) => d.severity === 'error').length;
  if (inPlace) {
    const outputs = outputSignatures(root, [MANIFEST_FILE, ROUTES_FILE, REPORT_FILE, PUSH_MANIFEST_FILE, NGINX_FILE, '_headers', 'vercel.json', 'firebase.json', WORKER_PATH.slice(1), REGISTER_PATH.slice(1)]);
    const state = captureState({ outDir: root, basePath: parseOrigin(options.origin).basePath, fingerprint, graph, plan, manifest: result.manifest, summary, diagnostics, written: result.written, outputs });
    if (state) await saveState(root, state.state, state.rows);
  }
  timings.total = performance.now() - t0;
  progress({ phase: 'done', done: 1, total: 1 });
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
    pagesParsed: graph.pagesParsed,
    patched: false,
    timings,
  };
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

function fromDiscoverError(err: unknown): unknown {
  if (!(err instanceof DiscoverError)) return err;
  const map: Partial<Record<string, ErrorCode>> = {
    [DiscoverCodes.ROOT_NOT_FOUND]: ErrorCode.INPUT_NOT_FOUND,
    [DiscoverCodes.ROOT_NOT_DIRECTORY]: ErrorCode.INPUT_NOT_DIRECTORY,
    [DiscoverCodes.BAD_ORIGIN]: ErrorCode.USAGE,
    [DiscoverCodes.NO_PAGES]: ErrorCode.NO_PAGES,
  };
  return new ObjpackError(map[err.code] ?? ErrorCode.BUILD_ERRORS, `${err.code}: ${err.message}`, undefined, { cause: err });
}

export { CACHE_FILE, ROUTES_FILE };
