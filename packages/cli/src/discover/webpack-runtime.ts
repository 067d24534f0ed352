/**
 * Reads a webpack (or Rspack) runtime's chunk loading from its code: `__webpack_require__.u`, the function
 * that names a chunk's file from its id, and `__webpack_require__.p`, the public path the runtime puts in
 * front. Scripts the runtime adds this way are named nowhere in the HTML; with these, discovery names
 * them (docusaurus-routes.ts picks which chunks a page loads). The function is kept as a small expression
 * tree and evaluated here, never run: only string concatenation, template literals, `{…}[id]` look-ups
 * and `||` are understood, and anything else means the runtime is not read.
 */
import type { Node } from 'acorn';
import { simple } from 'acorn-walk';

/** The chunk file name function, as data (JSON, so a build cache can keep it). */
export type NameExpr =
  | { s: string }
  | { id: true }
  | { cat: NameExpr[] }
  | { map: Record<string, string>; key: NameExpr }
  | { or: [NameExpr, NameExpr] };

export interface WebpackRuntime {
  /** `__webpack_require__.p` as written ('/', '/repo/', 'https://cdn.example/'). */
  publicPath: string;
  name: NameExpr;
}

type AnyNode = Node & Record<string, unknown>;

/** A quick test that a script may be a webpack runtime, before paying for a parse. */
export function mayBeRuntime(source: string): boolean {
  return /[\w$]\.u\s*=/.test(source) && /[\w$]\.p\s*=/.test(source);
}

/**
 * The runtime's chunk loading, or undefined when `ast` has no `X.u = (id) => …` and `X.p = '…'` on the
 * same object (a public path computed at run time, 'auto', cannot be known).
 */
export function readRuntime(ast: Node): WebpackRuntime | undefined {
  const names = new Map<string, NameExpr>();
  const paths = new Map<string, string>();
  simple(ast, {
    AssignmentExpression(node) {
      const n = node as unknown as AnyNode;
      const left = n.left as AnyNode;
      if (n.operator !== '=' || left.type !== 'MemberExpression' || left.computed) return;
      const object = left.object as AnyNode;
      const property = left.property as AnyNode;
      if (object.type !== 'Identifier' || property.type !== 'Identifier') return;
      const owner = object.name as string;
      const right = n.right as AnyNode;
      // The first of each, as for `u`: minified code reuses short names for other objects later.
      if (property.name === 'p' && right.type === 'Literal' && typeof right.value === 'string' && !paths.has(owner))
        paths.set(owner, right.value);
      if (property.name === 'u' && !names.has(owner)) {
        const expr = nameFunction(right);
        if (expr) names.set(owner, expr);
      }
    },
  });
  for (const [owner, name] of names) {
    const publicPath = paths.get(owner);
    if (publicPath !== undefined && publicPath !== 'auto') return { publicPath, name };
  }
  return undefined;
}

/** A chunk's file name (relative to the public path), or undefined when the runtime names no file for it. */
export function chunkFile(runtime: WebpackRuntime, id: string): string | undefined {
  const value = evaluate(runtime.name, id);
  return value === undefined || value === '' ? undefined : value;
}

/** `(id) => expr` or `function (id) { return expr; }` as a NameExpr. */
function nameFunction(fn: AnyNode): NameExpr | undefined {
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') return undefined;
  const params = fn.params as AnyNode[];
  const param = params[0];
  if (params.length !== 1 || param?.type !== 'Identifier') return undefined;
  let body = fn.body as AnyNode;
  if (body.type === 'BlockStatement') {
    const statements = body.body as AnyNode[];
    const only = statements[0];
    if (statements.length !== 1 || only?.type !== 'ReturnStatement' || !only.argument) return undefined;
    body = only.argument as AnyNode;
  }
  return toExpr(body, param.name as string);
}

function toExpr(node: AnyNode, param: string): NameExpr | undefined {
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' || typeof node.value === 'number' ? { s: String(node.value) } : undefined;
    case 'Identifier':
      return node.name === param ? { id: true } : undefined;
    case 'BinaryExpression': {
      if (node.operator !== '+') return undefined;
      const left = toExpr(node.left as AnyNode, param);
      const right = toExpr(node.right as AnyNode, param);
      return left && right ? { cat: [left, right] } : undefined;
    }
    case 'LogicalExpression': {
      if (node.operator !== '||') return undefined;
      const left = toExpr(node.left as AnyNode, param);
      const right = toExpr(node.right as AnyNode, param);
      return left && right ? { or: [left, right] } : undefined;
    }
    case 'TemplateLiteral': {
      const parts: NameExpr[] = [];
      const quasis = node.quasis as AnyNode[];
      const expressions = node.expressions as AnyNode[];
      for (const [i, quasi] of quasis.entries()) {
        const cooked = (quasi.value as { cooked?: string | null }).cooked;
        if (typeof cooked !== 'string') return undefined;
        parts.push({ s: cooked });
        const e = expressions[i];
        if (e) {
          const part = toExpr(e, param);
          if (!part) return undefined;
          parts.push(part);
        }
      }
      return { cat: parts };
    }
    case 'MemberExpression': {
      if (!node.computed) return undefined;
      const map = literalMap(node.object as AnyNode);
      const key = toExpr(node.property as AnyNode, param);
      return map && key ? { map, key } : undefined;
    }
    default:
      return undefined;
  }
}

/** `{48: "a94703ab", common: "f07b2736"}` with literal keys and string values. */
function literalMap(node: AnyNode): Record<string, string> | undefined {
  if (node.type !== 'ObjectExpression') return undefined;
  const map: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const prop of node.properties as AnyNode[]) {
    if (prop.type !== 'Property' || prop.computed || prop.kind !== 'init') return undefined;
    const key = prop.key as AnyNode;
    const value = prop.value as AnyNode;
    const name = key.type === 'Identifier' ? (key.name as string) : key.type === 'Literal' ? String(key.value) : '';
    if (name === '' || value.type !== 'Literal' || typeof value.value !== 'string') return undefined;
    map[name] = value.value;
  }
  return map;
}

function evaluate(expr: NameExpr, id: string): string | undefined {
  if ('s' in expr) return expr.s;
  if ('id' in expr) return id;
  if ('cat' in expr) {
    let out = '';
    for (const part of expr.cat) {
      const value = evaluate(part, id);
      // `{…}[id]` of an id the map lacks is `undefined`: webpack would name "x.undefined.js", a file no
      // build wrote (the chunk is one the runtime never loads, such as the entry's own).
      if (value === undefined) return undefined;
      out += value;
    }
    return out;
  }
  if ('map' in expr) {
    const key = evaluate(expr.key, id);
    return key !== undefined && Object.hasOwn(expr.map, key) ? expr.map[key] : undefined;
  }
  const left = evaluate(expr.or[0], id);
  return left !== undefined && left !== '' ? left : evaluate(expr.or[1], id);
}
