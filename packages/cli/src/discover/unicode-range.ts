/**
 * Which `@font-face` subsets a page can use. Sites split fonts by script with `unicode-range` (VitePress
 * ships 14 Inter subsets, 643 KB; Google Fonts splits CJK faces into ~100), and a browser downloads a
 * subset only when the page has a character in its range. Packaging every subset would send a VitePress
 * page ~575 KB of fonts its browser never asks for.
 */

/** Inclusive code point ranges. */
export type CodeRanges = Array<[number, number]>;

// Every page is assumed to show ASCII text (markup alone is no proof, but a page without any is rare, and
// a wrongly kept subset only costs bytes while a wrongly dropped one costs a round trip).
const ASCII_TEXT: [number, number] = [0x20, 0x7e];
const NON_ASCII = /[^\0-\x7f]/;

/**
 * One `unicode-range` value from css-tree ('U+0000-00FF', 'U+4??', 'U+0131'); undefined if invalid, which
 * makes the whole descriptor invalid (https://drafts.csswg.org/css-fonts/#unicode-range-desc).
 */
export function parseUnicodeRange(token: string): [number, number] | undefined {
  const m = /^u\+([0-9a-f]{0,6}\?{0,6})(?:-([0-9a-f]{1,6}))?$/i.exec(token);
  if (!m || m[1] === undefined || m[1].length === 0 || m[1].length > 6) return undefined;
  const first = m[1];
  let lo: number;
  let hi: number;
  if (first.includes('?')) {
    if (m[2] !== undefined) return undefined;
    lo = parseInt(first.replace(/\?/g, '0'), 16);
    hi = parseInt(first.replace(/\?/g, 'f'), 16);
  } else {
    lo = parseInt(first, 16);
    hi = m[2] === undefined ? lo : parseInt(m[2], 16);
  }
  if (hi < lo || lo > 0x10ffff) return undefined;
  return [lo, Math.min(hi, 0x10ffff)];
}

/** Adds the non-ASCII characters of `text` to `into` (ASCII is assumed present on every page). */
export function addNonAscii(into: Set<string>, text: string): void {
  const first = text.search(NON_ASCII);
  if (first < 0) return;
  for (const ch of text.slice(first)) if (ch.charCodeAt(0) > 0x7f) into.add(ch);
}

/** The set as a compact, deterministic string for JSON (cache, worker messages). */
export function charsOf(set: Set<string>): string | undefined {
  return set.size === 0 ? undefined : [...set].sort().join('');
}

/** Whether a face with these ranges serves any character of the page (`chars`: non-ASCII code points). */
export function rangesUsed(ranges: CodeRanges, chars: ReadonlySet<number>): boolean {
  for (const [lo, hi] of ranges) {
    if (lo <= ASCII_TEXT[1] && hi >= ASCII_TEXT[0]) return true;
  }
  for (const cp of chars) {
    for (const [lo, hi] of ranges) if (cp >= lo && cp <= hi) return true;
  }
  return false;
}

/** Adds the code points of a `charsOf` string to `into`. */
export function addCodePoints(into: Set<number>, chars: string | undefined): void {
  if (chars === undefined) return;
  for (const ch of chars) into.add(ch.codePointAt(0) as number);
}
