import {
  isAnnounced,
  MAX_LINK_HEADER_BYTES,
  preloadLinkEntry,
  preloadLinkValue,
  type PreloadEntry,
  type RouteTable,
} from '@objpack/format';

/** Hosts and proxies commonly cap one header at 8 KB; the worker's header follows the same rule as the build's. */
export const MAX_PRELOAD_HEADER_BYTES = MAX_LINK_HEADER_BYTES;

const CORS = new Set<unknown>([undefined, 'anonymous', 'use-credentials']);

/**
 * The page's announced objects from the route table, each once, in order: only entries the header can
 * carry (a same-origin printable-ASCII path, a kind that is announced, a known CORS mode), so a bad
 * routes.json entry is skipped, never sent.
 */
export function preloadsFor(table: RouteTable, page: string): PreloadEntry[] {
  const p = table.preload;
  const idx = p?.pages && Object.hasOwn(p.pages, page) ? p.pages[page] : undefined;
  if (!p || !Array.isArray(p.urls) || !Array.isArray(idx)) return [];
  const out: PreloadEntry[] = [];
  const seen = new Set<string>();
  for (const i of idx) {
    const hint: unknown = Number.isInteger(i) ? p.urls[i] : undefined;
    if (!Array.isArray(hint) || typeof hint[0] !== 'string' || seen.has(hint[0])) continue;
    const [url, kind, cors] = hint as unknown[];
    if (!isAnnounced(kind) || !CORS.has(cors) || preloadLinkEntry(url as string, kind) === undefined) continue;
    seen.add(url as string);
    out.push(cors === undefined ? [url as string, kind] : [url as string, kind, cors as 'anonymous']);
  }
  return out;
}

/**
 * The `Link` header value announcing `hints` (modes as in `preloadLinkEntry` of `@objpack/format`), cut at
 * a whole entry to stay under {@link MAX_PRELOAD_HEADER_BYTES}; undefined when there is nothing to announce.
 */
export function preloadHeader(hints: readonly PreloadEntry[]): string | undefined {
  return preloadLinkValue(hints).value || undefined;
}

/**
 * Adds the page's `Link` preloads from the route table (for a page of the table's own build: the list is
 * that build's). A host would send the same header from the build's `_headers`; a synthesized response has
 * none, and without it the browser finds fonts, `@import`s, CSS images and imported modules only after
 * parsing what names them, one worker round trip per level. Returns whether a header was added. Never
 * throws: a preload is an optimisation, and a bad table entry must not break the navigation.
 */
export function announcePreloads(headers: Headers, table: RouteTable, page: string): boolean {
  try {
    const value = preloadHeader(preloadsFor(table, page));
    if (value) headers.append('link', value);
    return value !== undefined;
  } catch {
    return false;
  }
}
