/**
 * Whether a rule that slants text can apply to a page: its selectors matched with css-select against the
 * page's tree as parse5 builds it (the tree a browser builds), with pseudo-classes and pseudo-elements
 * left out, which only widens a selector (`a:hover em` counts wherever `a em` matches). A selector this
 * cannot read counts as matching.
 */
import { generate, parse } from 'css-tree/dist/csstree.esm';
import type { CssNode } from 'css-tree';
import { selectOne } from 'css-select';
import { parse as parseHtml } from 'parse5';
import { adapter } from 'parse5-htmlparser2-tree-adapter';

/** True when some element of the page matches one of the selector lists. */
export function anySelectorMatches(html: string, selectorLists: readonly string[]): boolean {
  const widened: string[] = [];
  for (const list of selectorLists) {
    const w = widen(list);
    if (w === undefined) return true;
    widened.push(...w);
  }
  if (widened.length === 0) return false;
  const doc = parseHtml(html, { treeAdapter: adapter });
  for (const selector of widened) {
    try {
      if (selectOne(selector, doc) !== null) return true;
    } catch {
      return true;
    }
  }
  return false;
}

/** Each selector of a list without its pseudo-classes and pseudo-elements (an emptied compound is `*`). */
export function widen(list: string): string[] | undefined {
  if (list.includes('&')) return undefined; // nested rules depend on their parent's selector
  let ast: CssNode;
  try {
    ast = parse(list, {
      context: 'selectorList',
      onParseError: () => {
        throw new Error('selector');
      },
    });
  } catch {
    return undefined;
  }
  if (ast.type !== 'SelectorList') return undefined;
  const out: string[] = [];
  ast.children.forEach((node) => {
    if (node.type !== 'Selector') return;
    let text = '';
    let compound = '';
    const flush = () => {
      text += compound === '' ? '*' : compound;
      compound = '';
    };
    node.children.forEach((c) => {
      if (c.type === 'Combinator') {
        flush();
        text += c.name === ' ' ? ' ' : ` ${c.name} `;
      } else if (c.type !== 'PseudoClassSelector' && c.type !== 'PseudoElementSelector') {
        compound += generate(c);
      }
    });
    flush();
    out.push(text);
  });
  return out;
}
