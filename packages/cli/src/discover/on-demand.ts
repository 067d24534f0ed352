/**
 * discoverSite for the package's entry point, loading discovery (parse5, css-tree, es-module-lexer, the
 * thread pool) on its first call: `import { build } from 'objpack'` for a one-page rebuild in a fresh
 * process then does not pay for parsers it may not need.
 */
import type { DiscoverOptions, SiteGraph } from './types.js';

export async function discoverSite(root: string, options: DiscoverOptions = {}): Promise<SiteGraph> {
  return (await import('./discover-site.js')).discoverSite(root, options);
}
