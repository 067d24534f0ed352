import type { PreloadHint } from '@objpack/format';
import type { ClosureItem } from '../discover/index.js';

/** At most this many images of render-blocking CSS per page: a site-wide sheet may style many absent parts. */
export const MAX_CSS_IMAGES = 8;

/**
 * The objects the service worker announces with `Link` preloads when it answers the page (routes.json
 * `preload`), in package order: the objects the browser would find only after parsing what names them.
 * - render-blocking CSS with its `@import`s, fonts of that CSS and synchronous scripts (`critical`);
 * - static imports of module scripts (`module`): always fetched once their importer runs; the entry module
 *   is in the HTML, where the browser finds it at once (and a defer script there looks the same);
 * - images of render-blocking CSS, up to {@link MAX_CSS_IMAGES}: their bytes are in the package anyway, but
 *   a selector the page does not match leaves the preload unused (a console warning, no network).
 * Never an object a first load may legitimately skip (`conditional`: srcset candidates, lazy images, media,
 * dynamic imports, media-query sheets), nor one the build left out (`kept` false).
 */
export function preloadHints(items: readonly ClosureItem[], kept: (item: ClosureItem) => boolean): Array<[string, PreloadHint]> {
  const byUrl = new Map(items.map((i) => [i.url, i]));
  const out: Array<[string, PreloadHint]> = [];
  let cssImages = 0;
  for (const item of items) {
    if (item.conditional !== undefined || item.as === 'document' || !kept(item)) continue;
    const from = byUrl.get(item.from);
    if (item.critical) out.push([item.url, item.as]);
    else if (item.as === 'script' && from?.as === 'script' && from.conditional === undefined) out.push([item.url, 'module']);
    else if (item.as === 'image' && from?.as === 'style' && from.critical && cssImages < MAX_CSS_IMAGES) {
      cssImages++;
      out.push([item.url, 'image']);
    }
  }
  return out;
}
