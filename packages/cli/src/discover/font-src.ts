/**
 * Which file of an `@font-face` a browser downloads, read as CSS Fonts 4 "Parsing the src descriptor" says
 * (https://drafts.csswg.org/css-fonts-4/#font-face-src-parsing): each comma-separated source is kept only
 * when it parses and its `format()`/`tech()` hints name something the browser supports; a descriptor left
 * with none is invalid (an earlier `src` then applies, which is how the "bulletproof" two-`src` pattern
 * works); the browser then tries the kept sources in order. Support is that of every browser with service
 * workers (Chromium's list: woff2, woff, opentype, truetype and their `-variations` forms); Embedded
 * OpenType and SVG fonts are never loaded, and a source without a format hint is judged by its extension.
 */
import type { CssNode, List } from 'css-tree';

/** The sources of one valid `src` descriptor a browser may download, in the order it tries them. */
export interface FontSrc {
  urls: string[];
}

const FORMATS = new Set([
  'woff2',
  'woff',
  'opentype',
  'truetype',
  'woff2-variations',
  'woff-variations',
  'opentype-variations',
  'truetype-variations',
]);
/** `format()` keywords the grammar accepts, supported or not (an unknown one is a parse error). */
const FORMAT_KEYWORDS = new Set(['collection', 'embedded-opentype', 'opentype', 'svg', 'truetype', 'woff', 'woff2']);
/** `tech()` keywords Chromium supports (it lacks color-SVG, features-graphite and incremental). */
const TECHS = new Set([
  'features-opentype',
  'features-aat',
  'color-colrv0',
  'color-colrv1',
  'color-sbix',
  'color-cbdt',
  'variations',
  'palettes',
]);
const TECH_KEYWORDS = new Set([...TECHS, 'features-graphite', 'color-svg', 'incremental']);
/** Extensions of files no browser with service workers loads as a font: Embedded OpenType and SVG fonts. */
const NEVER = /\.(eot|svgz?)$/i;

type Verdict = 'url' | 'local' | 'skip';

/**
 * Reads one `src` value. Returns undefined when the descriptor is invalid (no source a browser supports,
 * `local()` included), else the URLs in the order the browser tries them (empty: only `local()` fonts).
 */
export function fontSrc(children: List<CssNode>, important: boolean): FontSrc | undefined {
  if (important) return undefined; // `!important` is not allowed in a descriptor: the declaration is dropped
  const parts: CssNode[][] = [[]];
  children.forEach((c) => {
    if (c.type === 'Operator' && c.value === ',') parts.push([]);
    else parts[parts.length - 1]!.push(c);
  });
  const urls: string[] = [];
  let valid = false;
  for (const part of parts) {
    const source = part.filter((c) => c.type !== 'WhiteSpace');
    const verdict = judge(source);
    if (verdict === 'skip') continue;
    valid = true;
    if (verdict === 'url') urls.push((source[0] as { value: string }).value);
  }
  return valid ? { urls } : undefined;
}

/** One source: `<url> [format(…)]? [tech(…)]?` or `local(<family-name>)`. */
function judge(source: CssNode[]): Verdict {
  const [head, ...hints] = source;
  if (!head) return 'skip';
  if (head.type === 'Function' && head.name.toLowerCase() === 'local')
    return hints.length === 0 && localName(head) ? 'local' : 'skip';
  if (head.type !== 'Url') return 'skip';
  let format: string | undefined;
  let techs: string[] | undefined;
  for (const hint of hints) {
    if (hint.type !== 'Function') return 'skip';
    const name = hint.name.toLowerCase();
    if (name === 'format' && format === undefined && techs === undefined) {
      format = formatOf(hint);
      if (format === undefined) return 'skip';
    } else if (name === 'tech' && techs === undefined) {
      techs = techsOf(hint);
      if (techs === undefined) return 'skip';
    } else {
      return 'skip';
    }
  }
  if (format !== undefined && !FORMATS.has(format)) return 'skip';
  if (techs !== undefined && !techs.every((t) => TECHS.has(t))) return 'skip';
  if (format === undefined && NEVER.test(head.value.split(/[?#]/)[0]!)) return 'skip';
  return 'url';
}

/** The one format a `format()` names (a string is any format; a keyword must be one of the grammar's). */
function formatOf(fn: CssNode & { type: 'Function' }): string | undefined {
  const args = fn.children.toArray().filter((c) => c.type !== 'WhiteSpace');
  if (args.length !== 1) return undefined;
  const [arg] = args;
  if (arg?.type === 'String') return arg.value.toLowerCase();
  if (arg?.type === 'Identifier' && FORMAT_KEYWORDS.has(arg.name.toLowerCase())) return arg.name.toLowerCase();
  return undefined;
}

/** The keywords of a `tech()` list, or undefined when it is not one. */
function techsOf(fn: CssNode & { type: 'Function' }): string[] | undefined {
  const out: string[] = [];
  let expectName = true;
  for (const c of fn.children.toArray()) {
    if (c.type === 'WhiteSpace') continue;
    if (expectName && c.type === 'Identifier' && TECH_KEYWORDS.has(c.name.toLowerCase()))
      out.push(c.name.toLowerCase());
    else if (!expectName && c.type === 'Operator' && c.value === ',') {
      // next keyword
    } else return undefined;
    expectName = !expectName;
  }
  return out.length > 0 && !expectName ? out : undefined;
}

/** `local()` takes a family name: one string, or identifiers. */
function localName(fn: CssNode & { type: 'Function' }): boolean {
  const args = fn.children.toArray().filter((c) => c.type !== 'WhiteSpace');
  if (args.length === 1 && args[0]!.type === 'String') return true;
  return args.length > 0 && args.every((c) => c.type === 'Identifier');
}
