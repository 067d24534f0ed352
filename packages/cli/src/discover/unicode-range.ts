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
const NON_ASCII_RUNS = /[^\0-\x7f]+/g;
// A CSS escape (https://drafts.csswg.org/css-syntax/#consume-escaped-code-point), for unparsed values.
const CSS_ESCAPE = /\\([0-9a-fA-F]{1,6})\s?/g;

/**
 * One `unicode-range` value from css-tree ('U+0000-00FF', 'U+4??', 'U+0131'); undefined if invalid, which
 * makes the whole descriptor invalid (https://drafts.csswg.org/css-fonts/#unicode-range-desc). As in
 * Chromium, a range reaching past U+10FFFF is invalid too (the spec would clamp it).
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
  if (hi < lo || hi > 0x10ffff) return undefined;
  return [lo, hi];
}

/** Adds the non-ASCII characters of `text` to `into` (ASCII is assumed present on every page). */
export function addNonAscii(into: Set<string>, text: string): void {
  for (const run of text.matchAll(NON_ASCII_RUNS)) for (const ch of run[0]) into.add(ch);
}

/** Adds the non-ASCII characters of CSS source text that css-tree left unparsed, escapes decoded. */
export function addCssText(into: Set<string>, text: string): void {
  addNonAscii(into, text);
  for (const m of text.matchAll(CSS_ESCAPE)) {
    const cp = parseInt(m[1] as string, 16);
    if (cp > 0x7f && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff)) into.add(String.fromCodePoint(cp));
  }
}

/** The set as a compact, deterministic string for JSON (cache, worker messages). */
export function charsOf(set: Set<string>): string | undefined {
  return set.size === 0 ? undefined : [...set].sort().join('');
}

/**
 * Whether a face with these ranges serves any character of the page (`chars`: its non-ASCII code points,
 * sorted, see sortedCodePoints). A binary search per range: CJK faces come in ~100 subsets of hundreds of
 * ranges each, and CJK pages have thousands of distinct characters.
 */
export function rangesUsed(ranges: CodeRanges, chars: Uint32Array): boolean {
  for (const [lo, hi] of ranges) {
    if (lo <= ASCII_TEXT[1] && hi >= ASCII_TEXT[0]) return true;
    let a = 0;
    let b = chars.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if ((chars[m] as number) < lo) a = m + 1;
      else b = m;
    }
    if (a < chars.length && (chars[a] as number) <= hi) return true;
  }
  return false;
}

/** The code points of `charsOf` strings, sorted for rangesUsed. */
export function sortedCodePoints(...sources: Array<string | undefined>): Uint32Array {
  const set = new Set<number>();
  for (const chars of sources) if (chars !== undefined) for (const ch of chars) set.add(ch.codePointAt(0) as number);
  return Uint32Array.from(set).sort();
}
