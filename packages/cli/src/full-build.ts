import path from 'node:path';
import { MANIFEST_FILE, ROUTES_FILE } from '@objpack/format';
import { DEFAULT_PARTIAL_THRESHOLD, type BuildOptions, type BuildProgress, type BuildResult } from './build.js';
import { DiscoverError } from './discover/diagnostic-codes.js';
import { baseDetected, detectBase } from './discover/detect-base.js';
import { discoverWith } from './discover/discover-site.js';
import type { FileDigest } from './discover/file-digest.js';
import { isPage } from './discover/is-page.js';
import { ThreadPool } from './pool/thread-pool.js';
import { parseOrigin } from './discover/site-origin.js';
import type { Diagnostic, SiteFile, SiteGraph } from './discover/types.js';
import { BuildCache } from './cache/build-cache.js';
import { emit } from './emit/emit.js';
import { keepRegisteredWorker } from './emit/kept-worker.js';
import { REGISTER_PATH, registerTag, WORKER_PATH } from './inject/inject.js';
import { NGINX_FILE, PUSH_MANIFEST_FILE } from './emit/output-files.js';
import type { WorkerAssets } from './emit/sw-assets.js';
import type { RedirectRule } from './hosts/host.js';
import { settleHosts, type HostProfile } from './hosts/profile.js';
import { readHosts } from './hosts/read-hosts.js';
import { ownUrlShadows } from './emit/own-urls.js';
import { htmlBody } from './emit/write-package.js';
import { ErrorCode, ObjpackError, reportedCode, WarningCode, warn } from './errors.js';
import { dropState, outputSignatures, saveState } from './incremental/build-state.js';
import { captureState } from './incremental/capture-state.js';
import { traceClosures } from './plan/apply-trace.js';
import { planPackages } from './plan/plan-packages.js';
import type { PlanPage } from './plan/types.js';
import { aboutSite, ownPaths, preparePages, rememberRewrittenPages } from './prepare/prepare-pages.js';
import { renderReport } from './report/render-report.js';
import { insideDir } from './report/report-file.js';
import { summarize, type BuildSummary } from './report/summary.js';

/** What build() settled before choosing the pipeline. */
export interface FullBuildInput {
  options: BuildOptions;
  t0: number;
  timings: BuildResult['timings'];
  progress(p: BuildProgress): void;
  root: string;
  outDir: string;
  inPlace: boolean;
  exclude: string[];
  workerAssets: WorkerAssets | undefined;
  inject: boolean;
  fingerprint: string;
  /** The report's absolute path; none without a report. */
  report: string | undefined;
}

/**
 * The whole pipeline: discovery on the parser pool (with the previous build's caches), optional trace,
 * digests, plan, and the atomic write of every output, manifest last.
 */
export async function fullBuild(input: FullBuildInput): Promise<BuildResult> {
  const { options, t0, timings, progress, root, outDir, inPlace, exclude, workerAssets, inject, fingerprint } = input;
  const { report } = input;
  let base = options.base ?? '/';
  let own = ownPaths(base);
  /** The base the pages say the site is built for, when no option said (detect-base.ts). */
  let detected: string | undefined;
  // Before anything is written: a state in the output directory (an earlier in-place build of it) vouches
  // only for outputs this build replaces.
  dropState(outDir);
  const cache = options.cache === false ? BuildCache.empty() : await BuildCache.load(outDir);

  let graph: SiteGraph;
  const partialThreshold = options.partialThreshold ?? DEFAULT_PARTIAL_THRESHOLD;
  const pool = await ThreadPool.create(
    options.concurrency === undefined ? undefined : Math.min(4, options.concurrency),
  );
  // Files the cache cannot vouch for are hashed on the pool's threads while discovery runs (behind the
  // page parses), so the hash phase mostly finds its digests done.
  const hashing = new Map<string, Promise<FileDigest>>();
  const prehash = (files: ReadonlyMap<string, SiteFile>) => {
    // With a previous build's cache, the few changed files are hashed when a page needs them: hashing every
    // unreferenced file ahead (their digests are never kept) would cost more than the rebuild.
    if (cache.discover.warm) return;
    for (const f of files.values()) {
      if (isPage(f) || own.has(f.path)) continue;
      const send = /^(video|audio)\//.test(f.contentType) && f.bytes > partialThreshold ? partialThreshold : f.bytes;
      if (cache.digest(f.file, f, send)) continue;
      const p = pool.digest(f.file, send, {
        size: f.bytes,
        mtimeMs: f.mtimeMs,
        ...(f.ino !== undefined ? { ino: f.ino } : {}),
      });
      p.catch(() => undefined); // a file that vanished is reported when a page needs it
      hashing.set(f.file, p);
    }
  };
  let diagnostics: Diagnostic[];
  let pages: PlanPage[];
  let host: HostProfile;
  let projectConfigs: string[] = [];
  let hostRules: RedirectRule[] = [];
  let t: number;
  try {
    try {
      const discover = {
        origin: options.origin,
        base: options.base,
        exclude,
        cache: cache.discover,
        hashIgnore: registerTag(base),
        finalHtml: inject ? ('inject' as const) : ('plain' as const),
        onProgress: (done: number, total: number) => progress({ phase: 'discover', done, total }),
      };
      graph = await discoverWith(pool, root, discover, prehash);
      detected = options.base === undefined ? detectBase(graph) : undefined;
      if (detected !== undefined) {
        // Again under the base: closures resolve the pages' references there (parse results come from the cache).
        [base, own] = [detected, ownPaths(detected)];
        graph = await discoverWith(pool, root, { ...discover, base, hashIgnore: registerTag(base) });
      }
    } catch (err) {
      throw fromDiscoverError(err);
    }
    timings.discover = performance.now() - t0;
    const needed = new Set<string>();
    for (const page of graph.pages) for (const item of page.items) needed.add(graph.files.get(item.path)?.file ?? '');
    pool.dropDigests((file) => !needed.has(file));
    diagnostics = graph.diagnostics.filter(aboutSite);
    if (detected !== undefined) diagnostics.unshift(baseDetected(detected));
    if (graph.pages.length === 0) {
      throw new ObjpackError(ErrorCode.NO_PAGES, `no HTML pages in ${root}`);
    }

    t = performance.now();
    if (options.trace) {
      progress({ phase: 'trace', done: 0, total: graph.pages.length });
      diagnostics.push(
        ...(await traceClosures(root, graph, typeof options.trace === 'number' ? options.trace : undefined)).filter(
          aboutSite,
        ),
      );
    }
    timings.trace = performance.now() - t;

    t = performance.now();
    const siteHosts = await readHosts(root, {
      cleanUrls: options.cleanUrls,
      bareDirUrls: options.bareDirUrls,
      targets: options.targets,
    });
    diagnostics.push(...siteHosts.diagnostics);
    projectConfigs = siteHosts.projectConfigs;
    hostRules = siteHosts.redirects;
    const cleanUrls = options.cleanUrls ?? siteHosts.cleanUrls;
    // Pages that link to others by a URL only some hosts serve, and nothing said whether this one does: one warning each.
    // A host config with clean URLs at `/about/` decided it too: there `/about` is redirected.
    if (options.cleanUrls === undefined && !cleanUrls && !siteHosts.cleanSlashUrls) {
      const links = linking(graph.pages, 'cleanLinks');
      if (links) {
        const parts = { ...links, target: links.target.replace(/\.html$/, '') };
        diagnostics.push(warn(WarningCode.CLEAN_URL_LINKS, parts, { file: links.file }));
      }
    }
    if (options.bareDirUrls === undefined && !siteHosts.bareDirKnown) {
      const links = linking(graph.pages, 'bareDirLinks');
      if (links) {
        const parts = { ...links, link: links.target.slice(0, -1) };
        diagnostics.push(warn(WarningCode.BARE_DIR_LINKS, parts, { file: links.file }));
      }
    }
    const settled = settleHosts(
      siteHosts,
      { ...options, host: options.origin ? new URL(options.origin).host : undefined },
      graph.pages.map((p) => p.url),
    );
    diagnostics.push(...settled.diagnostics);
    host = settled.profile;
    pages = await preparePages(graph, {
      cache,
      inject,
      base,
      partialThreshold,
      concurrency: options.concurrency ?? 16,
      diagnostics,
      progress,
      hashing,
      pageHeaders: siteHosts.forPage,
    });
    timings.hash = performance.now() - t;
  } catch (err) {
    await pool.close();
    throw err;
  }

  t = performance.now();
  progress({ phase: 'plan', done: 0, total: 1 });
  const plan = planPackages(pages, { ...options, base });
  const packageUrls = [...plan.pages.map((p) => p.packageUrl), ...plan.shared.map((s) => s.url)];
  const ownUrls = { worker: workerAssets !== undefined, base, packages: packageUrls };
  diagnostics.push(...ownUrlShadows(hostRules, ownUrls, options.origin ? new URL(options.origin).host : undefined));
  timings.plan = performance.now() - t;

  t = performance.now();
  const html = pages
    .filter((p) => !inPlace || p.items[0]!.inject !== undefined)
    .map((p) => ({ rel: p.file, key: p.items[0]!.sri, load: () => htmlBody(p.items[0]!) }));
  // Before the report is rendered, which lists the warning.
  const keptWorker = workerAssets ? [] : await keepRegisteredWorker(graph, root, outDir, diagnostics, base);
  let summary: BuildSummary | undefined;
  // The pool stays up through the write phase: packages are encoded and written on its threads.
  const result = await emit({
    root,
    outDir,
    plan,
    copy: inPlace ? undefined : [...graph.files.values()],
    html,
    worker: workerAssets ? { assets: workerAssets, unregister: options.unregister === true } : undefined,
    cache,
    report:
      report === undefined
        ? undefined
        : {
            file: report,
            render: (manifest, hosts) => {
              summary = summarize(manifest, plan, graph, diagnostics);
              if (hosts.linkRules) summary.linkRules = hosts.linkRules;
              return renderReport(manifest, plan, summary, diagnostics);
            },
          },
    concurrency: options.concurrency,
    writer: pool,
    host,
    base,
    onFile: (_rel, done, total) => progress({ phase: 'write', done, total }),
  }).finally(() => pool.close());
  result.written.push(...keptWorker);
  timings.write = performance.now() - t;
  if (inPlace) rememberRewrittenPages(root, graph, new Set(result.written), cache, inject, base);
  await cache.save(outDir);
  const limits = (options.targets ?? []).includes('cloudflare')
    ? "8 KB and Cloudflare's 2,000-character lines"
    : '8 KB';
  for (const w of result.linkTruncated)
    diagnostics.push(warn(WarningCode.LINK_HEADER_TRUNCATED, { ...w, limits }, { ref: w.page }));
  diagnostics.push(...result.hostWarnings);
  // Vercel and firebase-tools read the project's config, not one inside the built site.
  for (const project of projectConfigs) {
    const name = path.basename(project) as 'vercel.json' | 'firebase.json';
    if (!(options.targets ?? []).includes(name === 'vercel.json' ? 'vercel' : 'firebase')) continue;
    diagnostics.push(warn(WarningCode.HOST_CONFIG_ELSEWHERE, { name, outDir, project }, { file: name }));
  }
  summary ??= summarize(result.manifest, plan, graph, diagnostics);
  if (result.linkRules) summary.linkRules = result.linkRules;
  summary.warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  summary.errors = diagnostics.filter((d) => d.severity === 'error').length;
  // A detected base is not in the fingerprint: the next build must detect it again, not patch this one.
  if (inPlace && detected === undefined) {
    const reportRel = report === undefined ? undefined : insideDir(root, report);
    const outputs = outputSignatures(root, [
      MANIFEST_FILE,
      ROUTES_FILE,
      ...(reportRel ? [reportRel] : []),
      PUSH_MANIFEST_FILE,
      NGINX_FILE,
      '_headers',
      'vercel.json',
      'firebase.json',
      WORKER_PATH.slice(1),
      REGISTER_PATH.slice(1),
    ]);
    const { basePath } = parseOrigin(options.origin, base);
    const state = captureState({
      outDir: root,
      basePath,
      base,
      fingerprint,
      graph,
      plan,
      manifest: result.manifest,
      summary,
      diagnostics,
      written: result.written,
      superseded: result.superseded,
      outputs,
    });
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
    ...(report !== undefined ? { report } : {}),
    pagesParsed: graph.pagesParsed,
    patched: false,
    timings,
  };
}

function fromDiscoverError(err: unknown): unknown {
  if (!(err instanceof DiscoverError)) return err;
  const code = reportedCode(err.code);
  // The discovery code says more than USAGE, but once: not `OBJPACK_E_USAGE: OBJPACK_E_BAD_ORIGIN: …`.
  return new ObjpackError(code, code === ErrorCode.USAGE ? err.message : `${err.code}: ${err.message}`, undefined, {
    cause: err,
  });
}

/** The pages' `cleanLinks`/`bareDirLinks` for one warning: how many, and the first page and link. */
function linking(pages: SiteGraph['pages'], kind: 'cleanLinks' | 'bareDirLinks') {
  const pagesWith = pages.filter((p) => (p[kind]?.length ?? 0) > 0);
  if (pagesWith.length === 0) return undefined;
  const first = pagesWith[0]!;
  const links = pagesWith.reduce((n, p) => n + p[kind]!.length, 0);
  return { links, pages: pagesWith.length, file: first.file, target: first[kind]![0]! };
}
