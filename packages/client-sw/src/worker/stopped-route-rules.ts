import type { RouteTable } from '@objpack/format';
import { lookupRoute } from './routes.js';

/** The static routes and page URLs of stopped-route.ts, apart from the worker's globals. */

export interface RouterRule {
  condition: Record<string, unknown>;
  source: string | { cacheName: string };
}

/** Characters with a meaning in a URLPattern pathname. */
const patternText = (s: string): string => s.replace(/[\\:*?()+{}]/g, '\\$&');

/** The install's static routes: objpack's own files to the worker, stopped-worker navigations to the pages cache. */
export function stoppedRoutes(scopePath: string, ownDir: string, pagesName: string): RouterRule[] {
  return [
    // The warm page is a navigation only the worker answers; nothing of objpack's own is a page.
    { condition: { urlPattern: { pathname: `${patternText(ownDir)}*` } }, source: 'fetch-event' },
    {
      condition: {
        requestMode: 'navigate',
        runningStatus: 'not-running',
        // A query string is part of a cache key: such URLs are never copies, and go to the worker.
        urlPattern: { pathname: `${patternText(scopePath)}*`, search: '' },
      },
      source: { cacheName: pagesName },
    },
  ];
}

/**
 * The URLs a reader may open for the page at table key `key`: the key, its directory or `index.html` spelling
 * and, with clean URLs, the bare path; each only where the table maps it to the same page.
 */
export function pageUrls(table: RouteTable, key: string, opened?: string): string[] {
  const spellings = [key];
  if (key.endsWith('/index.html')) spellings.push(key.slice(0, -'index.html'.length));
  if (key.endsWith('/')) spellings.push(`${key}index.html`);
  else if (key.endsWith('.html')) spellings.push(key.slice(0, -'.html'.length));
  if (opened !== undefined) spellings.push(opened);
  return [...new Set(spellings)].filter((p) => lookupRoute(table, p)?.key === key);
}
