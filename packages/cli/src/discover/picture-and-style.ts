/**
 * Two things a first load depends on that one start tag cannot tell: which candidate of a `<picture>` the
 * reference display uses, and whether an element shows its text slanted without a stylesheet.
 */
import type { Token } from 'parse5';
import type { HtmlRef } from './html-ref.js';
import { IMAGE_TYPES, mediaQueryMatches, pickCandidate } from './image-candidates.js';

/** Elements a browser's default style sheet makes italic (HTML §15.3.4, MathML Core's single-letter `mi`). */
const ITALIC_TAGS = new Set(['em', 'i', 'cite', 'var', 'dfn', 'address', 'mi']);
const SLANTED = /\b(italic|oblique)\b/i;

/** A `<source>` of a `<picture>`, with the ref its srcset became. */
export interface PictureSource {
  ref: HtmlRef;
  media?: string;
  type?: string;
  sizes?: string;
}

/**
 * Which of a `<picture>`'s candidates the reference display uses (HTML "select an image source"): the
 * first source whose type it decodes and whose media matches, else the `<img>`; undefined when a media
 * query before the winner cannot be read. Sets each source's `pick` accordingly.
 */
export function pictureChoice(sources: PictureSource[]): 'source' | 'img' | undefined {
  let winner: PictureSource | undefined;
  for (const s of sources) {
    if (s.type !== undefined && !IMAGE_TYPES.has(s.type.trim().toLowerCase())) continue;
    const matches = s.media === undefined ? true : mediaQueryMatches(s.media);
    if (matches === undefined) return undefined;
    if (matches) {
      winner = s;
      break;
    }
  }
  for (const s of sources) {
    if (s !== winner) s.ref.pick = '';
    else {
      const pick = pickCandidate(s.ref.v, { sizes: s.sizes });
      if (pick !== undefined) s.ref.pick = pick;
    }
  }
  return winner ? 'source' : 'img';
}

/** An element that shows its text slanted by default or by its own attributes. */
export function slantedTag(token: Token.TagToken): boolean {
  if (ITALIC_TAGS.has(token.tagName)) return true;
  for (const a of token.attrs)
    if ((a.name === 'style' || a.name === 'font-style') && SLANTED.test(a.value)) return true;
  return false;
}
