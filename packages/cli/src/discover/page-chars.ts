import { BUCKETS, type AssembleContext, type Buckets } from './assemble-context.js';
import { isCss } from './asset-analyzer.js';
import type { PageExtract } from './page-extract.js';
import type { ClosureItem } from './types.js';
import { sortedCodePoints } from './unicode-range.js';

/**
 * The non-ASCII characters a page can show: its own (text, attributes, scripts: more than it renders,
 * which at worst keeps a subset) and those its stylesheets put in `content`. Text that scripts fetch or
 * compute is not seen; a subset dropped for it is fetched from the network like any unpackaged object.
 * Undefined when no font item is `ranged` (has a `unicode-range`): then no subset is dropped.
 */
export async function pageChars(
  ctx: AssembleContext,
  extract: PageExtract,
  buckets: Buckets,
  ranged: (item: ClosureItem) => boolean,
): Promise<Uint32Array | undefined> {
  if (!BUCKETS.some((b) => buckets[b].some(ranged))) return undefined;
  const sources: Array<string | undefined> = [extract.chars];
  for (const inline of Object.values(extract.inline)) sources.push(inline.css?.chars);
  const sheets = new Set<string>();
  for (const b of BUCKETS) {
    for (const item of buckets[b]) {
      if (item.as !== 'style' || sheets.has(item.path)) continue;
      sheets.add(item.path);
      const file = ctx.resolver.files.get(item.path);
      if (file && isCss(file)) sources.push((await ctx.analyzer.sheet(file)).chars);
    }
  }
  return sortedCodePoints(...sources);
}
