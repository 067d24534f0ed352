import type { PreloadHint, RouteTable } from '@objpack/format';

/** Hosts and proxies commonly cap one header at 8 KB; the worker's header follows the same rule as the build's. */
export const MAX_PRELOAD_HEADER_BYTES = 8000;

/**
 * One `Link` value per kind of request, with the request mode and credentials the page's own request will
 * have, or the browser fetches twice (https://html.spec.whatwg.org/#link-type-preload, "match preload"):
 * fonts and `fetch()` are CORS requests (`crossorigin`), stylesheets, classic scripts and images are not,
 * and module scripts need `modulepreload`. Documents, media and tracks are never announced: a preload of
 * the page itself is meaningless, and media is large and often not played.
 */
const LINK: Partial<Record<PreloadHint, string>> = {
  style: 'rel=preload; as=style',
  script: 'rel=preload; as=script',
  image: 'rel=preload; as=image',
  font: 'rel=preload; as=font; crossorigin',
  fetch: 'rel=preload; as=fetch; crossorigin',
  module: 'rel=modulepreload',
};

// Package names are URL paths as the URL parser leaves them, which already escapes these; anything else
// (a comma, say) must stay as it is, or the preload would be for another URL than the page's request.
const escapeTarget = (url: string) => url.replace(/[<>"\s]/g, (c) => encodeURIComponent(c));

/** The page's announced objects from the route table: same-origin URL paths only, each once, in order. */
export function preloadsFor(table: RouteTable, page: string): Array<[string, PreloadHint]> {
  const p = table.preload;
  const idx = p?.pages?.[page];
  if (!p || !Array.isArray(p.urls) || !Array.isArray(idx)) return [];
  const out: Array<[string, PreloadHint]> = [];
  const seen = new Set<string>();
  for (const i of idx) {
    const hint = p.urls[i];
    if (!Array.isArray(hint) || typeof hint[0] !== 'string' || !hint[0].startsWith('/') || hint[0].startsWith('//')) continue;
    if (seen.has(hint[0]) || !LINK[hint[1]]) continue;
    seen.add(hint[0]);
    out.push(hint);
  }
  return out;
}

/**
 * The `Link` header value announcing `hints`, cut at a whole entry to stay under
 * {@link MAX_PRELOAD_HEADER_BYTES}; undefined when there is nothing to announce.
 */
export function preloadHeader(hints: ReadonlyArray<readonly [string, PreloadHint]>): string | undefined {
  let value = '';
  for (const [url, as] of hints) {
    const rel = LINK[as];
    if (!rel) continue;
    const next = `${value ? `${value}, ` : ''}<${escapeTarget(url)}>; ${rel}`;
    // Header values here are ASCII (package names are), so length is the byte count.
    if (next.length > MAX_PRELOAD_HEADER_BYTES) break;
    value = next;
  }
  return value || undefined;
}

/**
 * Adds the page's `Link` preloads from the route table (for a page of the table's own build: the list is
 * that build's). A host would send the same header from the build's `_headers`; a synthesized response has
 * none, and without it the browser finds fonts, `@import`s, CSS images and imported modules only after
 * parsing what names them, one worker round trip per level. Returns whether a header was added.
 */
export function announcePreloads(headers: Headers, table: RouteTable, page: string): boolean {
  const value = preloadHeader(preloadsFor(table, page));
  if (value) headers.append('link', value);
  return value !== undefined;
}
