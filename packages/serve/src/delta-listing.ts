import { gzipSync } from 'node:zlib';
import { PACKAGE_DIR } from '@objpack/format';
import type { Context } from './context.js';
import { sendError, type Req, type Res } from './error-page.js';
import { MIN_COMPRESS } from './compress-cache.js';
import { negotiateEncoding } from './http-semantics.js';
import type { SiteManifest } from './site-manifest.js';

/**
 * What a service worker needs to ask for a delta package: each page package's objects in order, with
 * digest and type. The build's manifest has them, but a 10,000-page site's is 19 MB, too much for every
 * visitor's worker after each deploy; this answers for the packages asked (the pages a worker holds), and
 * for every page package at once while the whole listing is small.
 */
export const LISTING_PATH = `/${PACKAGE_DIR}/listing`;
/** Packages one request may name (`?p=` repeated). */
export const MAX_LISTED = 64;

type Row = [name: string, digest: string, contentType: string];

const stripQuery = (p: string) => {
  const q = p.indexOf('?');
  return q === -1 ? p : p.slice(0, q);
};

/** The whole site's listing per manifest, or null when it is over the size limit. */
const complete = new WeakMap<SiteManifest, string | null>();

function rows(site: SiteManifest, pkg: string): Row[] | undefined {
  const rec = site.manifest.packages[pkg];
  if (!rec || rec.kind !== 'page' || !Array.isArray(rec.objects)) return undefined;
  const out: Row[] = [];
  for (const name of rec.objects) {
    const o = typeof name === 'string' ? site.manifest.objects[stripQuery(name)] : undefined;
    if (o && typeof o.digest === 'string') out.push([name, o.digest, String(o.contentType)]);
  }
  return out;
}

/**
 * The listing's JSON: `{ buildId, complete, packages: { [package URL]: Row[] } }`. With `complete`, every page
 * package is in it (the worker asks no more for this build); else the asked ones that are page packages.
 */
export function listingBody(site: SiteManifest, query: string | undefined, maxCompleteBytes: number): string {
  let all = complete.get(site);
  if (all === undefined) {
    const packages: Record<string, Row[]> = {};
    for (const url of Object.keys(site.manifest.packages)) {
      const r = rows(site, url);
      if (r) packages[url] = r;
    }
    all = JSON.stringify({ buildId: site.manifest.buildId, complete: true, packages });
    if (Buffer.byteLength(all) > maxCompleteBytes) all = null;
    complete.set(site, all);
  }
  if (all !== null) return all;
  const packages: Record<string, Row[]> = {};
  for (const p of new URLSearchParams(query ?? '').getAll('p').slice(0, MAX_LISTED)) {
    const r = rows(site, p);
    if (r) packages[p] = r;
  }
  return JSON.stringify({ buildId: site.manifest.buildId, complete: false, packages });
}

/** Answers LISTING_PATH (only with dynamic packages on: it is what deltas need). */
export function sendListing(ctx: Context, req: Req, res: Res, query: string | undefined): void {
  const site = ctx.site.manifest;
  if (!site) {
    sendError(req, res, 404);
    return;
  }
  const json = Buffer.from(listingBody(site, query, ctx.o.listingBytes));
  // Names compress well and a complete listing can be a few hundred KB; gzip at level 1 costs ~1 ms per 100 KB.
  const gzip = json.length >= MIN_COMPRESS && negotiateEncoding(String(req.headers['accept-encoding'] ?? ''), { br: false, gzip: true }) === 'gzip';
  const body = gzip ? gzipSync(json, { level: 1 }) : json;
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    vary: 'accept-encoding',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}
