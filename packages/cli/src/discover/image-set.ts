/**
 * The `image-set()` candidate the reference display picks (CSS Images 4 §2.2): each option is an image
 * with an optional resolution (1x when absent) and `type()`; options of types a browser does not decode
 * are skipped, and Chromium takes the lowest resolution at or above the display's, else the highest.
 */
import type { CssNode, FunctionNode } from 'css-tree';
import { IMAGE_TYPES } from './image-candidates.js';
import { REFERENCE_DISPLAY } from './tiers.js';

const DPPX: Record<string, number> = { x: 1, dppx: 1, dpi: 1 / 96, dpcm: 2.54 / 96 };

/** The URL or string node of the chosen option; null when the set cannot be read (every option stays). */
export function imageSetPick(set: FunctionNode): CssNode | null {
  const options: Array<{ image: CssNode; density: number }> = [];
  let current: { image?: CssNode; density?: number; skip?: boolean } = {};
  const flush = (): boolean => {
    if (!current.image) return false;
    if (!current.skip) options.push({ image: current.image, density: current.density ?? 1 });
    current = {};
    return true;
  };
  for (const c of set.children.toArray()) {
    if (c.type === 'WhiteSpace') continue;
    if (c.type === 'Operator' && c.value === ',') {
      if (!flush()) return null;
    } else if ((c.type === 'Url' || c.type === 'String') && !current.image) current.image = c;
    else if (
      c.type === 'Dimension' &&
      current.image &&
      current.density === undefined &&
      DPPX[c.unit.toLowerCase()] !== undefined
    ) {
      current.density = Number(c.value) * DPPX[c.unit.toLowerCase()]!;
    } else if (c.type === 'Function' && c.name.toLowerCase() === 'type' && current.image) {
      const t = c.children.first;
      if (t?.type !== 'String') return null;
      if (!IMAGE_TYPES.has(t.value.toLowerCase())) current.skip = true;
    } else return null; // a gradient or anything else: not read here
  }
  if (!flush() || options.length === 0) return null;
  options.sort((a, b) => a.density - b.density);
  return (options.find((o) => o.density >= REFERENCE_DISPLAY.dpr) ?? options[options.length - 1]!).image;
}
