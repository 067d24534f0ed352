import { MANIFEST_FILE, PACKAGE_DIR, type BuildManifest } from '@objpack/format';
import type { Diagnostic } from './discover/types.js';
import type { HostTarget } from './hosts/index.js';
import { NGINX_FILE, PUSH_MANIFEST_FILE, REPORT_FILE } from './emit/output-files.js';
import type { WorkerAssets } from './emit/sw-assets.js';
import { REGISTER_PATH, WORKER_PATH } from './inject/inject.js';
import type { PackagePlan, PlanOptions } from './plan/types.js';
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
  /**
   * Cancels the build: checked between stages and in their long loops. An aborted build throws
   * OBJPACK_E_ABORTED and leaves the previous output whole: every file its manifest names is as it was.
   */
  signal?: AbortSignal;
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

/** The defaults of the options above that say "default n": the stages read them from here only. */
export const BUILD_DEFAULTS = {
  partialThreshold: 256 * 1024,
  concurrency: 16,
  /** The thread pool's width when `concurrency` is given is at most this (without it, the pool sizes itself). */
  poolThreads: 4,
} as const;

export const DEFAULT_PARTIAL_THRESHOLD = BUILD_DEFAULTS.partialThreshold;

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
