/**
 * The two tiers of a page's closure. The **critical tier** is what a first load of the page fetches from
 * its HTML, its CSS and its module imports: the packages a navigation downloads carry it, and first-visit
 * preload lists (`Link`, 103 Early Hints) are built from it. The **later tier** is what the page may need
 * only after an interaction or on another display: it stays in the closure (and in `objpack closure`,
 * the manifest and the report) but in no package; the browser fetches it from the network if the page
 * ever asks, as it would without objpack.
 */

/** Why an object is in the later tier (its `ClosureItem.conditional`). */
export type LaterReason =
  /** A literal `import()` target and its static imports: loaded when the code asks (VitePress search). */
  | 'dynamic-import'
  /** A `srcset`/`imagesrcset`/`image-set()` candidate the reference display does not pick. */
  | 'other-density'
  /** An italic or oblique face of a family that has an upright one, on a page with no slanted text. */
  | 'unused-face'
  /** Touch and mask icons, and `rel=icon` variants the browser does not pick for a tab. */
  | 'icon-variant'
  /** The web app manifest: fetched when the browser considers installing the site. */
  | 'manifest';

export const LATER_REASONS: ReadonlySet<string> = new Set<LaterReason>([
  'dynamic-import',
  'other-density',
  'unused-face',
  'icon-variant',
  'manifest',
]);

/**
 * The display image candidates are chosen for: a 1280 CSS px wide viewport at device pixel ratio 1, the
 * Chromium the fixtures' browser oracle and the benchmarks run. A display that picks another candidate
 * fetches it from the network, one request, as without objpack.
 */
export const REFERENCE_DISPLAY = { width: 1280, dpr: 1 } as const;

/** What the tiers read of a closure item (types.ts `ClosureItem`). */
export interface Tiered {
  conditional?: string;
}

/** Whether a first load of the page fetches the object: it goes into the page's packages. */
export function inCriticalTier(item: Tiered): boolean {
  return item.conditional === undefined || !LATER_REASONS.has(item.conditional);
}

/** The reason an object is in the later tier, or undefined for the critical tier. */
export function laterReason(item: Tiered): LaterReason | undefined {
  return inCriticalTier(item) ? undefined : (item.conditional as LaterReason);
}
