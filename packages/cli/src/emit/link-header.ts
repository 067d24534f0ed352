import {
  joinLinkValue,
  MAX_LINK_HEADER_BYTES,
  preloadLinkEntry,
  type PreloadCors,
  type PreloadHint,
} from '@objpack/format';

/** Hosts and proxies commonly cap one header at 8 KB; the same cap as the worker's header (@objpack/format). */
export { MAX_LINK_HEADER_BYTES };

/** Cache-Control for content-hashed shared packages (their name changes whenever a byte does). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control for files at fixed URLs whose content changes between builds. */
export const REVALIDATE = 'public, max-age=0, must-revalidate';

// An origin (`https://cdn.example`) cannot hold these, but a target must never break out of `<…>`.
const escapeTarget = (url: string) => url.replace(/[<>"\s]/g, (c) => encodeURIComponent(c));

/**
 * One `Link` preload value, in the mode of the page's own request (the worker announces the same, see
 * `preloadLinkEntry` in @objpack/format); undefined for what is never preloaded (documents, media) or a
 * URL a header cannot carry.
 */
export function preloadLink(path: string, as: PreloadHint, cors?: PreloadCors): string | undefined {
  return preloadLinkEntry(path, as, cors);
}

/**
 * The page's `Link` header value (preloads in the page's order, then preconnects), cut at a whole entry so
 * that it stays under {@link MAX_LINK_HEADER_BYTES}. `dropped` counts what did not fit.
 */
export function linkHeader(
  critical: ReadonlyArray<{ path: string; as: PreloadHint; cors?: PreloadCors }>,
  preconnect: readonly string[] = [],
): { value: string; dropped: number } {
  const parts: string[] = [];
  for (const c of critical) {
    const e = preloadLink(c.path, c.as, c.cors);
    if (e !== undefined) parts.push(e);
  }
  for (const o of preconnect) parts.push(`<${escapeTarget(o)}>; rel=preconnect`);
  const { value, used } = joinLinkValue(parts);
  return { value, dropped: parts.length - used };
}
