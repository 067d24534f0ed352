/**
 * What discovery reads from a classic script: nothing it imports (classic scripts have no imports), but,
 * for a webpack build, how its runtime names chunk files and, for Docusaurus, which chunks each route
 * loads (route-chunks.ts puts them together per page). Scripts that show neither sign are not parsed.
 */
import { parse } from 'acorn';
import type { Node } from 'acorn';
import { mayHoldRoutes, readRoutes, type DocusaurusRoutes } from './docusaurus-routes.js';
import { mayBeRuntime, readRuntime, type WebpackRuntime } from './webpack-runtime.js';

export interface ClassicExtract {
  runtime?: WebpackRuntime;
  routes?: DocusaurusRoutes;
}

export function extractClassic(source: string): ClassicExtract {
  const runtime = mayBeRuntime(source);
  const routes = mayHoldRoutes(source);
  if (!runtime && !routes) return {};
  const ast = parseScript(source);
  if (!ast) return {};
  const out: ClassicExtract = {};
  const r = runtime ? readRuntime(ast) : undefined;
  if (r) out.runtime = r;
  const t = routes ? readRoutes(ast) : undefined;
  if (t) out.routes = t;
  return out;
}

/** Undefined when the script does not parse: the browser cannot run it either, so it loads no chunk. */
function parseScript(source: string): Node | undefined {
  try {
    return parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
  } catch {
    return undefined;
  }
}
