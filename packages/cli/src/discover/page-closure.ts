import { pageUrlPath } from './site-origin.js';
import type { PageClosure, SiteGraph } from './types.js';

/**
 * Finds a page by URL ('/guide/'), clean URL ('/guide'), file URL ('/guide/index.html') or file ('guide/index.html').
 */
export function pageClosure(graph: SiteGraph, pageUrl: string): PageClosure | undefined {
  const exact = graph.pages.find((p) => p.url === pageUrl);
  if (exact) return exact;
  const stripped = pageUrl.replace(/[?#].*$/, '');
  let decoded = stripped;
  try {
    decoded = decodeURIComponent(stripped);
  } catch {
    // keep the raw form
  }
  const rel = decoded.replace(/^\/+/, '');
  const candidates = new Set([
    rel,
    `${rel}index.html`,
    `${rel}/index.html`,
    `${rel}.html`,
    rel === '' ? 'index.html' : rel,
  ]);
  return graph.pages.find((p) => candidates.has(p.file) || (p.url === pageUrlPath(p.file) && p.url === stripped));
}
