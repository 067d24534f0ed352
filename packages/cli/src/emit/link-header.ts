import type { PreloadAs } from '@objpack/format';

/** Hosts and proxies commonly cap one header at 8 KB; stay below with room for the name. */
export const MAX_LINK_HEADER_BYTES = 8000;

/** Cache-Control for content-hashed shared packages (their name changes whenever a byte does). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control for files at fixed URLs whose content changes between builds. */
export const REVALIDATE = 'public, max-age=0, must-revalidate';

const escapeTarget = (url: string) => url.replace(/[<>"\s]/g, (c) => encodeURIComponent(c));

/** One `Link` preload value; fonts need `crossorigin` even same-origin, or the preload is wasted. */
export function preloadLink(path: string, as: PreloadAs): string {
  return `<${escapeTarget(path)}>; rel=preload; as=${as}${as === 'font' ? '; crossorigin' : ''}`;
}

/**
 * The page's `Link` header value (preloads in the page's order, then preconnects), cut at a whole entry so
 * that it stays under {@link MAX_LINK_HEADER_BYTES}. `dropped` counts what did not fit.
 */
export function linkHeader(
  critical: ReadonlyArray<{ path: string; as: PreloadAs }>,
  preconnect: readonly string[] = [],
): { value: string; dropped: number } {
  const parts = [...critical.map((c) => preloadLink(c.path, c.as)), ...preconnect.map((o) => `<${escapeTarget(o)}>; rel=preconnect`)];
  let value = '';
  let used = 0;
  for (const p of parts) {
    const next = value ? `${value}, ${p}` : p;
    if (Buffer.byteLength(next) > MAX_LINK_HEADER_BYTES) break;
    value = next;
    used++;
  }
  return { value, dropped: parts.length - used };
}
