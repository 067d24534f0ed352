import { MEDIA_TYPE } from '@objpack/format';
import type { ConnState } from './connections.js';
import type { Context } from './context.js';
import { assemblePackage, parseHave, type AssembledPackage } from './dynamic.js';
import { endWith, sendError, type Req, type Res } from './error-page.js';
import { isNotModified } from './http-semantics.js';
import { sendFile } from './send-file.js';
import type { PageInfo } from './site-manifest.js';
import { nameForHeader } from './url-path.js';
import { ServeErrorCode } from './errors.js';

/** Largest package assembled on the fly (bodies are held in memory while encoding). */
const MAX_DYNAMIC_BYTES = 64 * 1024 * 1024;

/** How the package was asked for; callers pass one of a few long-lived constants (they key a cache). */
export interface PackageRequest {
  /** Vary value for this URL (page URLs vary on Accept/X-Objpack too). */
  vary: string;
  /** Add `Content-Location: <package URL>` (the response stands for the page URL). */
  contentLocation: boolean;
}

/** Extra headers of a prebuilt package response, built once per (request kind, page). */
const prebuiltExtras = new Map<PackageRequest, WeakMap<PageInfo, Readonly<Record<string, string>>>>();

function prebuiltExtra(pr: PackageRequest, page: PageInfo): Readonly<Record<string, string>> {
  let byPage = prebuiltExtras.get(pr);
  if (!byPage) prebuiltExtras.set(pr, (byPage = new WeakMap()));
  let extra = byPage.get(page);
  if (!extra) {
    extra = {
      ...(pr.vary ? { vary: pr.vary } : {}),
      'cache-control': 'no-cache',
      ...(pr.contentLocation ? { 'content-location': nameForHeader(page.page.package) } : {}),
    };
    byPage.set(page, extra);
  }
  return extra;
}

/**
 * Answers with a page's package: the prebuilt file when it is current, otherwise (with `dynamic`) one
 * assembled from the current files; with `X-Objpack-Have`, a delta holding only what the client lacks.
 */
export function sendPackage(
  ctx: Context,
  req: Req,
  res: Res,
  page: PageInfo,
  conn: ConnState | undefined,
  pr: PackageRequest,
): void {
  const haveHeader = req.headers['x-objpack-have'];
  const have =
    ctx.o.dynamic && haveHeader !== undefined
      ? parseHave(Array.isArray(haveHeader) ? haveHeader.join(',') : haveHeader)
      : null;
  const stale = ctx.o.dynamic && ctx.site.stale.has(page);
  const route = ctx.site.index.routes.get(page.packagePath);
  const prebuilt = route && 'entry' in route ? route.entry : undefined;

  if (!stale && !(have && have.length > 0)) {
    if (!prebuilt) {
      sendError(req, res, 404);
      return;
    }
    ctx.stats.packages.prebuilt++;
    if (conn) ctx.tracker.packageSent(conn, page, ctx.site.manifest?.carried.get(page.packagePath) ?? []);
    sendFile(ctx, req, res, prebuilt, { headers: prebuiltExtra(pr, page) });
    return;
  }
  const location: Record<string, string> = pr.contentLocation
    ? { 'content-location': nameForHeader(page.page.package) }
    : {};

  const delta = !!have && have.length > 0;
  const key = `${ctx.site.index.generation}:${page.url}:${delta ? [...have].sort().join(',') : ''}`;
  const cached = ctx.packageCache.get(key);
  const send = (pkg: AssembledPackage) => {
    if (delta) ctx.stats.packages.delta++;
    else ctx.stats.packages.dynamic++;
    // A delta's receiver holds the rest already: the whole page package counts as delivered.
    if (conn) ctx.tracker.packageSent(conn, page, ctx.site.manifest?.carried.get(page.packagePath) ?? []);
    const inm = req.headers['if-none-match'];
    const headers: Record<string, string> = {
      'content-type': MEDIA_TYPE,
      etag: pkg.etag,
      'cache-control': delta ? 'private, no-cache' : 'no-cache',
      vary: delta || pr.vary.includes('X-Objpack-Have') ? pr.vary : `${pr.vary}, X-Objpack-Have`,
      'x-content-type-options': 'nosniff',
      'x-objpack-dynamic': delta ? 'delta' : 'full',
      ...location,
    };
    if (isNotModified(typeof inm === 'string' ? inm : undefined, undefined, [pkg.etag], 0)) {
      ctx.stats.notModified++;
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': String(pkg.bytes.length) });
    endWith(req, res, pkg.bytes);
  };
  if (cached) {
    send(cached);
    return;
  }
  const site = ctx.site;
  assemblePackage(page, site.manifest!, site.index.routes, delta ? have : null, MAX_DYNAMIC_BYTES)
    .then((pkg) => {
      ctx.stats.packages.assembled++;
      ctx.packageCache.set(key, { ...pkg, byteLength: pkg.bytes.length });
      send(pkg);
    })
    .catch((error) => {
      ctx.o.onLog({
        level: 'error',
        code: ServeErrorCode.DYNAMIC,
        message: `cannot assemble the package of ${page.url}`,
        path: page.url,
        error,
      });
      if (prebuilt && !stale) sendFile(ctx, req, res, prebuilt, { headers: prebuiltExtra(pr, page) });
      else sendError(req, res, 500);
    });
}
