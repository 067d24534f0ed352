/**
 * References in a stylesheet (or a style attribute), found with css-tree rather than regexes so comments,
 * strings and escapes are read as a browser reads them.
 */
// The one-file build of the same css-tree: its ~150 separate modules took 100–150 ms to load, a sixth of
// an incremental rebuild's budget (issue 3) and a delay on every parser thread's start.
import { generate, parse, walk } from 'css-tree/dist/csstree.esm';
import type { Atrule, CssNode, FunctionNode, List, Rule, WalkContext } from 'css-tree';
import { addCssText, addNonAscii, charsOf, parseUnicodeRange } from './unicode-range.js';
import type { CodeRanges } from './unicode-range.js';

export interface CssRef {
  /** 'import' → a stylesheet; 'font' → the @font-face source a browser picks; 'image' → any other url(). */
  k: 'import' | 'font' | 'image';
  v: string;
  line: number;
  /** For fonts: further `src` candidates the browser falls back to if `v` fails. */
  alts?: string[];
  cond?: string;
  /** The media query list of an @import, if any. */
  media?: string;
  /** For fonts: the @font-face's valid `unicode-range` (absent: every character). */
  range?: CodeRanges;
}

export interface CssExtract {
  refs: CssRef[];
  parseErrors: number;
  firstError?: { message: string; line: number; column: number };
  /** Non-ASCII characters the sheet itself renders (`content`, `quotes`), for choosing font subsets. */
  chars?: string;
}

// Formats Chromium loads; a `src` candidate with any other format() hint is skipped by the browser.
const FONT_FORMATS = new Set(['woff2', 'woff', 'truetype', 'opentype', 'collection', 'woff2-variations', 'woff-variations', 'truetype-variations', 'opentype-variations']);
const IMAGE_SET = new Set(['image-set', '-webkit-image-set']);

/** Extracts references from CSS text; `declarations` parses a style attribute's content. */
export function extractCss(source: string, declarations = false): CssExtract {
  const out: CssExtract = { refs: [], parseErrors: 0 };
  let ast: CssNode;
  try {
    ast = parse(source, {
      context: declarations ? 'declarationList' : 'stylesheet',
      positions: true,
      parseRulePrelude: false,
      parseCustomProperty: false,
      onParseError(err) {
        out.parseErrors++;
        const e = err as unknown as { message: string; line?: number; column?: number };
        out.firstError ??= { message: e.message, line: e.line ?? 1, column: e.column ?? 1 };
      },
    });
  } catch (err) {
    out.parseErrors++;
    out.firstError ??= { message: (err as Error).message, line: 1, column: 1 };
    return out;
  }
  const lineOf = (node: CssNode) => node.loc?.start.line ?? 1;
  const rendered = new Set<string>();
  let faceRange: CodeRanges | undefined;

  walk(ast, {
    enter(this: WalkContext, node: CssNode) {
      if (node.type === 'Atrule') {
        const name = node.name.toLowerCase();
        if (name === 'namespace') return walk.skip; // a namespace URL names, it is never fetched
        if (name === 'font-face') faceRange = unicodeRange(node);
        if (name === 'import' && node.prelude && node.prelude.type === 'AtrulePrelude') {
          const first = node.prelude.children.first;
          if (first && (first.type === 'String' || first.type === 'Url')) {
            const ref: CssRef = { k: 'import', v: first.value, line: lineOf(node) };
            node.prelude.children.forEach((c) => {
              if (c.type === 'MediaQueryList') ref.media = generate(c);
            });
            out.refs.push(ref);
          }
          return walk.skip;
        }
        return undefined;
      }
      if (node.type === 'Declaration') {
        if (this.atrule?.name.toLowerCase() === 'font-face' && node.property.toLowerCase() === 'src' && node.value.type === 'Value') {
          fontSources(node.value.children, lineOf(node));
          return walk.skip;
        }
        // Custom properties stay unparsed (parseCustomProperty: false), and any of them may end up in a
        // `content` (VitePress: --vp-code-copy-copied-text-content: "Copied").
        if (node.value.type === 'Raw' && !langOnly(this.rule)) addCssText(rendered, node.value.value);
        return undefined;
      }
      if (node.type === 'Url') {
        const inSet = this.function !== null && IMAGE_SET.has(this.function.name.toLowerCase());
        const ref: CssRef = { k: 'image', v: node.value, line: lineOf(node) };
        if (inSet) ref.cond = 'srcset-candidate';
        out.refs.push(ref);
        return undefined;
      }
      if (node.type === 'String') {
        if (this.function !== null && IMAGE_SET.has(this.function.name.toLowerCase())) {
          out.refs.push({ k: 'image', v: node.value, line: lineOf(node), cond: 'srcset-candidate' });
        } else {
          // Strings a sheet can render: content, quotes, list-style-type, @counter-style symbols… (a
          // font-family name too: a subset kept for nothing costs bytes, one dropped costs a round trip).
          if (!langOnly(this.rule)) addNonAscii(rendered, node.value);
        }
      }
      return undefined;
    },
  });

  function fontSources(children: List<CssNode>, line: number) {
    const urls: string[] = [];
    let url: string | undefined;
    let supported = true;
    const flush = () => {
      if (url !== undefined && supported) urls.push(url);
      url = undefined;
      supported = true;
    };
    children.forEach((child) => {
      if (child.type === 'Operator' && child.value === ',') flush();
      else if (child.type === 'Url') url = child.value;
      else if (child.type === 'Function' && child.name.toLowerCase() === 'format') supported = formatSupported(child);
    });
    flush();
    const [first, ...alts] = urls;
    if (first === undefined) return;
    const ref: CssRef = { k: 'font', v: first, line };
    if (alts.length > 0) ref.alts = alts;
    if (faceRange) ref.range = faceRange;
    out.refs.push(ref);
  }
  const chars = charsOf(rendered);
  if (chars !== undefined) out.chars = chars;
  return out;
}

/**
 * A rule for pages in another language (`:lang(ru) { --copied: "Скопировано" }`, VitePress's translations
 * of its own UI): a page in that language shows such characters in its own text, and every other page
 * would otherwise carry that script's subsets for nothing.
 */
function langOnly(rule: Rule | null): boolean {
  return rule?.prelude.type === 'Raw' && /:lang\(/i.test(rule.prelude.value);
}

/** The last valid `unicode-range` descriptor of an @font-face block (an invalid one counts as absent). */
function unicodeRange(face: Atrule): CodeRanges | undefined {
  let found: CodeRanges | undefined;
  face.block?.children.forEach((d) => {
    if (d.type !== 'Declaration' || d.property.toLowerCase() !== 'unicode-range' || d.value.type !== 'Value') return;
    // Exactly `range (, range)*`; `!important` invalidates a descriptor (Chromium drops it, then an earlier
    // valid one applies).
    if (d.important) return;
    const ranges: CodeRanges = [];
    let valid = true;
    let i = 0;
    d.value.children.forEach((c) => {
      if (i++ % 2 === 0) {
        const r = c.type === 'UnicodeRange' ? parseUnicodeRange(c.value) : undefined;
        if (r) ranges.push(r);
        else valid = false;
      } else if (!(c.type === 'Operator' && c.value === ',')) valid = false;
    });
    if (valid && i % 2 === 1) found = ranges;
  });
  return found;
}

function formatSupported(fn: FunctionNode): boolean {
  let ok = false;
  fn.children.forEach((c) => {
    if (c.type === 'String' || c.type === 'Identifier') {
      const v = (c.type === 'String' ? c.value : c.name).toLowerCase();
      if (FONT_FORMATS.has(v)) ok = true;
    }
  });
  return ok;
}
