/**
 * Which literal `import()` calls of a module run while it loads: those outside any function (top-level
 * statements, `await import()`), or in a function called on the spot (an IIFE). The rest run when some
 * code calls them (an event handler, a router, a lazy component: VitePress's search box), so their
 * targets go to the later tier. Parsed with acorn only for modules that have such calls.
 */
import { parse } from 'acorn';
import { ancestor } from 'acorn-walk';
import type { Node } from 'acorn';

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/**
 * Start offsets (of the `import` keyword) of the dynamic imports that run on load; undefined when the
 * module cannot be parsed (every one then counts as running on load).
 */
export function eagerImportStarts(source: string): Set<number> | undefined {
  let ast: Node;
  try {
    ast = parse(source, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true });
  } catch {
    return undefined;
  }
  const eager = new Set<number>();
  ancestor(ast, {
    ImportExpression(node, _state, ancestors) {
      const path = ancestors as Node[];
      const deferred = path.some((a, i) => FUNCTIONS.has(a.type) && !calledAtOnce(a, path[i - 1]));
      if (!deferred) eager.add(node.start);
    },
  });
  return eager;
}

/** A function that is the callee of the call around it (`(() => …)()`, `(async function () {…})()`). */
function calledAtOnce(fn: Node, parent: Node | undefined): boolean {
  return parent?.type === 'CallExpression' && (parent as Node & { callee: Node }).callee === fn;
}
