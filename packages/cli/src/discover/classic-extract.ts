/**
 * What discovery reads from a classic script: nothing it imports (classic scripts have no imports), but,
 * for a webpack build, how its runtime names chunk files and, for Docusaurus, which chunks each route
 * loads (route-chunks.ts puts them together per page). Scripts that show neither sign are not parsed.
 */
import { parse } from 'acorn';
import { mayHoldRoutes, readRoutes, type DocusaurusRoutes } from './docusaurus-routes.js';
import { mayBeRuntime, readRuntime, type WebpackRuntime } from './webpack-runtime.js';

export interface ClassicExtract {
  runtime?: WebpackRuntime;
  routes?: DocusaurusRoutes;
}

/**
 * Never throws: what it reads only adds objects to closures, so a script it cannot analyse (a walk that runs out
 * of stack on a deep expression acorn accepts) says nothing, and the script itself is packaged as ever.
 */
export function extractClassic(source: string): ClassicExtract {
  const runtime = mayBeRuntime(source);
  const routes = mayHoldRoutes(source);
  if (!runtime && !routes) return {};
  try {
    const ast = parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
    const out: ClassicExtract = {};
    const r = runtime ? readRuntime(ast) : undefined;
    if (r) out.runtime = r;
    const t = routes ? readRoutes(ast) : undefined;
    if (t) out.routes = t;
    return out;
  } catch {
    return {}; // not a script the browser could run either, or too deep to walk
  }
}
