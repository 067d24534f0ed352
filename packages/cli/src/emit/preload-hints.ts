import type { PreloadEntry } from '@objpack/format';
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
 *
 * Each entry carries the `crossorigin` state of the element that names it (a Vite page's
 * `<link rel=stylesheet crossorigin>`): a preload in another mode is a second fetch. A static import is
 * fetched with its importer's credentials mode (https://html.spec.whatwg.org/#fetch-a-single-module-script),
 * so it inherits the state of the module script it comes from.
 */
export function preloadHints(items: readonly ClosureItem[], kept: (item: ClosureItem) => boolean): PreloadEntry[] {
  const byUrl = new Map(items.map((i) => [i.url, i]));
  const moduleCors = (item: ClosureItem): ClosureItem['cors'] => {
    const seen = new Set<ClosureItem>();
    for (let m: ClosureItem | undefined = item; m && m.as === 'script' && !seen.has(m); m = byUrl.get(m.from)) {
      if (m.cors) return m.cors;
      seen.add(m);
    }
    return undefined;
  };
  const entry = (url: string, hint: PreloadEntry[1], cors: ClosureItem['cors']): PreloadEntry => (cors ? [url, hint, cors] : [url, hint]);
  const out: PreloadEntry[] = [];
  let cssImages = 0;
  for (const item of items) {
    if (item.conditional !== undefined || item.as === 'document' || !kept(item)) continue;
    const from = byUrl.get(item.from);
    if (item.critical) out.push(entry(item.url, item.as, item.cors));
    else if (item.as === 'script' && from?.as === 'script' && from.conditional === undefined) out.push(entry(item.url, 'module', moduleCors(item)));
    else if (item.as === 'image' && from?.as === 'style' && from.critical && cssImages < MAX_CSS_IMAGES) {
      cssImages++;
      out.push([item.url, 'image']);
    }
  }
  return out;
}
