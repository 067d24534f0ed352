/**
 * One `@font-face` rule as the browser keeps it: the file it downloads (the last valid `src`, its first
 * supported source: font-src.ts), the `unicode-range` that decides which pages need it, and the family and
 * style that decide whether a page's text can use it.
 */
import type { Atrule, Declaration } from 'css-tree';
import { fontSrc } from './font-src.js';
import { parseUnicodeRange } from './unicode-range.js';
import type { CodeRanges } from './unicode-range.js';

/** The face's download and what decides which pages need it. */
export interface FontFaceRef {
  /** The source the browser downloads first. */
  v: string;
  /** Further sources it falls back to when `v` fails to load. */
  alts?: string[];
  /** Line of the `src` descriptor in force. */
  line: number;
  range?: CodeRanges;
  /** Lower-cased family name. */
  family?: string;
  slanted?: true;
}

/** The face's download, or undefined when it downloads nothing (no valid `src`, or only `local()` fonts). */
export function fontFace(face: Atrule): FontFaceRef | undefined {
  const descriptors: Declaration[] = [];
  face.block?.children.forEach((d) => {
    if (d.type === 'Declaration') descriptors.push(d);
  });
  let urls: string[] | undefined;
  let line = face.loc?.start.line ?? 1;
  let range: CodeRanges | undefined;
  let family: string | undefined;
  let slanted = false;
  // A later valid descriptor replaces an earlier one; an invalid one is dropped and leaves it standing.
  for (const d of descriptors) {
    const name = d.property.toLowerCase();
    if (d.value.type !== 'Value') continue;
    if (name === 'src') {
      const src = fontSrc(d.value.children, d.important !== false);
      if (src) [urls, line] = [src.urls, d.loc?.start.line ?? line];
    } else if (name === 'unicode-range') range = unicodeRange(d) ?? range;
    else if (name === 'font-family') family = familyOf(d) ?? family;
    else if (name === 'font-style') slanted = styleOf(d) ?? slanted;
  }
  const [v, ...alts] = urls ?? [];
  if (v === undefined) return undefined;
  return {
    v,
    line,
    ...(alts.length > 0 ? { alts } : {}),
    ...(range ? { range } : {}),
    ...(family ? { family } : {}),
    ...(slanted ? { slanted: true as const } : {}),
  };
}

/** A valid `unicode-range` descriptor's ranges (undefined: invalid, Chromium drops it). */
function unicodeRange(d: Declaration): CodeRanges | undefined {
  if (d.important || d.value.type !== 'Value') return undefined; // `!important` voids a descriptor
  const ranges: CodeRanges = [];
  let valid = true;
  let i = 0;
  // Exactly `range (, range)*`.
  d.value.children.forEach((c) => {
    if (i++ % 2 === 0) {
      const r = c.type === 'UnicodeRange' ? parseUnicodeRange(c.value) : undefined;
      if (r) ranges.push(r);
      else valid = false;
    } else if (!(c.type === 'Operator' && c.value === ',')) valid = false;
  });
  return valid && i % 2 === 1 ? ranges : undefined;
}

/** The family a face declares: one string, or identifiers joined by spaces. */
function familyOf(d: Declaration): string | undefined {
  if (d.important || d.value.type !== 'Value') return undefined;
  const parts = d.value.children.toArray().filter((c) => c.type !== 'WhiteSpace');
  if (parts.length === 1 && parts[0]!.type === 'String') return parts[0]!.value.toLowerCase();
  if (parts.length > 0 && parts.every((c) => c.type === 'Identifier'))
    return parts.map((c) => (c as { name: string }).name.toLowerCase()).join(' ');
  return undefined;
}

/** Whether a face's `font-style` is italic or oblique (undefined: not a valid value). */
function styleOf(d: Declaration): boolean | undefined {
  if (d.important || d.value.type !== 'Value') return undefined;
  const first = d.value.children.first;
  if (first?.type !== 'Identifier') return undefined;
  const style = first.name.toLowerCase();
  if (style === 'normal') return false;
  return style === 'italic' || style === 'oblique' ? true : undefined;
}
