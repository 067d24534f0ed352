import type { getTransformedRoutes } from '@vercel/routing-utils';
import type { Node as JsonNode } from 'jsonc-parser';
import { ConfigLines } from './config-lines.js';
import { valueAt } from './json-node.js';

/**
 * Where each route of getTransformedRoutes comes from, by its index: it lists `cleanUrls`' routes, then
 * `trailingSlash`'s, the legacy `routes` and the `redirects`, one route each. The setting or the entry as
 * written, and its line when `text` (the file) and its jsonc-parser `tree` have it: the line of the entry's
 * own `src`/`source` value, never the same string written elsewhere (an earlier redirect's destination).
 */
export function vercelOrigins(
  transform: typeof getTransformedRoutes,
  c: Record<string, unknown>,
  text: string | undefined,
  tree?: JsonNode,
): (i: number) => { written?: string; line?: number } {
  const count = (input: Record<string, unknown>) => {
    try {
      return transform(input as Parameters<typeof transform>[0]).routes?.length ?? 0;
    } catch {
      return 0;
    }
  };
  const settings =
    c.cleanUrls === undefined && c.trailingSlash === undefined
      ? 0
      : count({ cleanUrls: c.cleanUrls, trailingSlash: c.trailingSlash });
  const slash = c.trailingSlash === undefined ? 0 : count({ trailingSlash: c.trailingSlash });
  const legacy = Array.isArray(c.routes) ? (c.routes as unknown[]) : [];
  const redirects = Array.isArray(c.redirects) ? (c.redirects as unknown[]) : [];
  const lines = text === undefined ? undefined : new ConfigLines(text);
  const entry = (list: 'routes' | 'redirects', j: number, key: 'src' | 'source') => {
    const written = (c[list] as Array<Record<string, unknown> | null>)[j]?.[key];
    if (typeof written !== 'string') return {};
    const node = tree && valueAt(tree, [list, j, key]);
    const line = node && lines?.lineAt(node.offset);
    return { written, ...(line !== undefined ? { line } : {}) };
  };
  const setting = (key: string) => {
    const line = text === undefined ? undefined : ConfigLines.keyLine(text, key);
    return { written: key, ...(line !== undefined ? { line } : {}) };
  };
  return (i) => {
    if (i < settings - slash) return setting('cleanUrls');
    if (i < settings) return setting('trailingSlash');
    if (i < settings + legacy.length) return entry('routes', i - settings, 'src');
    if (i < settings + legacy.length + redirects.length)
      return entry('redirects', i - settings - legacy.length, 'source');
    return {};
  };
}
