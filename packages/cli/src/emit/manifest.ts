import {
  MANIFEST_VERSION,
  UTF8_HTML,
  type BuildManifest,
  type FirebaseUrls,
  type HostHeaderRule,
  type HostRedirectRule,
  type HostRoute,
  type ManifestPackage,
  type PreloadEntry,
  type RouteTable,
} from '@objpack/format';
import type { PackagePlan } from '../plan/types.js';
import { packageFile } from './generation.js';

/** The URL without its query: the manifest's `objects` key. */
export const stripQuery = (url: string): string => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/** What the build learnt of the site's host, recorded in the manifest (and, but the headers, in the route table). */
export interface HostRecord {
  /** The URL path the host serves the site root at (`/repo/`); every URL of the plan lies under it. Default `/`. */
  base?: string;
  /** The site's host header rules, recorded in the manifest for `objpack serve`. */
  hostHeaders?: readonly HostHeaderRule[];
  /** Host rules that take URLs before the files (manifest `hostRedirects`, route table `redirects`). */
  hostRedirects?: readonly HostRedirectRule[];
  /** Every host redirect and rewrite `objpack serve` applies (manifest `hostRoutes`; not in the route table). */
  hostRoutes?: readonly HostRoute[];
  /** The host serves `/about.html` at `/about`. */
  cleanUrls?: boolean;
  /** The host serves `/about.html` at `/about/`. */
  cleanSlashUrls?: boolean;
  /** The host serves `/guide/index.html` at `/guide`. */
  bareDirUrls?: boolean;
  /** firebase.json's `cleanUrls`/`trailingSlash`, which `objpack serve` applies as superstatic looks files up. */
  firebaseUrls?: FirebaseUrls;
}

/** The build record (`objpack-manifest.json`) from the plan and what the writer reported for each package. */
export function buildManifest(
  plan: PackagePlan,
  buildId: string,
  written: ReadonlyMap<string, { bytes: number; digest: string; buildId?: string; url?: string }>,
  host: HostRecord = {},
): BuildManifest {
  const { base = '/', hostHeaders = [], hostRedirects = [], hostRoutes = [] } = host;
  const { cleanUrls = false, cleanSlashUrls = false, bareDirUrls = false, firebaseUrls } = host;
  const packages: Record<string, ManifestPackage> = {};
  /** Records the package planned at `url` under its file's URL (a page package's generation name), which it returns. */
  const record = (url: string, kind: 'page' | 'shared', objects: string[]): string => {
    const w = written.get(url)!;
    const at = w.url ?? url;
    packages[at] = { kind, file: packageFile(at), bytes: w.bytes, digest: w.digest, objects };
    // A page package kept from an earlier build still names that build in its index.
    if (kind === 'page' && w.buildId !== undefined && w.buildId !== buildId) packages[at].buildId = w.buildId;
    return at;
  };
  for (const s of plan.shared)
    record(
      s.url,
      'shared',
      s.objects.map((o) => o.url),
    );
  const pages: BuildManifest['pages'] = {};
  for (const p of plan.pages) {
    const at = record(
      p.packageUrl,
      'page',
      p.objects.map((o) => o.url),
    );
    pages[p.url] = {
      file: p.file,
      package: at,
      shared: p.shared,
      closure: p.closure.map((o) => o.url),
      ...(p.later ? { later: p.later.map((o) => o.url) } : {}),
      critical: p.critical,
      ...(p.preload && p.preload.length > 0 ? { preload: p.preload } : {}),
      ...(p.earlyHints && p.earlyHints.length > 0 ? { earlyHints: p.earlyHints } : {}),
      preconnect: p.crossOrigin,
    };
  }
  const objects: BuildManifest['objects'] = {};
  for (const o of plan.objects.values()) {
    objects[stripQuery(o.url)] ??= {
      file: o.rel,
      bytes: o.bytes,
      digest: o.sri,
      contentType: o.contentType,
      as: o.as,
      ...(o.headers && o.headers.length > 0 ? { headers: o.headers } : {}),
    };
  }
  return {
    version: MANIFEST_VERSION,
    buildId,
    ...(base !== '/' ? { base } : {}),
    pages,
    packages,
    objects,
    ...(hostHeaders.length > 0 ? { hostHeaders: [...hostHeaders] } : {}),
    ...(cleanUrls ? { cleanUrls: true as const } : {}),
    ...(cleanSlashUrls ? { cleanSlashUrls: true as const } : {}),
    ...(bareDirUrls ? { bareDirUrls: true as const } : {}),
    ...(firebaseUrls ? { firebaseUrls: { ...firebaseUrls } } : {}),
    ...(hostRedirects.length > 0 ? { hostRedirects: [...hostRedirects] } : {}),
    ...(hostRoutes.length > 0 ? { hostRoutes: [...hostRoutes] } : {}),
  };
}

/**
 * The manifest as written: `JSON.stringify(manifest, null, 2)` (patch-manifest.ts edits that layout), but
 * one line per host route: a migration's 50,000 redirects would otherwise take eight lines each, twice the bytes.
 */
export function manifestText(manifest: BuildManifest): string {
  const { hostRoutes, ...rest } = manifest;
  const text = JSON.stringify(rest, null, 2);
  if (!hostRoutes?.length) return `${text}\n`;
  return (
    `${text.slice(0, -2)},\n  "hostRoutes": ` +
    `[\n${hostRoutes.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]\n}\n`
  );
}

/** The compact table the service worker fetches: page → [page package, ...shared packages] as indices. */
export function routeTable(manifest: BuildManifest): RouteTable {
  const list = Object.keys(manifest.packages);
  const at = new Map(list.map((u, i) => [u, i]));
  const pages: RouteTable['pages'] = {};
  for (const [url, p] of Object.entries(manifest.pages))
    pages[url] = [at.get(p.package)!, ...p.shared.map((s) => at.get(s)!)];
  const table: RouteTable = {
    version: MANIFEST_VERSION,
    buildId: manifest.buildId,
    packages: list,
    pages,
    ...(manifest.cleanUrls ? { cleanUrls: true as const } : {}),
    ...(manifest.cleanSlashUrls ? { cleanSlashUrls: true as const } : {}),
    ...(manifest.bareDirUrls ? { bareDirUrls: true as const } : {}),
  };
  const packageBuilds: Record<string, string> = {};
  list.forEach((u, i) => {
    const id = manifest.packages[u]!.buildId;
    if (id !== undefined && id !== manifest.buildId) packageBuilds[String(i)] = id;
  });
  if (Object.keys(packageBuilds).length > 0) table.packageBuilds = packageBuilds;
  // Each URL once (pages share their CSS, fonts and modules), pages as indices into that list.
  const urls: PreloadEntry[] = [];
  const urlAt = new Map<string, number>();
  const preloadPages: Record<string, number[]> = {};
  for (const [url, p] of Object.entries(manifest.pages)) {
    if (!p.preload?.length) continue;
    preloadPages[url] = p.preload.map((h) => {
      const key = `${h[1]} ${h[2] ?? ''} ${h[0]}`;
      let i = urlAt.get(key);
      if (i === undefined) urlAt.set(key, (i = urls.push(h) - 1));
      return i;
    });
  }
  if (urls.length > 0) table.preload = { urls, pages: preloadPages };
  // What a worker answering early must send: the HTML entry's type where it is not UTF-8 HTML, and its
  // headers (pages of one site mostly share one list: each distinct list once).
  const htmlTypes: Record<string, string> = {};
  const sets: Array<Array<[string, string]>> = [];
  const setAt = new Map<string, number>();
  const headerPages: Record<string, number> = {};
  for (const url of Object.keys(manifest.pages)) {
    const html = manifest.objects[url];
    if (html && html.contentType !== UTF8_HTML) htmlTypes[url] = html.contentType;
    if (!html?.headers?.length) continue;
    const key = JSON.stringify(html.headers);
    let i = setAt.get(key);
    if (i === undefined) setAt.set(key, (i = sets.push(html.headers) - 1));
    headerPages[url] = i;
  }
  if (Object.keys(htmlTypes).length > 0) table.htmlTypes = htmlTypes;
  const objectCache = objectCacheRules(manifest.hostHeaders ?? []);
  if (objectCache.length > 0) table.objectCache = objectCache;
  if (sets.length > 0) table.htmlHeaders = { sets, pages: headerPages };
  if (manifest.hostRedirects?.length) {
    table.redirects = manifest.hostRedirects.map((r): NonNullable<RouteTable['redirects']>[number] =>
      r.host !== undefined || r.cleanOnly
        ? [
            r.match,
            r.flags,
            { ...(r.host !== undefined ? { host: r.host } : {}), ...(r.cleanOnly ? { clean: true as const } : {}) },
          ]
        : [r.match, r.flags],
    );
  }
  return table;
}

/** The host's `Cache-Control` rules for objects (RouteTable.objectCache): each rule that sets it, in file order. */
function objectCacheRules(rules: readonly HostHeaderRule[]): NonNullable<RouteTable['objectCache']> {
  const out: NonNullable<RouteTable['objectCache']> = [];
  for (const r of rules) {
    let value: string | undefined;
    for (const [name, v] of r.headers) if (name === 'cache-control') value = v;
    if (value !== undefined) out.push([r.match, r.flags ?? 'iu', value]);
  }
  return out;
}
