import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  checkBasePath,
  MANIFEST_FILE,
  isAnnounced,
  isCarriedHeader,
  isHeaderValue,
  joinLinkValue,
  preloadLinkEntry,
  RuleIndex,
  type BuildManifest,
  type FirebaseUrls,
  type ManifestPage,
  type PreloadCors,
} from '@objpack/format';
import { ServeError, ServeErrorCode } from './errors.js';
import { hostRouter, patternsSafe, type HostRouter } from './host-routes.js';
import { nameForHeader, namePath, pathName } from './url-path.js';

/** A page of the manifest, with what requests need precomputed. */
export interface PageInfo {
  /** Page URL path from the manifest (`/guide/`). */
  url: string;
  page: ManifestPage;
  /** URL path of the HTML file (`/guide/index.html`). */
  htmlPath: string;
  /** Validated `Link` values for 103 Early Hints and the 200 response. */
  links: string[];
  /** The decoded URL path each of `links` names, in the same order. */
  linkPaths: string[];
  /**
   * Site paths (decoded, no query, as the index keys them) of the closure, HTML excluded: what a connection must be
   * sent.
   */
  closure: ReadonlySet<string>;
  /** Site path of the page's package (`/_objpack/pages/[slug].html.objp` for `…/%5Bslug%5D.html.objp`). */
  packagePath: string;
  /** Objects the page package carries, in order (from the manifest's package record). */
  packageObjects: readonly string[];
  /**
   * The response headers the site's host config gives the page (`_headers`, `netlify.toml`: CSP,
   * COOP/COEP…), as the build recorded them for its HTML entry; null when none.
   */
  hostHeaders: Readonly<Record<string, string>> | null;
}

/** A host config rule (`_headers`, `netlify.toml`) as this server applies it to site files. */
export interface HostRule {
  re: RegExp;
  headers: ReadonlyArray<readonly [string, string]>;
  /** The host matches it against its custom 404 page's path too (HostHeaderRule.errorPage). */
  errorPage?: true;
}

export interface SiteManifest {
  manifest: BuildManifest;
  /** The base path the site is served under (the one asked for, else the manifest's `base`, else `/`). */
  base: string;
  /** The site's host header rules, in order (empty for a manifest without them). */
  hostRules: readonly HostRule[];
  /** The site's host redirects and rewrites (manifest `hostRoutes`); null for a manifest without them. */
  router: HostRouter | null;
  /** The rules the host also matches against its custom 404 page's own path (firebase.json's). */
  errorPageRules: readonly HostRule[];
  /**
   * firebase.json's `cleanUrls`/`trailingSlash` when the manifest records them (files are looked up as superstatic
   * does).
   */
  firebaseUrls: FirebaseUrls | null;
  /** Page by page URL and by HTML file URL. */
  pages: Map<string, PageInfo>;
  /** Page by its package's site path (decoded). */
  byPackage: Map<string, PageInfo>;
  /** Objects carried by each package (page and shared), names as in the manifest. */
  packageObjects: Map<string, readonly string[]>;
  /**
   * Per package site path: itself plus its objects' site paths, for closure tracking (decoded, as PageInfo.closure).
   */
  carried: Map<string, readonly string[]>;
}

/**
 * `Link: </a.css>; rel=preload; as=style`, with the element's `crossorigin` state. `path` is a manifest name,
 * percent-encoded as the page requests it: its escapes are kept (the preload must be for that URL), what else
 * is not printable ASCII is encoded, so no CR/LF can reach the header; kinds that are never announced and
 * unsafe paths give null.
 */
export function preloadLink(path: string, as: string, cors?: unknown): string | null {
  if (!isAnnounced(as) || typeof path !== 'string') return null;
  let url: string;
  try {
    url = nameForHeader(path);
  } catch {
    return null; // lone surrogate: not a URL at all
  }
  const mode: PreloadCors | undefined = cors === 'anonymous' || cors === 'use-credentials' ? cors : undefined;
  return preloadLinkEntry(url, as, mode) ?? null;
}

/**
 * The `Link` entries of a page's 103 and 200: its render path as the build recorded it (`earlyHints`), or
 * its critical objects from a build that did not; at most 8,000 bytes together (`joinLinkValue`), cut at a
 * whole entry, as hosts and proxies cap a header there.
 */
function pageLinks(page: ManifestPage): { links: string[]; linkPaths: string[] } {
  const hints: Array<{ path: unknown; as: unknown; cors?: unknown }> = Array.isArray(page.earlyHints)
    ? page.earlyHints.filter(Array.isArray).map(([path, as, cors]) => ({ path, as, cors }))
    : page.critical;
  const links: string[] = [];
  const linkPaths: string[] = [];
  for (const c of hints) {
    const l = c && typeof c.path === 'string' ? preloadLink(c.path, String(c.as), c.cors) : null;
    if (l) {
      links.push(l);
      linkPaths.push(namePath(c.path as string));
    }
  }
  const { used } = joinLinkValue(links);
  return { links: links.slice(0, used), linkPaths: linkPaths.slice(0, used) };
}

/**
 * A page's recorded host headers as response headers: names and values checked again (the manifest is a
 * file on disk), headers this server sets itself left out, repeated names joined as a list (RFC 9110 §5.3).
 */
export function hostHeaders(recorded: unknown): Readonly<Record<string, string>> | null {
  if (!Array.isArray(recorded)) return null;
  const out = new Map<string, string>();
  for (const h of recorded as unknown[]) {
    if (!Array.isArray(h) || h.length !== 2) continue;
    const [name, value] = h as [unknown, unknown];
    if (typeof name !== 'string' || !isCarriedHeader(name, value)) continue;
    const before = out.get(name);
    out.set(name, before === undefined ? (value as string) : `${before}, ${value as string}`);
  }
  return out.size > 0 ? Object.fromEntries(out) : null;
}

/**
 * The site's own caching headers apply to its files as a host applies them (a service worker's copy keeps
 * none: isCarriedHeader leaves them out); packages keep objpack's.
 */
const SITE_CACHING = new Set(['cache-control', 'expires']);

/**
 * The manifest's host header rules, checked again (the manifest is a file on disk): a pattern that does
 * not compile drops its rule, a field that is not a valid header or one this server sets itself is left out.
 */
export function hostRules(recorded: unknown): HostRule[] {
  if (!Array.isArray(recorded)) return [];
  const out: HostRule[] = [];
  for (const r of recorded as unknown[]) {
    const {
      match,
      flags = 'iu',
      headers,
      errorPage,
    } = (r ?? {}) as { match?: unknown; flags?: unknown; headers?: unknown; errorPage?: unknown };
    // Only flags that leave test() stateless ('g' and 'y' would make it depend on the last call).
    if (typeof match !== 'string' || typeof flags !== 'string' || !/^[imsu]*$/.test(flags) || !Array.isArray(headers))
      continue;
    let re: RegExp;
    try {
      re = new RegExp(match, flags);
    } catch {
      continue;
    }
    const fields = (headers as unknown[]).filter((h): h is [string, string] => {
      if (!Array.isArray(h) || h.length !== 2 || typeof h[0] !== 'string') return false;
      return isCarriedHeader(h[0], h[1]) || (SITE_CACHING.has(h[0]) && isHeaderValue(h[1]));
    });
    if (fields.length > 0)
      out.push({ re, headers: fields, ...(errorPage === true ? { errorPage: true as const } : {}) });
  }
  return out;
}

/** Rules naming one path are looked up by it: a `_headers` block per page costs a lookup, not a test each. */
const indexes = new WeakMap<readonly HostRule[], RuleIndex>();

/**
 * Headers the rules give a site path (decoded): a later rule's value wins (as Netlify's dev server merges them);
 * null when none. A rule may be written decoded (`/café.css`) or as the URL is requested (`/caf%C3%A9.css`):
 * it is tried on both, for a page as for a file, so it reaches the path however a request spells it.
 * `patterns` false: only rules naming one path are looked at (a path patterns must not run on).
 */
export function ruleHeaders(
  rules: readonly HostRule[],
  sitePath: string,
  patterns = true,
): Record<string, string> | null {
  let index = indexes.get(rules);
  if (!index) indexes.set(rules, (index = new RuleIndex(rules)));
  const named = pathName(sitePath);
  const both = named !== sitePath;
  const paths = both ? [sitePath, named] : [sitePath];
  const literals = index.literals(paths);
  // A long non-ASCII segment is three times as long escaped: patterns run on the name form where patternsSafe allows.
  const onNamed = both && patterns && patternsSafe(named) ? () => true : (i: number) => both && literals.includes(i);
  let out: Map<string, string> | undefined;
  for (const i of patterns ? index.candidates(paths) : literals) {
    const rule = rules[i]!;
    if (!rule.re.test(sitePath) && !(onNamed(i) && rule.re.test(named))) continue;
    out ??= new Map();
    for (const [name, value] of rule.headers) {
      out.delete(name);
      out.set(name, value);
    }
  }
  return out ? Object.fromEntries(out) : null;
}

/** The manifest's `firebaseUrls`, checked again: only the two settings, each of its type. */
function firebaseUrls(recorded: unknown): FirebaseUrls | null {
  if (!recorded || typeof recorded !== 'object') return null;
  const { cleanUrls, trailingSlash } = recorded as { cleanUrls?: unknown; trailingSlash?: unknown };
  return {
    ...(cleanUrls === true ? { cleanUrls: true as const } : {}),
    ...(typeof trailingSlash === 'boolean' ? { trailingSlash } : {}),
  };
}

function isPage(p: unknown): p is ManifestPage {
  const o = p as ManifestPage;
  return (
    !!o &&
    typeof o.file === 'string' &&
    typeof o.package === 'string' &&
    Array.isArray(o.closure) &&
    Array.isArray(o.critical) &&
    Array.isArray(o.shared)
  );
}

/**
 * Reads objpack-manifest.json; `null` when the site has none. Malformed (a `base` that is no base path
 * too) → SERVE_BAD_MANIFEST. `base`: serve under this base path instead of the recorded one.
 */
export async function loadManifest(rootReal: string, base?: string): Promise<SiteManifest | null> {
  let text: string;
  try {
    text = await readFile(join(rootReal, MANIFEST_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ServeError(ServeErrorCode.BAD_MANIFEST, `cannot read ${MANIFEST_FILE}`, {
      path: MANIFEST_FILE,
      cause: err,
    });
  }
  let manifest: BuildManifest;
  try {
    manifest = JSON.parse(text) as BuildManifest;
  } catch (err) {
    throw new ServeError(ServeErrorCode.BAD_MANIFEST, `${MANIFEST_FILE} is not valid JSON`, {
      path: MANIFEST_FILE,
      cause: err,
    });
  }
  if (
    !manifest ||
    typeof manifest !== 'object' ||
    manifest.version !== 1 ||
    typeof manifest.pages !== 'object' ||
    !manifest.pages
  ) {
    throw new ServeError(ServeErrorCode.BAD_MANIFEST, `${MANIFEST_FILE} has an unknown shape or version`, {
      path: MANIFEST_FILE,
    });
  }
  manifest.packages ??= {};
  manifest.objects ??= {};
  const recorded = manifest.base === undefined ? { ok: true as const, base: '/' } : checkBasePath(manifest.base);
  if (!recorded.ok) {
    const detail = `${MANIFEST_FILE} records base ${JSON.stringify(manifest.base)}: ${recorded.reason}`;
    throw new ServeError(ServeErrorCode.BAD_MANIFEST, detail, { path: MANIFEST_FILE });
  }
  base ??= recorded.base;
  // checkBasePath spells a base so that it always decodes; files are under it as the index keys them.
  const files = decodeURIComponent(base);
  const pages = new Map<string, PageInfo>();
  const byPackage = new Map<string, PageInfo>();
  const packageObjects = new Map<string, readonly string[]>();
  const carried = new Map<string, readonly string[]>();
  for (const [url, rec] of Object.entries(manifest.packages)) {
    if (rec && Array.isArray(rec.objects))
      packageObjects.set(
        url,
        rec.objects.filter((x) => typeof x === 'string'),
      );
    carried.set(namePath(url), [namePath(url), ...(packageObjects.get(url) ?? []).map(namePath)]);
  }
  for (const [url, page] of Object.entries(manifest.pages)) {
    if (!isPage(page) || !url.startsWith('/')) {
      throw new ServeError(ServeErrorCode.BAD_MANIFEST, `page ${url} is malformed`, { path: url });
    }
    const htmlPath = `${files}${page.file.replace(/^\/+/, '')}`;
    const { links, linkPaths } = pageLinks(page);
    const closure = new Set(page.closure.filter((p) => typeof p === 'string').map(namePath));
    closure.delete(htmlPath);
    closure.delete(namePath(url));
    closure.delete(''); // a name no request could name
    const info: PageInfo = {
      url,
      page,
      htmlPath,
      links,
      linkPaths,
      closure,
      packagePath: namePath(page.package),
      packageObjects: packageObjects.get(page.package) ?? page.closure,
      // The build keys a page's HTML object by the page's URL ('/guide/'); by file name as a fallback.
      hostHeaders: hostHeaders(manifest.objects[url]?.headers ?? manifest.objects[htmlPath]?.headers),
    };
    pages.set(url, info);
    if (!pages.has(htmlPath)) pages.set(htmlPath, info);
    byPackage.set(info.packagePath, info);
  }
  const rules = hostRules(manifest.hostHeaders);
  return {
    manifest,
    base,
    hostRules: rules,
    errorPageRules: rules.filter((r) => r.errorPage),
    firebaseUrls: firebaseUrls(manifest.firebaseUrls),
    router: hostRouter(manifest.hostRoutes),
    pages,
    byPackage,
    packageObjects,
    carried,
  };
}
