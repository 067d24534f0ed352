/**
 * What `objpack build` writes and `objpack serve` / the service worker read. Lives here (no I/O) because
 * it is the contract between the three packages: the server and the worker never import the build.
 *
 * Files a build writes into the site root:
 * - `objpack-manifest.json`  — {@link BuildManifest}, the full record (written last: its presence means
 *   every file it names is complete).
 * - `_objpack/routes.json`   — {@link RouteTable}, the compact table the worker fetches at install/update.
 * - `_objpack/pages/<page file>.<build id>.objp` — one page package per HTML page (`/guide/index.html` →
 *   `/_objpack/pages/guide/index.html.<build id>.objp`), named for the build id its index carries: a
 *   build never writes over a package a published route table names; revalidated on every use.
 * - `_objpack/shared/<16 hex>.objp` — shared packages named by content hash; immutable.
 */

export const MANIFEST_FILE = 'objpack-manifest.json';
export const ROUTES_FILE = '_objpack/routes.json';
export const PACKAGE_DIR = '_objpack';
export const MANIFEST_VERSION = 1;

/** How a browser would request the object, for `Link: rel=preload; as=…`. */
export type PreloadAs = 'document' | 'style' | 'script' | 'font' | 'image' | 'fetch' | 'audio' | 'video' | 'track';

export interface ManifestObject {
  /** File path relative to the site root, '/'-separated. */
  file: string;
  bytes: number;
  /** `sha256-<base64>` (the Subresource Integrity spelling). */
  digest: string;
  contentType: string;
  as: PreloadAs;
  /**
   * Pages only: the response headers the site's host config gives the page (CSP, COOP/COEP…), as carried in its
   * package.
   */
  headers?: Array<[string, string]>;
}

export interface ManifestPage {
  /** HTML file relative to the site root (`guide/index.html`). */
  file: string;
  /** URL path of this page's package. */
  package: string;
  /** URL paths of the shared packages the page needs, in the order the worker should fetch them. */
  shared: string[];
  /** The page's closure in package order: URL paths (query kept), HTML first; its critical tier only. */
  closure: string[];
  /**
   * The closure's later tier: objects the page may need after an interaction or on another display
   * (dynamic imports, other densities…), in no package; the browser fetches them if the page asks.
   */
  later?: string[];
  /** Render-critical objects, for Link preload / 103 Early Hints, in order. */
  critical: Array<{ path: string; as: PreloadAs; cors?: PreloadCors }>;
  /**
   * What the service worker announces in a `Link` header when it answers this page: objects the browser
   * would find only after parsing CSS, `@import`s or modules (the route table's `preload`, see there).
   */
  preload?: PreloadEntry[];
  /**
   * What a host announces for this page when no worker answers it (a first visit), in `Link` on the page's
   * response and in 103 Early Hints: render-blocking CSS with its `@import`s and fonts, synchronous
   * scripts, every static import of its modules (`module`) and the images of render-blocking CSS, so the
   * browser fetches the whole render path at once. Absent in manifests of older builds: `critical` then.
   */
  earlyHints?: PreloadEntry[];
  /** Cross-origin hosts the page uses (for preconnect). */
  preconnect: string[];
}

export interface ManifestPackage {
  kind: 'page' | 'shared';
  /** File path relative to the site root. */
  file: string;
  bytes: number;
  digest: string;
  /** URL paths carried, in delivery order. */
  objects: string[];
  /**
   * Build id in the package's own index, when it differs from the manifest's `buildId`: an incremental build
   * keeps an unchanged page package byte for byte, so it still names the build that wrote it.
   */
  buildId?: string;
}

/**
 * A rule of the site's host config (`_headers`, `netlify.toml` `[[headers]]`) as the build read it, for a
 * server that applies them to every file: `match` is the RegExp source (flags `iu`) Netlify's parser made
 * of the `for` path, `headers` the rule's valid fields (names in lower case).
 */
export interface HostHeaderRule {
  for: string;
  match: string;
  /** RegExp flags of `match`; absent means 'iu' (Netlify's rules). */
  flags?: string;
  headers: Array<[string, string]>;
  /**
   * The host also matches the rule against its custom 404 page's own path (`/404.html`) when it serves that
   * page for a missing URL, under the rules of the URL asked for (firebase.json: superstatic's missing.js).
   * Absent: the requested URL's rules alone apply there (`_headers`, vercel.json).
   */
  errorPage?: true;
}

/**
 * Firebase Hosting's `cleanUrls` and `trailingSlash` (firebase.json), which the host applies in its file
 * lookup, not as rules: after `hostRoutes` redirects, before rewrites, and only to URLs that name a file.
 */
export interface FirebaseUrls {
  cleanUrls?: true;
  trailingSlash?: boolean;
}

export interface BuildManifest {
  version: typeof MANIFEST_VERSION;
  /** Content hash of the whole build: changes whenever any package changes. */
  buildId: string;
  /**
   * The URL path the site root is served at (`/repo/`, base-path.ts), when not `/`: every URL path here (pages,
   * packages, objects) lies under it, and a server serves the site there.
   */
  base?: string;
  /** Page URL paths (`/`, `/guide/`, `/about.html`) to their record. */
  pages: Record<string, ManifestPage>;
  /** Package URL paths to their record. */
  packages: Record<string, ManifestPackage>;
  /** Object URL paths (without query) to their record. */
  objects: Record<string, ManifestObject>;
  /** The site's own host header rules, in file order (a later rule's value wins); absent when none. */
  hostHeaders?: HostHeaderRule[];
  /** The host serves `/about.html` at `/about` too (RouteTable.cleanUrls); absent when not. */
  cleanUrls?: true;
  /** The host serves `/about.html` at `/about/` too (RouteTable.cleanSlashUrls); absent when not. */
  cleanSlashUrls?: true;
  /** The host serves `/guide/index.html` at `/guide` too (RouteTable.bareDirUrls); absent when not. */
  bareDirUrls?: true;
  /**
   * The site is hosted by Firebase (a firebase.json applies), with its `cleanUrls` and `trailingSlash` as set
   * (`{}` for neither): a server looks files up as superstatic's files middleware does (redirecting
   * `/about.html` to `/about`, `/guide` to `/guide/` or back) instead of its own aliases; absent otherwise.
   */
  firebaseUrls?: FirebaseUrls;
  /**
   * URL patterns the host answers before its files (RouteTable.redirects), with where each comes from; absent when
   * none.
   */
  hostRedirects?: HostRedirectRule[];
  /**
   * The host's redirect and rewrite rules with what a server needs to answer as the host does (HostRoute),
   * in the order the host tries them; absent when none. The request's query is passed on to a redirect's destination
   * (all three hosts do), except past a rule with `query` conditions. Unlike `hostRedirects` (only the rules that take
   * a page, for the worker), every rule a static server can apply; rules that need the host itself
   * (functions, proxies, country or cookie conditions) are left out.
   */
  hostRoutes?: HostRoute[];
}

/**
 * One host redirect or rewrite for a server: `[match, to, status]` plus options when any. `match` is a
 * RegExp source tested against the decoded URL path; `to` the destination, where `$1`… and `${name}` stand
 * for the match's groups and `$$` for `$`. A 3xx status redirects to `to` (a path, or an `http(s)://` URL
 * the rule names itself); 200 or 404 serves the file at path `to` with that status (a rewrite); 502, with
 * `to` empty, is a URL the host answers with a function or a proxy: a static server answers 502 there
 * rather than letting a later rule (a single-page fallback) or nothing answer.
 */
export type HostRoute =
  [match: string, to: string, status: number] | [match: string, to: string, status: number, options: HostRouteOptions];

/** What narrows a HostRoute; every field is optional so that the common one-path redirect stays short. */
export interface HostRouteOptions {
  /** RegExp flags of `match`; absent means 'i'. */
  flags?: string;
  /** A file at the URL wins over the rule (Netlify's unforced rules, Vercel and Firebase rewrites). */
  shadowed?: true;
  /** The rule applies on this host only (`host[:port]`, lower case). */
  host?: string;
  /**
   * The rule does not apply to a path this RegExp source (same flags) matches (Vercel routes that let files answer).
   */
  unless?: string;
  /**
   * Query parameters the request must carry (Netlify `/store id=:id`): name and value, where a value
   * `:name` takes any value and binds `${name}` in `to`. With these the request's query is not passed on.
   */
  query?: Array<[name: string, value: string]>;
  /**
   * Groups of `match` the rule needs: one named here (`1`, `name`) with `true` must have matched something
   * not empty, with `false` must have taken no part in the match; else the rule does not answer and the next
   * one is tried (Firebase `regex` redirects, whose destination superstatic cannot fill otherwise).
   */
  groups?: Record<string, boolean>;
}

/**
 * A host rule that redirects (or rewrites) URLs before the host looks at files: `_redirects`, vercel.json,
 * firebase.json.
 */
export interface HostRedirectRule {
  /** The config file, and the rule's source pattern as written there. */
  file: string;
  for: string;
  /** RegExp source matched against a URL path, and its flags. */
  match: string;
  flags: string;
  /** The rule applies on this host only (`host[:port]`, lower case). */
  host?: string;
  /** The rule applies only where the host finds no file: to a page at its clean URL (`/about`) only. */
  cleanOnly?: true;
}

/** Where a route table redirect applies: on one host only, and/or only to clean URLs (see HostRedirectRule). */
export interface RedirectScope {
  host?: string;
  clean?: true;
}

/** Compact page → packages table for the service worker (indices into `packages`). */
/** The type of a UTF-8 page's HTML entry: what a worker may send before the entry arrives (else `htmlTypes`). */
export const UTF8_HTML = 'text/html; charset=utf-8';

export interface RouteTable {
  version: typeof MANIFEST_VERSION;
  buildId: string;
  packages: string[];
  /** Page URL path → [page package index, ...shared package indices]. */
  pages: Record<string, number[]>;
  /**
   * Package index (as a string) → the build id in that page package's own index, listed only where it
   * differs from `buildId` (a package kept byte for byte from an earlier build). A page package whose index
   * names any other build than this one (or `buildId`) comes from a deploy newer than the table.
   */
  packageBuilds?: Record<string, string>;
  /**
   * Objects the worker announces in a `Link` header when it answers a page's navigation, so that the browser
   * asks for them at once instead of after parsing the CSS, its `@import`s and the module graph. `urls`
   * lists each object once (URL path with query, and how the page requests it: a {@link PreloadAs} or
   * `module` for `rel=modulepreload`, and the element's `crossorigin` state when it had one); `pages` maps
   * a page URL path to indices into `urls`, in order.
   */
  preload?: { urls: PreloadEntry[]; pages: Record<string, number[]> };
  /**
   * The `Cache-Control` the site's host config gives objects (pages carry theirs in their packages):
   * `[match, flags, value]`, the RegExp source and flags of each rule of {@link BuildManifest.hostHeaders}
   * that sets it, tested on the URL path, in file order, a later match winning. The worker sends it with the
   * objects it answers, so that the browser reuses them on the next page as long as the host allows, as it
   * would without objpack; without it an answer is stale at once, and every page asks the worker again.
   */
  objectCache?: Array<[match: string, flags: string, value: string]>;
  /**
   * Page URL path → the `Content-Type` of its HTML entry, listed only where it is not
   * `text/html; charset=utf-8` (a page in a legacy encoding goes out as `text/html`): a worker that answers
   * navigations before the package's index arrives needs it to send the right headers.
   */
  htmlTypes?: Record<string, string>;
  /**
   * The response headers of pages whose HTML entry carries any (from the site's `_headers`): `sets` lists
   * each distinct list once, `pages` maps a page URL path to its index. An early answer sends them.
   */
  htmlHeaders?: { sets: Array<Array<[string, string]>>; pages: Record<string, number> };
  /**
   * The host serves a page `/about.html` at `/about` as well ("clean URLs": Netlify, Cloudflare Pages, GitHub
   * Pages, Vercel/Firebase `cleanUrls`, objpack serve), so a navigation to `/about` is that page: same
   * document, same directory for its relative URLs. Absent: only the page's own URL is looked up.
   */
  cleanUrls?: true;
  /**
   * The host serves a page `/about.html` at `/about/` (Vercel's and Firebase's `cleanUrls` with
   * `trailingSlash: true`, which redirect `/about` and `/about.html` there), so a navigation to `/about/` is
   * that page unless a page `/about/` exists. Its relative URLs resolve against `/about/` there, as they do
   * on that host. Absent: `/about/` is only the directory's page.
   */
  cleanSlashUrls?: true;
  /**
   * The host serves a directory's page `/guide/` (guide/index.html) at `/guide` as well, without redirecting
   * to `/guide/` (Vercel unless `trailingSlash: true`; Firebase with `trailingSlash: false`, or `cleanUrls`
   * and no `trailingSlash`), so a navigation to `/guide` is that page. Where a host redirects `/guide` to
   * `/guide/` (Netlify, Cloudflare Pages, GitHub Pages, nginx, objpack serve) it is absent: the page at
   * `/guide` would resolve its relative URLs against `/` instead. With `cleanUrls` too, a path that names
   * both `/guide.html` and `/guide/` is left to the network.
   */
  bareDirUrls?: true;
  /**
   * URL paths the host does not answer from the site's files (it redirects them, or a forced rewrite takes
   * them: `_redirects`, vercel.json `redirects`/`cleanUrls`/`trailingSlash`, firebase.json `redirects`…), as
   * RegExp sources and flags. A navigation whose path (as sent, or percent-decoded) matches one is left to
   * the network even when it names a page, so the host's redirect happens as without objpack. A third
   * element narrows the rule (RedirectScope): to one host, or to clean URLs (`/about` for about.html).
   */
  redirects?: Array<[match: string, flags: string] | [match: string, flags: string, scope: RedirectScope]>;
}

/**
 * How a page requests a preloaded object: a `Link: rel=preload` destination, `module` (`rel=modulepreload`), or
 * `chunk`: a classic script another script inserts (webpack's route chunks), which the browser fetches at low
 * priority (`rel=preload; as=script; fetchpriority=low`).
 */
export type PreloadHint = PreloadAs | 'module' | 'chunk';

/**
 * The CORS mode of the element that requests an object (its `crossorigin` attribute): `anonymous` for
 * `crossorigin` / `crossorigin=anonymous` / any other value, `use-credentials`; absent without the attribute.
 */
export type PreloadCors = 'anonymous' | 'use-credentials';

/** One announced object: URL path with query, how the page requests it, and the element's CORS mode if any. */
export type PreloadEntry = [url: string, hint: PreloadHint] | [url: string, hint: PreloadHint, cors: PreloadCors];
