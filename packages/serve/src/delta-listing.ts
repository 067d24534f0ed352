import { gzipSync } from 'node:zlib';
import { PACKAGE_DIR } from '@objpack/format';
import type { Context } from './context.js';
import { sendError, type Req, type Res } from './error-page.js';
import { MIN_COMPRESS } from './compress-cache.js';
import { negotiateEncoding } from './http-semantics.js';
import type { SiteManifest } from './site-manifest.js';
import { stripQuery } from './url-path.js';

/**
 * What a service worker needs to ask for a delta package: each page package's objects in order, with
 * digest and type. The build's manifest has them, but a 10,000-page site's is 19 MB, too much for every
 * visitor's worker after each deploy; this answers for the packages asked (the pages a worker holds), and
 * for every page package at once while the whole listing is small.
 */
/** Its path for a site at `/`; under a base, the base's (`/repo/_objpack/listing`). */
export const LISTING_PATH = `/${PACKAGE_DIR}/listing`;
/** Packages one request may name (`?p=` repeated). */
export const MAX_LISTED = 64;

type Row = [name: string, digest: string, contentType: string];

/** The whole site's listing per manifest (and its gzip, made once), or null when it is over the size limit. */
const complete = new WeakMap<SiteManifest, { json: Buffer; gzip?: Buffer } | null>();

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
 * The listing: `{ buildId, complete, packages: { [package URL]: Row[] } }`, as JSON. With `complete`, every page
 * package is in it (the worker asks no more for this build); else the asked ones that are page packages.
 */
function listing(
  site: SiteManifest,
  query: string | undefined,
  maxCompleteBytes: number,
): { json: Buffer; gzip?: Buffer } {
  let all = complete.get(site);
  if (all === undefined) {
    all = completeListing(site, maxCompleteBytes);
    complete.set(site, all);
  }
  if (all !== null) return all;
  const packages: Record<string, Row[]> = {};
  for (const p of new URLSearchParams(query ?? '').getAll('p').slice(0, MAX_LISTED)) {
    const r = rows(site, p);
    if (r) packages[p] = r;
  }
  return { json: Buffer.from(JSON.stringify({ buildId: site.manifest.buildId, complete: false, packages })) };
}

/** Every page package's rows, given up as soon as they pass the limit (a 10,000-page site's would be MBs). */
function completeListing(site: SiteManifest, maxBytes: number): { json: Buffer } | null {
  const parts: string[] = [];
  let bytes = 0;
  for (const url of Object.keys(site.manifest.packages)) {
    const r = rows(site, url);
    if (!r) continue;
    const part = `${JSON.stringify(url)}:${JSON.stringify(r)}`;
    bytes += Buffer.byteLength(part) + 1;
    if (bytes > maxBytes) return null;
    parts.push(part);
  }
  const json = Buffer.from(
    `{"buildId":${JSON.stringify(site.manifest.buildId)},"complete":true,"packages":{${parts.join(',')}}}`,
  );
  return json.length > maxBytes ? null : { json };
}

/** Answers LISTING_PATH (only with dynamic packages on: it is what deltas need). */
export function sendListing(ctx: Context, req: Req, res: Res, query: string | undefined): void {
  const site = ctx.site.manifest;
  if (!site) {
    sendError(req, res, 404);
    return;
  }
  const answer = listing(site, query, ctx.o.listingBytes);
  const { json } = answer;
  // Names compress well and a complete listing can be a few hundred KB: gzipped once per build, level 1.
  const gzip =
    json.length >= MIN_COMPRESS &&
    negotiateEncoding(String(req.headers['accept-encoding'] ?? ''), { br: false, gzip: true }) === 'gzip';
  const body = gzip ? (answer.gzip ??= gzipSync(json, { level: 1 })) : json;
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
