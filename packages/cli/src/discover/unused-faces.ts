/**
 * Italic and oblique faces a page's text cannot use go to the later tier. CSS Fonts 4 §5.2 matches
 * `font-style` among all of a family's faces before `unicode-range`, so where a family has an upright face,
 * upright text never draws with a slanted one: such a face is needed only where something is slanted: an
 * element italic by default, a style or `font-style` attribute (html-extract.ts `slanted`), or a rule
 * of the page's stylesheets that slants text and matches an element (slanted-match.ts). Text a script adds
 * later is not seen: a face it needs is fetched from the network.
 */
import type { AssembleContext } from './assemble-context.js';
import { isCss } from './asset-analyzer.js';
import type { PageExtract } from './page-extract.js';
import { readSiteFile } from './read-site-file.js';
import { anySelectorMatches } from './slanted-match.js';
import { inCriticalTier } from './tiers.js';
import type { ClosureItem, SiteFile } from './types.js';

/** A face's family (lower-cased) and whether it is italic or oblique. */
export interface FaceStyle {
  family?: string;
  slanted: boolean;
}

/** Marks the page's unusable slanted faces `unused-face` (in place; items are replaced, never mutated). */
export async function unusedFaces(
  ctx: AssembleContext,
  page: SiteFile,
  extract: PageExtract,
  items: ClosureItem[],
  styles: ReadonlyMap<string, FaceStyle>,
): Promise<void> {
  const upright = new Set<string>();
  for (const s of styles.values()) if (!s.slanted && s.family !== undefined) upright.add(s.family);
  const unused: number[] = [];
  items.forEach((item, i) => {
    const s = item.as === 'font' ? styles.get(item.url) : undefined;
    if (s?.slanted && s.family !== undefined && upright.has(s.family) && inCriticalTier(item)) unused.push(i);
  });
  if (unused.length === 0 || extract.slanted) return;
  const selectors: string[] = [];
  for (const inline of Object.values(extract.inline)) selectors.push(...(inline.css?.slanted ?? []));
  for (const item of items) {
    const file = item.as === 'style' ? ctx.resolver.files.get(item.path) : undefined;
    if (file && isCss(file)) selectors.push(...((await ctx.analyzer.sheet(file)).slanted ?? []));
  }
  if (selectors.length > 0) {
    const bytes = await readSiteFile(page);
    if (!(bytes instanceof Uint8Array) || anySelectorMatches(bytes.toString('utf8'), selectors)) return;
  }
  for (const i of unused) items[i] = { ...items[i]!, conditional: 'unused-face' };
}
