import { canonicalPath } from '@objpack/format';
import { DiscoverCodes, DiscoverError } from './diagnostic-codes.js';

/** Stands in for the site's origin when none is given: absolute URLs then never count as local. */
export const PLACEHOLDER_ORIGIN = 'http://objpack.invalid';

/** Where the site is served: its origin and the URL path its root maps to ('/' or '/docs/'). */
export interface SiteOrigin {
  origin: string;
  basePath: string;
}

/**
 * Parses `--origin`; a path part ('https://example.com/docs') is the base path the root is served under,
 * unless `base` (a checked base path, base-option.ts) says where.
 */
export function parseOrigin(origin: string | undefined, base?: string): SiteOrigin {
  if (origin === undefined || origin === '') {
    return { origin: PLACEHOLDER_ORIGIN, basePath: (base !== undefined && safeDecode(base)) || '/' };
  }
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new DiscoverError(DiscoverCodes.BAD_ORIGIN, `--origin must be an absolute http(s) URL, got "${origin}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DiscoverError(DiscoverCodes.BAD_ORIGIN, `--origin must be an http(s) URL, got "${origin}"`);
  }
  const basePath = safeDecode(base ?? (url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`));
  return { origin: url.origin, basePath: basePath ?? '/' };
}

/**
 * The extensionless URL a host with clean URLs also serves a page at (`/about` for `/about.html`); none for directory
 * pages.
 */
export const cleanUrlOf = (pageUrl: string): string | undefined =>
  pageUrl.endsWith('.html') && !pageUrl.endsWith('/index.html') ? pageUrl.slice(0, -'.html'.length) : undefined;

/**
 * The other URL the worker answers for a page, as the host serves it there too: with clean URLs `/about` for
 * `/about.html` (with `cleanSlashUrls` `/about/`), with bare directory URLs `/guide` for `/guide/`.
 */
export const hostAliasOf = (
  pageUrl: string,
  urls: { cleanUrls: boolean; bareDirUrls: boolean; cleanSlashUrls?: boolean },
): string | undefined => {
  const clean = urls.cleanUrls || urls.cleanSlashUrls ? cleanUrlOf(pageUrl) : undefined;
  if (clean !== undefined) return urls.cleanSlashUrls ? `${clean}/` : clean;
  return urls.bareDirUrls && pageUrl.length > 1 && pageUrl.endsWith('/') ? pageUrl.slice(0, -1) : undefined;
};

export function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** The URL path a browser uses for a page file: 'guide/index.html' → '/guide/', 'a.html' → '/a.html'. */
export function pageUrlPath(rel: string, basePath = '/'): string {
  const dirIndex = rel === 'index.html' || rel.endsWith('/index.html');
  const urlRel = dirIndex ? rel.slice(0, -'index.html'.length) : rel;
  return encodePath(basePath + urlRel);
}

/**
 * Percent-encodes a decoded path the way a browser's URL parser would, in the form names take
 * (canonicalPath: what Chromium leaves literal in a path stays so, e.g. `[slug].html`; a page keyed
 * /%5Bslug%5D.html was never found by the worker). '%' '?' '#' stay escaped, and '|' '^'.
 */
export function encodePath(path: string): string {
  return new URL(canonicalPath(path.split('/').map(encodeURIComponent).join('/')), PLACEHOLDER_ORIGIN).pathname;
}
