/**
 * The site graph discovery hands to the planner. URL fields are as the browser requests them
 * (percent-encoded, query kept); `path` fields are decoded URL paths without query and key `SiteGraph.files`.
 */
import type { PreloadAs, PreloadCors } from '@objpack/format';
import type { PageExtract } from './page-extract.js';

export type { PreloadAs };

/** A servable file of the site. */
export interface SiteFile {
  /** Decoded URL path without query: '/assets/app.css' (includes the origin's base path, if any). */
  path: string;
  /** Absolute file path. */
  file: string;
  /** Path relative to the site root, '/'-separated: 'assets/app.css'. */
  rel: string;
  bytes: number;
  mtimeMs: number;
  /** Inode number: with size and mtime, the key under which cached digests and parse results are reused. */
  ino?: number;
  contentType: string;
}

/** One object of a page's closure. */
export interface ClosureItem {
  /** URL path with query as the browser requests it: '/app.css?v=3'. */
  url: string;
  /** Decoded URL path without query; a key of `SiteGraph.files`. */
  path: string;
  as: PreloadAs;
  /** Render-blocking: CSS, sync scripts, fonts used by critical CSS. */
  critical: boolean;
  /** URL path of the referrer (the page, a stylesheet or a module). */
  from: string;
  /** Line of the reference in the referrer (for HTML, the line where the tag ends). */
  line?: number;
  /**
   * Set when a browser may legitimately not request the object on a first load, with the reason:
   * 'srcset-candidate', 'lazy', 'media-query', 'track', 'media', 'icon', 'alternate-stylesheet' (still
   * in the critical tier: a first load may fetch them), or a later-tier reason (tiers.ts LaterReason:
   * 'dynamic-import', 'other-density', 'unused-face', 'icon-variant', 'manifest'), which keeps the object
   * out of the page's packages. Either way it stays in the closure. `inCriticalTier(item)` decides.
   */
  conditional?: string;
  /** Added by `tracePages`: the browser requested it but static analysis did not find it. */
  traced?: boolean;
  /**
   * The `crossorigin` state of the HTML element that names the object (stylesheet, script, module,
   * preload): its request is CORS, so a `Link` preload of it must say so or the browser fetches twice.
   */
  cors?: PreloadCors;
  /**
   * How a script is requested, where the reference says: `classic` (`<script src>` without `type=module`,
   * `<link rel=preload as=script>`) or `module` (module scripts, `modulepreload`, imports). A preload of it
   * must be in that mode or the browser fetches twice; one not known (a trace found it) is not announced.
   */
  script?: 'classic' | 'module';
}

/** A page and the objects it needs, in package order. */
export interface PageClosure {
  /** '/', '/guide/', '/about.html' */
  url: string;
  /** Site-relative HTML file. */
  file: string;
  /** Package order; items[0] is the HTML itself. */
  items: ClosureItem[];
  /** Same-origin pages loaded in iframes (page URLs). */
  iframes: string[];
  /** Same-origin `<a href>`/`<area href>` targets that are pages (page URLs). */
  links: string[];
  /** Pages of `links` the page names without `.html` (`/about` for about.html): the host must serve clean URLs. */
  cleanLinks?: string[];
  /** Directory pages of `links` the page names without their slash (`/guide` for guide/index.html). */
  bareDirLinks?: string[];
  /** Cross-origin hosts the page uses (objects, preconnect, iframes), for `preconnect` hints. */
  crossOrigin: string[];
  /** `<link rel=prefetch>` targets (local URLs): for the next page, not part of this closure. */
  prefetch: string[];
  /**
   * The page's stylesheets declare `@font-face` subsets with a `unicode-range`: which of them the closure
   * carries depends on the page's characters (an edit that brings new ones may change it).
   */
  fontsByChars?: boolean;
}

export interface Diagnostic {
  code: string;
  /** `info` says what the build decided for the site (OBJPACK_W_BASE_DETECTED); it is no warning. */
  severity: 'info' | 'warning' | 'error';
  message: string;
  /** Site-relative file holding the problem. */
  file?: string;
  line?: number;
  column?: number;
  /** The reference as written. */
  ref?: string;
}

/** Per-file parse results keyed by content hash, so an incremental rebuild re-parses only changed files. */
export interface DiscoverCache {
  get(hash: string): unknown;
  set(hash: string, value: unknown): void;
  /** True when the cache holds a previous build's results (worth hashing a file to look it up). */
  readonly warm?: boolean;
}

export interface DiscoverOptions {
  /** 'https://example.com' (optionally with a base path): absolute URLs on it are local. */
  origin?: string;
  /** The URL path the site root is served at ('/repo/', as checkBasePath spells it); default: the origin's path. */
  base?: string;
  /** Site-relative paths or directories to skip, e.g. the output directory. */
  exclude?: string[];
  onProgress?(done: number, total: number): void;
  /** Once aborted, no further page is parsed: the graph comes back partial, for a caller that stops anyway. */
  signal?: AbortSignal;
  cache?: DiscoverCache;
  /**
   * Threads, counting the calling one, which resolves references while the others parse HTML
   * (default: cores + 1, at most 5; 1 = parse on the calling thread). Small rebuilds stay on one thread.
   */
  concurrency?: number;
  /**
   * Markup to leave out of pages' content hashes (the build's registration tag), so injecting it keeps the cache valid.
   */
  hashIgnore?: string;
  /**
   * Also digest the HTML the build will ship for each parsed page (see finalHtml, under `base`), into
   * `SiteGraph.finals`.
   */
  finalHtml?: 'inject' | 'plain';
}

/** A page's final HTML (see finalHtml) as discovery read it: `source` bytes read, `bytes` of final HTML. */
export interface PageFinal {
  sha256: string;
  bytes: number;
  source: number;
  changed: boolean;
  /** The page's `Content-Type` (see htmlContentType). */
  type: string;
}

export interface SiteGraph {
  root: string;
  /** Every servable file, by decoded URL path. */
  files: Map<string, SiteFile>;
  pages: PageClosure[];
  diagnostics: Diagnostic[];
  /** Content hash of each page's bytes as discovery parsed them, by site-relative file (with a cache only). */
  pageHashes: Map<string, string>;
  /** Pages this run parsed (the rest came from the cache). */
  pagesParsed: number;
  /** The file walk's own warnings (unreadable directories, escaping symlinks…), for incremental builds. */
  walkDiagnostics?: Diagnostic[];
  /** Each page's parse result (by site-relative file), for incremental builds to compare an edited page with. */
  extracts?: Map<string, PageExtract>;
  /** With `finalHtml`: each parsed page's final HTML digest, by site-relative file. */
  finals?: Map<string, PageFinal>;
}
