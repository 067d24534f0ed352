import type { PreloadEntry } from '@objpack/format';
import type { ClosureItem } from '../discover/index.js';

/** At most this many images of render-blocking CSS per page: a site-wide sheet may style many absent parts. */
export const MAX_CSS_IMAGES = 8;
/**
 * At most this many of the page's own images (not lazy), in document order. The browser fetches every
 * non-lazy image anyway, so an announced one costs no extra request; the cap bounds what each page adds to
 * routes.json, which every worker downloads.
 */
export const MAX_CONTENT_IMAGES = 16;

/**
 * The objects the service worker announces with `Link` preloads when it answers the page (routes.json
 * `preload`), in package order: the objects the browser would find only after parsing what names them.
 * - render-blocking CSS with its `@import`s, fonts of that CSS and synchronous scripts (`critical`);
 * - static imports of module scripts (`module`): always fetched once their importer runs;
 * - the route chunks a webpack runtime loads with `<script>` elements (discover/route-chunks.ts: classic
 *   scripts named by a script; `chunk`: `as=script`, the mode of the runtime's elements, at low priority):
 *   fetched once the main bundle runs, two levels below the HTML;
 * - images of render-blocking CSS, up to {@link MAX_CSS_IMAGES}: their bytes are in the package anyway, but
 *   a selector the page does not match leaves the preload unused (a console warning, no network);
 * - the page's own images that are not lazy, up to {@link MAX_CONTENT_IMAGES}, and its module scripts and
 *   `modulepreload` links (`modulepreload` is right only for modules: ClosureItem `script`): the
 *   browser would find them in the HTML, but the HTML arrives with the package, one round trip after the
 *   early answer, and the preload scanner reaches them only after what the header announced; announced
 *   there, their requests already wait in the worker when their bytes arrive (−5 to −13 ms page-complete
 *   on the benchmark's deep page at 100 ms RTT, `benchmarks/browser/README.md`).
 * - the classic scripts the HTML names with `defer` or `async` or preloads `as=script`: found with the HTML
 *   like the entry modules, and listed so that the worker's warm page (client-sw worker/warm.ts) can put
 *   them in the memory cache for the next page, as a browser without a worker keeps the first page's.
 * Never an object a first load may legitimately skip (`conditional`: srcset candidates, lazy images, media,
 * dynamic imports, media-query sheets), nor one the build left out (`kept` false).
 *
 * Each entry carries the `crossorigin` state of the element that names it (a Vite page's
 * `<link rel=stylesheet crossorigin>`): a preload in another mode is a second fetch. A static import is
 * fetched with its importer's credentials mode (https://html.spec.whatwg.org/#fetch-a-single-module-script),
 * so it inherits the state of the module script it comes from.
 */
export function preloadHints(items: readonly ClosureItem[], kept: (item: ClosureItem) => boolean): PreloadEntry[] {
  return classify(items, kept).map(([e]) => e);
}

/**
 * What a host announces for the page when no worker answers it (a first visit): `Link` on the page's
 * response and in `103 Early Hints` (objpack serve; Netlify and Cloudflare Pages turn a `_headers` `Link`
 * into Early Hints). The browser then fetches the page's whole render path at once instead of one level
 * per round trip: render-blocking CSS, its `@import`s and fonts, synchronous scripts, every static import
 * of the page's modules (`modulepreload`, in the importer's CORS mode) and the images of render-blocking
 * CSS. Not the page's own images, entry modules and deferred scripts: the preload scanner finds them in the
 * HTML as soon as it arrives, which from a static host is with the hints, and a high-priority preload of
 * every image would compete with the CSS on a slow link. Not the route chunks a webpack runtime loads
 * either: announced on a cold connection, even at low priority, they delay a Docusaurus page's first paint
 * (benchmarks/browser/README.md); the page asks for them once its main bundle runs.
 */
export function earlyHints(items: readonly ClosureItem[], kept: (item: ClosureItem) => boolean): PreloadEntry[] {
  return classify(items, kept)
    .filter(([, why]) => !LEFT_TO_THE_PAGE.has(why))
    .map(([e]) => e);
}

/** What a first visit's hints leave out (see {@link earlyHints}). */
const LEFT_TO_THE_PAGE = new Set<Why>(['content-image', 'entry-module', 'classic-script', 'route-chunk']);

/** Why an object is announced: see {@link preloadHints}. */
type Why = 'critical' | 'import' | 'route-chunk' | 'css-image' | 'content-image' | 'entry-module' | 'classic-script';

/** The announced objects in package order, each with why (the two lists above differ by it). */
function classify(items: readonly ClosureItem[], kept: (item: ClosureItem) => boolean): Array<[PreloadEntry, Why]> {
  const byUrl = new Map(items.map((i) => [i.url, i]));
  const moduleCors = (item: ClosureItem): ClosureItem['cors'] => {
    const seen = new Set<ClosureItem>();
    for (let m: ClosureItem | undefined = item; m && m.as === 'script' && !seen.has(m); m = byUrl.get(m.from)) {
      if (m.cors) return m.cors;
      seen.add(m);
    }
    return undefined;
  };
  const entry = (url: string, hint: PreloadEntry[1], cors: ClosureItem['cors']): PreloadEntry =>
    cors ? [url, hint, cors] : [url, hint];
  const out: Array<[PreloadEntry, Why]> = [];
  let cssImages = 0;
  let contentImages = 0;
  for (const item of items) {
    if (item.conditional !== undefined || item.as === 'document' || !kept(item)) continue;
    const from = byUrl.get(item.from);
    if (item.critical) out.push([entry(item.url, item.as, item.cors), 'critical']);
    else if (item.as === 'script' && item.script === 'classic' && from?.as === 'script')
      out.push([entry(item.url, 'chunk', item.cors), 'route-chunk']);
    else if (item.as === 'script' && from?.as === 'script' && from.conditional === undefined)
      out.push([entry(item.url, 'module', moduleCors(item)), 'import']);
    else if (item.as === 'image' && from?.as === 'style' && from.critical && cssImages < MAX_CSS_IMAGES) {
      cssImages++;
      out.push([[item.url, 'image'], 'css-image']);
    } else if (item.as === 'image' && from?.as === 'document' && contentImages < MAX_CONTENT_IMAGES) {
      contentImages++;
      out.push([entry(item.url, 'image', item.cors), 'content-image']);
    } else if (item.as === 'script' && from?.as === 'document' && item.script === 'classic')
      out.push([entry(item.url, 'script', item.cors), 'classic-script']);
    else if (item.as === 'script' && from?.as === 'document' && item.script === 'module')
      out.push([entry(item.url, 'module', item.cors), 'entry-module']);
  }
  return out;
}
