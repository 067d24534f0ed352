/**
 * Which image candidate a browser on the reference display picks from a `srcset` (or `imagesrcset`),
 * following the HTML spec's "update the source set" and Chromium's choice for a pixel ratio of 1: the
 * lowest density at or above the display's, else the highest. Anything this cannot read as the browser
 * would (`sizes` with `calc()` or `auto`, media features other than width) answers "unknown", and every
 * candidate then stays in the critical tier.
 */
import { parseSrcset } from 'srcset';
import { REFERENCE_DISPLAY } from './tiers.js';

/** Image types every browser with service workers decodes (a `<source type>` of another is skipped). */
export const IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/avif',
  'image/webp',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/svg+xml',
  'image/apng',
  'image/bmp',
  'image/x-icon',
]);

const PX = { px: 1, em: 16, rem: 16, vw: REFERENCE_DISPLAY.width / 100 } as const;

/**
 * The URL (as written) the reference display loads, or undefined when it cannot tell.
 * `src` is the element's own `src` (a 1x candidate unless the srcset has one or uses width descriptors).
 */
export function pickCandidate(srcset: string, opts: { src?: string; sizes?: string } = {}): string | undefined {
  let parsed: ReturnType<typeof parseSrcset>;
  try {
    parsed = parseSrcset(srcset);
  } catch {
    return undefined;
  }
  const widths = parsed.some((c) => c.width !== undefined);
  let slot: number | undefined;
  if (widths) {
    slot = sourceSize(opts.sizes ?? '100vw');
    if (slot === undefined || slot <= 0) return undefined;
  }
  const candidates = parsed.map((c) => ({
    url: c.url,
    density: c.width !== undefined ? c.width / slot! : (c.density ?? 1),
  }));
  if (!widths && opts.src && !candidates.some((c) => c.density === 1)) candidates.push({ url: opts.src, density: 1 });
  if (candidates.length === 0) return opts.src;
  candidates.sort((a, b) => a.density - b.density);
  return (candidates.find((c) => c.density >= REFERENCE_DISPLAY.dpr) ?? candidates[candidates.length - 1]!).url;
}

/** The slot width in CSS px that a `sizes` value gives on the reference display, if it can tell. */
export function sourceSize(sizes: string): number | undefined {
  for (const entry of splitTopLevel(sizes)) {
    const m = /^(.*?)\s*(\d*\.?\d+)(px|em|rem|vw)$|^(.*?)\s*(0)$/i.exec(entry.trim());
    if (!m) return undefined;
    const condition = (m[1] ?? m[4] ?? '').trim();
    const length = m[5] !== undefined ? 0 : Number(m[2]) * PX[m[3]!.toLowerCase() as keyof typeof PX];
    if (condition === '') return length;
    const matches = mediaMatches(condition);
    if (matches === undefined) return undefined;
    if (matches) return length;
  }
  return PX.vw * 100; // no entry applies: 100vw
}

/** Whether a media query list matches the reference display (undefined: cannot tell). */
export function mediaQueryMatches(media: string): boolean | undefined {
  let any = false;
  for (const query of splitTopLevel(media)) {
    const q = query.trim().toLowerCase();
    const m = q === 'all' || q === 'screen' ? true : q === 'print' ? false : mediaMatches(q);
    if (m === undefined) return undefined;
    any ||= m;
  }
  return any || splitTopLevel(media).length === 0;
}

/** A media condition of width features joined by `and` (optionally after `screen and`/`all and`). */
function mediaMatches(condition: string): boolean | undefined {
  const parts = condition.toLowerCase().split(/\s+and\s+/);
  if (parts[0] === 'screen' || parts[0] === 'all') parts.shift();
  let all = true;
  for (const part of parts) {
    const m = /^\(\s*(min|max)-width\s*:\s*(\d*\.?\d+)(px|em|rem)\s*\)$/.exec(part.trim());
    if (!m) return undefined;
    const px = Number(m[2]) * PX[m[3] as 'px' | 'em' | 'rem'];
    if (m[1] === 'min' ? REFERENCE_DISPLAY.width < px : REFERENCE_DISPLAY.width > px) all = false;
  }
  return all;
}

/** Splits at commas outside parentheses. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth = Math.max(0, depth - 1);
    else if (s[i] === ',' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out.filter((e) => e.trim() !== '');
}
