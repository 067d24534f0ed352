import type { Http2ServerRequest } from 'node:http2';
import type { Socket } from 'node:net';
import type { ConnectionTracker, ConnState } from './connections.js';
import type { Context } from './context.js';
import { sendListing } from './delta-listing.js';
import { sendError, type Req, type Res } from './error-page.js';
import { matchRoute, patternsSafe, type RouteAnswer } from './host-routes.js';
import { reusableWithoutAsking, wantsPackage } from './http-semantics.js';
import { sendPackage, type PackageRequest } from './send-package.js';
import { sendFile } from './send-file.js';
import type { FileEntry } from './site-index.js';
import { ruleHeaders, type PageInfo } from './site-manifest.js';
import { encodePathForHeader, namePath, parseRequestPath } from './url-path.js';
import { firebaseRoute } from './firebase-urls.js';
import { ServeErrorCode } from './errors.js';

const PAGE_VARY = 'Accept, X-Objpack';
/** Package asked for on the page URL, and on its own URL (constants: they key cached response heads). */
const AS_PAGE: PackageRequest = { vary: `${PAGE_VARY}, X-Objpack-Have`, contentLocation: true };
const AS_FILE: PackageRequest = { vary: 'X-Objpack-Have', contentLocation: false };
/**
 * With `dynamic` off the answer does not depend on `X-Objpack-Have`; leaving it out of `Vary` also tells
 * the service worker not to send digests to a server that ignores them.
 */
const AS_PAGE_STATIC: PackageRequest = { vary: PAGE_VARY, contentLocation: true };
const AS_FILE_STATIC: PackageRequest = { vary: '', contentLocation: false };
const NOT_FOUND_EXTRA = { 'cache-control': 'no-cache' } as const;
/** Extra headers of a page's HTML response (host headers, Vary, Link), built once per index entry. */
const pageExtras = new WeakMap<FileEntry, Readonly<Record<string, string>> | null>();
/** The same for a page a host rewrite serves at another URL (no package there: no Vary for one). */
const rewrittenExtras = new WeakMap<FileEntry, Readonly<Record<string, string>> | null>();
/** Headers of error pages, one object per distinct set (see errorExtra). */
const errorExtras = new WeakMap<object, Map<string, Readonly<Record<string, string>>>>();
/** The host config's headers of any other site file, built once per index entry. */
const fileExtras = new WeakMap<FileEntry, Readonly<Record<string, string>> | null>();
/** A page's 103 Early Hints entries (see earlyLinks), built once per page of a loaded site. */
const earlyLinkLists = new WeakMap<PageInfo, string[]>();

/** The request listener: routing only; every answer is decided from the start-up index. */
export function createHandler(getCtx: () => Context): (req: Req, res: Res) => void {
  return (req, res) => {
    const ctx = getCtx();
    try {
      handle(ctx, req, res);
    } catch (error) {
      ctx.stats.errors++;
      ctx.o.onLog({ level: 'error', code: ServeErrorCode.READ, message: `failed to answer ${req.url ?? ''}`, error });
      sendError(req, res, 500);
    }
  };
}

const kTrack = Symbol('objpack.track');
type Tracked = Res & { [kTrack]?: { tracker: ConnectionTracker; state: ConnState } };

/** Shared 'close' listener (no closure per request): the response carries what it needs. */
function onResponseClose(this: Tracked): void {
  const t = this[kTrack];
  if (t) t.tracker.requestEnd(t.state);
}

function trackConnection(ctx: Context, req: Req, res: Res): ConnState | undefined {
  const socket = req.httpVersionMajor >= 2 ? (req as Http2ServerRequest).stream.session?.socket : req.socket;
  const state = socket && ctx.tracker.get(socket as Socket);
  if (!state) return undefined;
  ctx.tracker.requestStart(state);
  (res as Tracked)[kTrack] = { tracker: ctx.tracker, state };
  res.on('close', onResponseClose);
  return state;
}

/**
 * A page's extra headers; `negotiates`: the URL may answer with the page's package instead (its own URL, not
 * one a host rewrite serves it at), so the response varies on what asks for one.
 */
function pageExtra(
  ctx: Context,
  entry: FileEntry,
  page: PageInfo,
  negotiates = true,
): Readonly<Record<string, string>> | null {
  const cache = negotiates ? pageExtras : rewrittenExtras;
  let extra = cache.get(entry);
  if (extra === undefined) {
    // The host config's headers for this page (CSP, COOP/COEP…), as a host serving `_headers` sends them.
    // The page's own caching rules too; the fields it carries are the build's record, as the worker sends them.
    const x: Record<string, string> = {
      ...(ctx.site.manifest && ruleHeaders(ctx.site.manifest.hostRules, namePath(page.url) || page.url)),
      ...page.hostHeaders,
    };
    if (ctx.o.packages && negotiates) x.vary = entry.headers.vary ? `${entry.headers.vary}, ${PAGE_VARY}` : PAGE_VARY;
    if (ctx.o.earlyHints && page.links.length > 0) x.link = page.links.join(', ');
    extra = Object.keys(x).length > 0 ? x : null;
    cache.set(entry, extra);
  }
  return extra;
}

/**
 * A page's HTML with what comes with it: its extra headers, 103 Early Hints for its critical objects, its
 * closure warmed and counted for the connection.
 */
function sendPage(
  ctx: Context,
  req: Req,
  res: Res,
  entry: FileEntry,
  page: PageInfo,
  conn: ConnState | undefined,
  negotiates: boolean,
): void {
  const extra = pageExtra(ctx, entry, page, negotiates);
  const early = ctx.o.earlyHints ? earlyLinks(ctx, page) : [];
  // 1xx responses are undefined for HTTP/1.0 clients (RFC 9110 §15.2).
  if (early.length > 0 && req.method === 'GET' && (req.httpVersionMajor > 1 || req.httpVersionMinor >= 1)) {
    res.writeEarlyHints({ link: early });
    ctx.stats.earlyHints++;
  }
  if (ctx.o.prefetch > 0) ctx.prefetch.warm(closureEntries(ctx, page.closure));
  if (conn) ctx.tracker.pageSent(conn, page);
  sendFile(ctx, req, res, entry, extra ? { headers: extra } : undefined);
}

function handle(ctx: Context, req: Req, res: Res): void {
  ctx.stats.requests++;
  const conn = trackConnection(ctx, req, res);
  const h1 = req.httpVersionMajor < 2;
  if (conn?.overCap) {
    ctx.tracker.refused();
    sendError(req, res, 503, h1 ? { 'retry-after': '1', connection: 'close' } : { 'retry-after': '1' });
    if (!h1) (req as Http2ServerRequest).stream.session?.close();
    return;
  }
  if (h1 && ctx.tracker.closing) res.setHeader('connection', 'close');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendError(req, res, 405, { allow: 'GET, HEAD' });
    return;
  }
  const target = parseRequestPath(req.url);
  if (!target.ok) {
    sendError(req, res, target.status);
    return;
  }
  const { site } = ctx;
  // Above the base is another site on such a host (GitHub Pages' user site above a project site): not ours.
  if (!target.path.startsWith(site.basePath)) {
    if (`${target.path}/` === site.basePath) redirect(res, 301, site.base + (target.query ? `?${target.query}` : ''));
    else sendError(req, res, 404, NOT_FOUND_EXTRA);
    return;
  }
  if (target.path === site.listingPath && ctx.o.dynamic) {
    sendListing(ctx, req, res, target.query);
    return;
  }
  // A firebase.json with cleanUrls/trailingSlash: its file lookup, redirects included, instead of this server's
  // aliases.
  const firebase = site.manifest?.firebaseUrls;
  const route = firebase ? firebaseRoute(site.index.files, target.path, firebase) : site.index.routes.get(target.path);
  // The host's own redirects and rewrites come first, each as the host orders it against files.
  const router = site.manifest?.router;
  const hostRoute = router
    ? matchRoute(router, target.path, target.query, hostOf(req), route !== undefined)
    : undefined;
  if (hostRoute) {
    answerRoute(ctx, req, res, hostRoute, conn, target.path);
    return;
  }
  if (!route) {
    notFound(ctx, req, res, target.path);
    return;
  }
  if ('redirect' in route) {
    redirect(res, 301, encodePathForHeader(route.redirect) + (target.query ? `?${target.query}` : ''));
    return;
  }
  const entry = route.entry;
  const manifest = site.manifest;
  const page = manifest?.pages.get(target.path) ?? manifest?.pages.get(entry.urlPath);
  if (page && ctx.o.packages && wantsPackage(joined(req.headers.accept), joined(req.headers['x-objpack']))) {
    sendPackage(ctx, req, res, page, conn, ctx.o.dynamic ? AS_PAGE : AS_PAGE_STATIC);
    return;
  }
  const pkgPage = manifest?.byPackage.get(entry.urlPath);
  if (pkgPage) {
    sendPackage(ctx, req, res, pkgPage, conn, ctx.o.dynamic ? AS_FILE : AS_FILE_STATIC);
    return;
  }
  if (page) {
    sendPage(ctx, req, res, entry, page, conn, true);
    return;
  }
  if (conn) ctx.tracker.objectsSent(conn, manifest?.carried.get(entry.urlPath) ?? [entry.urlPath]);
  const extra = fileExtra(ctx, entry);
  sendFile(ctx, req, res, entry, extra ? { headers: extra } : undefined);
}

function redirect(res: Res, status: number, location: string): void {
  res.writeHead(status, {
    location: location.replace(/[\r\n]/g, ''),
    'content-length': '0',
    'cache-control': 'no-cache',
  });
  res.end();
}

const hostOf = (req: Req): string | undefined => {
  const h = req.headers.host ?? req.headers[':authority'];
  return typeof h === 'string' ? h.toLowerCase() : undefined;
};

/**
 * A host rule's answer: a redirect, or the file at the rewrite's path (following the `/dir` → `/dir/`
 * alias once) with the rule's status. A rewrite to a path with no file is a 404, as on the host. A 200
 * rewrite to a page serves it as that page (its host headers, `Link` preloads and 103 Early Hints, as the
 * page's own URL has them), but never its package: a package names the page's own URL and says where it
 * is (`Content-Location`), and this URL is another. The `Link` values are paths from the root, as the
 * page's own references must resolve for it to work at a URL in another directory.
 */
function answerRoute(
  ctx: Context,
  req: Req,
  res: Res,
  answer: RouteAnswer,
  conn: ConnState | undefined,
  path: string,
): void {
  if ('location' in answer) {
    redirect(res, answer.status, answer.location);
    return;
  }
  if ('hostOnly' in answer) {
    ctx.o.onLog({ level: 'debug', message: `${req.url ?? ''} is answered by a function or a proxy on the host: 502` });
    sendError(req, res, 502);
    return;
  }
  const target = parseRequestPath(answer.rewrite);
  let route = target.ok ? ctx.site.index.routes.get(target.path) : undefined;
  if (route && 'redirect' in route) route = ctx.site.index.routes.get(route.redirect);
  if (!route || !('entry' in route)) {
    notFound(ctx, req, res, path);
    return;
  }
  const { entry } = route;
  if (answer.status !== 200) {
    sendFile(ctx, req, res, entry, { status: answer.status, headers: errorExtra(ctx, path, false) });
    return;
  }
  const page = target.ok
    ? (ctx.site.manifest?.pages.get(target.path) ?? ctx.site.manifest?.pages.get(entry.urlPath))
    : undefined;
  if (page) {
    sendPage(ctx, req, res, entry, page, conn, false);
    return;
  }
  const extra = fileExtra(ctx, entry);
  sendFile(ctx, req, res, entry, extra ? { headers: extra } : undefined);
}

/**
 * The host config's headers for a site file; objpack's own directory (shared packages, the route table) keeps objpack's
 * caching.
 */
function fileExtra(ctx: Context, entry: FileEntry): Readonly<Record<string, string>> | null {
  const rules = ctx.site.manifest?.hostRules;
  if (!rules || rules.length === 0 || entry.urlPath.startsWith(ctx.site.ownDir)) return null;
  let extra = fileExtras.get(entry);
  if (extra === undefined) fileExtras.set(entry, (extra = ruleHeaders(rules, entry.urlPath)));
  return extra;
}

/**
 * The page's `Link` entries a 103 may carry: those whose file the browser may reuse from its HTTP cache
 * without asking. A 103's preloads are fetched by the browser into its HTTP cache, and the page's own
 * request uses that copy only while it is fresh: a file served `max-age=0, must-revalidate` (objpack's
 * default for site files) is asked for again, after the first fetch, so its 103 made it arrive one round
 * trip later (measured in Chromium 156). Those stay on the 200's `Link`, which follows at once from a static
 * file and whose preloads the page uses as they are.
 */
function earlyLinks(ctx: Context, page: PageInfo): string[] {
  let links = earlyLinkLists.get(page);
  if (links === undefined) {
    links = page.links.filter((_, i) => {
      const r = ctx.site.index.routes.get(page.linkPaths[i]!);
      if (!r || !('entry' in r)) return false;
      const own = fileExtra(ctx, r.entry);
      const rule = own && Object.entries(own).find(([k]) => k.toLowerCase() === 'cache-control')?.[1];
      return reusableWithoutAsking(rule ?? r.entry.headers['cache-control']);
    });
    earlyLinkLists.set(page, links);
  }
  return links;
}

const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v);

function* closureEntries(ctx: Context, paths: Iterable<string>) {
  for (const p of paths) {
    const r = ctx.site.index.routes.get(p);
    if (r && 'entry' in r) yield r.entry;
  }
}

/**
 * The site's 404 page for `path` (decoded URL path) when it has one, else this server's own, each with the
 * headers the host gives it there: a host's default 404 page carries the rules of the URL asked for too
 * (superstatic's headers middleware sets them on any response; Netlify and Vercel match them on the request).
 */
function notFound(ctx: Context, req: Req, res: Res, path: string): void {
  const custom = ctx.site.notFound;
  if (custom) {
    sendFile(ctx, req, res, custom, { status: 404, headers: errorExtra(ctx, path, true) });
    return;
  }
  sendError(req, res, 404, askedHeaders(ctx, path) ?? undefined);
}

/**
 * The host header rules of a URL asked for that has no file of its own (error pages): objpack's directory
 * keeps objpack's answers, and pattern rules are not run on a path patternsSafe refuses, any URL being one.
 */
function askedHeaders(ctx: Context, path: string): Record<string, string> | null {
  const rules = ctx.site.manifest?.hostRules;
  if (!rules || rules.length === 0 || path.startsWith(ctx.site.ownDir)) return null;
  return ruleHeaders(rules, path, patternsSafe(path));
}

/**
 * Headers of an error page served at `path`: the host's rules for the URL asked for, as all three hosts
 * match them on the request (a rule written for the page's own path, `/404.html`, does not reach `/x` on
 * Netlify or Vercel). Firebase's custom 404 page (`errorPage`) also gets its rules for `/404.html`, under
 * those of the URL: superstatic's missing.js sets them, and the headers middleware's, registered earlier,
 * run after it (on-headers calls listeners last-registered first). The site's own Cache-Control wins over
 * this server's `no-cache`, as the host sends it.
 */
function errorExtra(ctx: Context, path: string, errorPage: boolean): Readonly<Record<string, string>> {
  const m = ctx.site.manifest;
  if (!m || m.hostRules.length === 0) return NOT_FOUND_EXTRA;
  const own =
    errorPage && m.errorPageRules.length > 0 && ctx.site.notFound
      ? ruleHeaders(m.errorPageRules, ctx.site.notFound.urlPath)
      : null;
  const asked = askedHeaders(ctx, path);
  if (!own && !asked) return NOT_FOUND_EXTRA;
  const extra = { ...NOT_FOUND_EXTRA, ...own, ...asked };
  // One object per distinct set (response heads are cached under its identity): as many as the rules make, not one per
  // URL.
  let sets = errorExtras.get(m);
  if (!sets) errorExtras.set(m, (sets = new Map()));
  const key = JSON.stringify(extra);
  const known = sets.get(key);
  if (known) return known;
  sets.set(key, extra);
  return extra;
}
