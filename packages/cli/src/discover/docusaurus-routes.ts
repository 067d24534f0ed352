/**
 * Docusaurus's route table, read from its main bundle: which webpack chunks a page loads before it
 * hydrates. Docusaurus's client matches the location against its nested routes (react-router-config's
 * `matchRoutes`: the first route of each level that matches, then its children) and loads, for every
 * matched route, the chunks its `routesChunkNames` entry names, through the chunk registry
 * (`{name: [() => Promise.all([n.e(76), n.e(401)]).then(…), '@theme/DocItem', id]}`); a location no route
 * matches gets the `*` route, whose `@theme/NotFound` chunk the route component loads itself. The runtime
 * computes these scripts' URLs, so nothing in the HTML names them (webpack-runtime.ts names them).
 */
import type { Node } from 'acorn';
import { simple } from 'acorn-walk';
import pathToRegexp from 'path-to-regexp';

export interface RouteNode {
  path: string;
  exact?: true;
  strict?: true;
  sensitive?: true;
  /** `path-hash`, the key of the route's entry in `routesChunkNames`; none for `*`. */
  key?: string;
  routes?: RouteNode[];
}

export interface DocusaurusRoutes {
  routes: RouteNode[];
  /** Route key → the chunk names its entry names (every string in it: `__comp`, `content`, `items[].content`…). */
  chunkNames: Record<string, string[]>;
  /** Chunk name → the webpack chunk ids its loader asks for (`n.e(id)`). */
  registry: Record<string, string[]>;
  /** Chunk ids the `*` route's component loads. */
  notFound: string[];
}

type AnyNode = Node & Record<string, unknown>;

/** A quick test that a script may hold a Docusaurus route table, before paying for a parse. */
export function mayHoldRoutes(source: string): boolean {
  return source.includes('__comp') && source.includes('component:');
}

/** The route table in a parsed main bundle; undefined when it lacks the routes, their chunk names or the registry. */
export function readRoutes(ast: Node): DocusaurusRoutes | undefined {
  let chunkNames: Record<string, string[]> | undefined;
  const registry: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  const notFound: string[] = [];
  const routeArrays: AnyNode[] = [];
  simple(ast, {
    CallExpression(node) {
      chunkNames ??= chunkNamesOf(node as unknown as AnyNode);
    },
    ObjectExpression(node) {
      const n = node as unknown as AnyNode;
      chunkNames ??= chunkNamesOfObject(n);
      for (const prop of n.properties as AnyNode[]) {
        const entry = registryEntry(prop);
        if (entry) registry[entry[0]] = entry[1];
      }
    },
    ArrayExpression(node) {
      const n = node as unknown as AnyNode;
      const elements = n.elements as Array<AnyNode | null>;
      if (elements.length > 0 && elements.every((e) => e !== null && routeOf(e, false) !== undefined))
        routeArrays.push(n);
    },
    IfStatement(node) {
      notFound.push(...notFoundIds(node as unknown as AnyNode));
    },
    ConditionalExpression(node) {
      notFound.push(...notFoundIds(node as unknown as AnyNode));
    },
  });
  // The top-level array is the one no route holds as its `routes`.
  const nested = new Set<AnyNode>();
  for (const array of routeArrays)
    for (const element of array.elements as AnyNode[]) {
      const children = propertyOf(element, 'routes');
      if (children) nested.add(children);
    }
  const top = routeArrays.find((a) => !nested.has(a));
  if (!top || !chunkNames || Object.keys(registry).length === 0) return undefined;
  const routes = (top.elements as AnyNode[]).map((e) => routeOf(e, true)!);
  return { routes, chunkNames, registry, notFound: [...new Set(notFound)] };
}

/**
 * The chunk ids a page at `pathname` loads before it hydrates, in the order Docusaurus asks for them;
 * undefined when no route (not even `*`) matches.
 */
export function routeChunkIds(table: DocusaurusRoutes, pathname: string): string[] | undefined {
  const branch: RouteNode[] = [];
  matchRoutes(table.routes, pathname, branch);
  if (branch.length === 0) return undefined;
  const ids: string[] = [];
  for (const route of branch) {
    if (route.key === undefined) {
      if (route.path === '*') ids.push(...table.notFound);
      continue;
    }
    for (const name of table.chunkNames[route.key] ?? []) ids.push(...(table.registry[name] ?? []));
  }
  return [...new Set(ids)];
}

/** Whether `pathname` takes an exact route of the table (a page's own), not only a parent's or `*`. */
export function matchesPage(table: DocusaurusRoutes, pathname: string): boolean {
  const branch: RouteNode[] = [];
  matchRoutes(table.routes, pathname, branch);
  const leaf = branch[branch.length - 1];
  return leaf?.exact === true && leaf.key !== undefined;
}

/** react-router-config's `matchRoutes`: at each level the first route that matches, then its children. */
function matchRoutes(routes: RouteNode[], pathname: string, branch: RouteNode[]): void {
  for (const route of routes) {
    if (!matchPath(route, pathname)) continue;
    branch.push(route);
    if (route.routes) matchRoutes(route.routes, pathname, branch);
    return;
  }
}

/**
 * Each route's compiled path, once per build: every page walks the same table, and compiling every route for
 * every page would be quadratic in the site's size. `null`: the path does not compile.
 */
const compiled = new WeakMap<RouteNode, RegExp | null>();

/** react-router 5's `matchPath`, which compiles paths with path-to-regexp 1 as this does. */
function matchPath(route: RouteNode, pathname: string): boolean {
  let re = compiled.get(route);
  if (re === undefined) {
    try {
      re = pathToRegexp(route.path, [], {
        end: route.exact === true,
        strict: route.strict === true,
        sensitive: route.sensitive === true,
      });
    } catch {
      re = null;
    }
    compiled.set(route, re);
  }
  return re !== null && re.test(pathname);
}

/** `JSON.parse('{"/docs-06e":{"__comp":"5e95c892",…}}')`, as production builds write routesChunkNames. */
function chunkNamesOf(call: AnyNode): Record<string, string[]> | undefined {
  const callee = call.callee as AnyNode;
  const args = call.arguments as AnyNode[];
  const arg = args[0];
  if (
    callee.type !== 'MemberExpression' ||
    (callee.object as AnyNode).name !== 'JSON' ||
    (callee.property as AnyNode).name !== 'parse' ||
    arg?.type !== 'Literal' ||
    typeof arg.value !== 'string' ||
    !arg.value.includes('__comp')
  )
    return undefined;
  let value: unknown;
  try {
    value = JSON.parse(arg.value);
  } catch {
    return undefined;
  }
  return chunkNamesFrom(value);
}

/** The same table as an object literal (a build that does not turn large literals into `JSON.parse`). */
function chunkNamesOfObject(node: AnyNode): Record<string, string[]> | undefined {
  const first = (node.properties as AnyNode[])[0];
  const value = first?.type === 'Property' ? (first.value as AnyNode) : undefined;
  // Only the first entry's own keys are looked at here: converting every object's first value would be
  // quadratic in a bundle's nested data.
  if (value?.type !== 'ObjectExpression' || !propertyOf(value, '__comp')) return undefined;
  return chunkNamesFrom(literalValue(node));
}

function chunkNamesFrom(value: unknown): Record<string, string[]> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  let routes = 0;
  for (const [key, entry] of Object.entries(value)) {
    if (!entry || typeof entry !== 'object' || !('__comp' in entry)) continue;
    out[key] = strings(entry);
    routes++;
  }
  return routes > 0 ? out : undefined;
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** A literal (object, array, string, number, boolean, null) as a value; undefined for anything computed. */
function literalValue(node: AnyNode): unknown {
  if (node.type === 'Literal') return node.value;
  if (node.type === 'ArrayExpression') {
    const out: unknown[] = [];
    for (const e of node.elements as Array<AnyNode | null>) {
      const v = e ? literalValue(e) : undefined;
      if (v === undefined) return undefined;
      out.push(v);
    }
    return out;
  }
  if (node.type !== 'ObjectExpression') return undefined;
  const out: Record<string, unknown> = {};
  for (const prop of node.properties as AnyNode[]) {
    const name = propertyName(prop);
    const v = name === undefined ? undefined : literalValue(prop.value as AnyNode);
    if (name === undefined || v === undefined) return undefined;
    out[name] = v;
  }
  return out;
}

/** `name: [() => …n.e(id)…, 'module', …]`: a registry entry, as [name, chunk ids]. */
function registryEntry(prop: AnyNode): [string, string[]] | undefined {
  const name = propertyName(prop);
  const value = prop.value as AnyNode | undefined;
  if (name === undefined || value?.type !== 'ArrayExpression') return undefined;
  const [loader, module] = value.elements as Array<AnyNode | null>;
  if (
    !loader ||
    (loader.type !== 'ArrowFunctionExpression' && loader.type !== 'FunctionExpression') ||
    module?.type !== 'Literal' ||
    typeof module.value !== 'string'
  )
    return undefined;
  return [name, chunkIds(loader)];
}

/** Every `x.e(id)` (webpack's `__webpack_require__.e`, which loads a chunk) under a node. */
function chunkIds(node: AnyNode): string[] {
  const ids: string[] = [];
  simple(node, {
    CallExpression(call) {
      const c = call as unknown as AnyNode;
      const callee = c.callee as AnyNode;
      const args = c.arguments as AnyNode[];
      const arg = args[0];
      if (
        callee.type === 'MemberExpression' &&
        !callee.computed &&
        (callee.property as AnyNode).name === 'e' &&
        args.length === 1 &&
        arg?.type === 'Literal' &&
        (typeof arg.value === 'number' || typeof arg.value === 'string')
      )
        ids.push(String(arg.value));
    },
  });
  return ids;
}

/**
 * The chunk ids of ComponentCreator's branch for the catch-all route: `if ("*" === path) return Loadable({…,
 * modules: ["@theme/NotFound"]})`. A `"*"` test elsewhere in the bundle (vendor code) names no NotFound module.
 */
function notFoundIds(branch: AnyNode): string[] {
  if (!isStarTest(branch.test as AnyNode)) return [];
  const consequent = branch.consequent as AnyNode;
  let names = false;
  simple(consequent, {
    Literal(node) {
      const v = (node as unknown as AnyNode).value;
      if (typeof v === 'string' && v.startsWith('@theme/NotFound')) names = true;
    },
  });
  return names ? chunkIds(consequent) : [];
}

/** `"*" === path`. */
function isStarTest(test: AnyNode): boolean {
  if (test.type !== 'BinaryExpression' || (test.operator !== '===' && test.operator !== '==')) return false;
  const star = (n: AnyNode) => n.type === 'Literal' && n.value === '*';
  return star(test.left as AnyNode) || star(test.right as AnyNode);
}

/**
 * `{path: '/docs', component: f('/docs', '06e'), routes: […], exact: !0}`; `deep` converts its children
 * too. Undefined when the object is not a route.
 */
function routeOf(node: AnyNode, deep: boolean): RouteNode | undefined {
  if (node.type !== 'ObjectExpression') return undefined;
  const path = propertyOf(node, 'path');
  const component = propertyOf(node, 'component');
  if (path?.type !== 'Literal' || typeof path.value !== 'string' || component?.type !== 'CallExpression')
    return undefined;
  const args = component.arguments as AnyNode[];
  const [first, second] = args;
  if (first?.type !== 'Literal' || first.value !== path.value) return undefined;
  const route: RouteNode = { path: path.value };
  if (second?.type === 'Literal' && typeof second.value === 'string') route.key = `${path.value}-${second.value}`;
  for (const flag of ['exact', 'strict', 'sensitive'] as const) {
    const v = propertyOf(node, flag);
    if (v && truthy(v)) route[flag] = true;
  }
  const children = propertyOf(node, 'routes');
  if (deep && children?.type === 'ArrayExpression') {
    const kids = (children.elements as Array<AnyNode | null>).map((e) => (e ? routeOf(e, true) : undefined));
    route.routes = kids.filter((k): k is RouteNode => k !== undefined);
  }
  return route;
}

/** `true`, `!0`, `1`. */
function truthy(node: AnyNode): boolean {
  if (node.type === 'Literal') return Boolean(node.value);
  if (node.type === 'UnaryExpression' && node.operator === '!') {
    const arg = node.argument as AnyNode;
    return arg.type === 'Literal' && !arg.value;
  }
  return false;
}

function propertyOf(node: AnyNode, name: string): AnyNode | undefined {
  for (const prop of node.properties as AnyNode[])
    if (prop.type === 'Property' && propertyName(prop) === name) return prop.value as AnyNode;
  return undefined;
}

function propertyName(prop: AnyNode): string | undefined {
  if (prop.type !== 'Property' || prop.computed || prop.kind !== 'init') return undefined;
  const key = prop.key as AnyNode;
  if (key.type === 'Identifier') return key.name as string;
  if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number'))
    return String(key.value);
  return undefined;
}
