/**
 * References in a stylesheet (or a style attribute), found with css-tree rather than regexes so comments,
 * strings and escapes are read as a browser reads them.
 */
// The one-file build of the same css-tree: loading its ~150 separate modules is a large share of a one-page
// incremental rebuild and delays every parser thread's start (benchmarks/build/README.md).
import { generate, parse, walk } from 'css-tree/dist/csstree.esm';
import type { CssNode, Declaration, FunctionNode, Rule, WalkContext } from 'css-tree';
import { fontFace } from './font-face.js';
import { imageSetPick } from './image-set.js';
import { addCssText, addNonAscii, charsOf } from './unicode-range.js';
import type { CodeRanges } from './unicode-range.js';

export interface CssRef {
  /** 'import' → a stylesheet; 'font' → the @font-face source a browser picks; 'image' → any other url(). */
  k: 'import' | 'font' | 'image';
  v: string;
  line: number;
  /** For fonts: further `src` candidates the browser falls back to if `v` fails. */
  alts?: string[];
  /** For fonts: the face's family, lower-cased (`inter`). */
  family?: string;
  /** For fonts: the face is italic or oblique (`font-style`), for pages with no slanted text to leave out. */
  slanted?: true;
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
  /** Selectors of style rules that make text italic or oblique (`font-style`, `font`), as written. */
  slanted?: string[];
}

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
  const slanted = new Set<string>();
  const picks = new WeakMap<FunctionNode, CssNode | null>();
  /** An image-set() candidate: the one the reference display picks, or one for another density. */
  const setCandidate = (set: FunctionNode, node: CssNode): string => {
    let pick = picks.get(set);
    if (pick === undefined) picks.set(set, (pick = imageSetPick(set)));
    return pick === null || pick === node ? 'srcset-candidate' : 'other-density';
  };

  walk(ast, {
    enter(this: WalkContext, node: CssNode) {
      if (node.type === 'Atrule') {
        const name = node.name.toLowerCase();
        if (name === 'namespace') return walk.skip; // a namespace URL names, it is never fetched
        if (name === 'font-face') {
          const face = fontFace(node);
          if (face) out.refs.push({ k: 'font', ...face });
        }
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
        const property = node.property.toLowerCase();
        // The face's sources were read with its other descriptors (font-face.ts).
        if (this.atrule?.name.toLowerCase() === 'font-face' && property === 'src') return walk.skip;
        const styling = property === 'font-style' || property === 'font';
        if (styling && this.rule && slants(node)) slanted.add(selectorOf(this.rule));
        // Custom properties stay unparsed (parseCustomProperty: false), and any of them may end up in a
        // `content` (VitePress: --vp-code-copy-copied-text-content: "Copied").
        if (node.value.type === 'Raw' && !langOnly(this.rule)) addCssText(rendered, node.value.value);
        return undefined;
      }
      const fn = this.function;
      const set = fn?.type === 'Function' && IMAGE_SET.has(fn.name.toLowerCase()) ? fn : undefined;
      if (node.type === 'Url') {
        const ref: CssRef = { k: 'image', v: node.value, line: lineOf(node) };
        if (set) ref.cond = setCandidate(set, node);
        out.refs.push(ref);
        return undefined;
      }
      if (node.type === 'String') {
        if (set) {
          out.refs.push({ k: 'image', v: node.value, line: lineOf(node), cond: setCandidate(set, node) });
        } else {
          // Strings a sheet can render: content, quotes, list-style-type, @counter-style symbols… (a
          // font-family name too: a subset kept for nothing costs bytes, one dropped costs a round trip).
          if (!langOnly(this.rule)) addNonAscii(rendered, node.value);
        }
      }
      return undefined;
    },
  });

  const chars = charsOf(rendered);
  if (chars !== undefined) out.chars = chars;
  if (slanted.size > 0) out.slanted = [...slanted];
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

/**
 * A declaration that may make text italic or oblique: `font-style` or the `font` shorthand naming `italic`
 * or `oblique`, or taking a value from a custom property (unknown until computed, so counted).
 */
function slants(node: Declaration): boolean {
  const text = node.value.type === 'Raw' ? node.value.value : generate(node.value);
  return /\b(italic|oblique)\b|var\(/i.test(text);
}

function selectorOf(rule: Rule): string {
  return rule.prelude.type === 'Raw' ? rule.prelude.value.trim() : generate(rule.prelude);
}
