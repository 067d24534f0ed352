/**
 * The webpack chunks a Docusaurus page loads as it starts: its classic scripts hold the runtime (how chunk
 * files are named) and the route table (which chunks each route needs). Chromium requests them on every
 * first load, so they are in the critical tier; before this, only `--trace` found them.
 */
import type { AssembleContext } from './assemble-context.js';
import type { Dep } from './asset-analyzer.js';
import type { ClassicExtract } from './classic-extract.js';
import { add, type Sink } from './closure-sink.js';
import { matchesPage, routeChunkIds, type DocusaurusRoutes } from './docusaurus-routes.js';
import { chunkFile } from './webpack-runtime.js';

/** A chunk the page loads, and the URL of the script whose route table names it. */
interface RouteChunk extends Omit<Dep, 'line'> {
  from: string;
}

/**
 * Adds the page's route chunks to its `rest` bucket, after the page's own objects (they hydrate a page
 * already painted from its HTML), in the order its scripts ask for them.
 */
export async function addRouteChunks(
  ctx: AssembleContext,
  sink: Sink,
  scripts: readonly Dep[],
  pageUrl: string,
  baseUrl: URL,
): Promise<void> {
  for (const chunk of await routeChunks(ctx, scripts, pageUrl, baseUrl, sink.cross))
    add(sink, 'rest', { ...chunk, script: 'classic' }, 'script', false, chunk.from);
}

/**
 * The page's route chunks; none unless one of `scripts` (the page's classic scripts, in document order) is
 * a webpack runtime and one holds a Docusaurus route table; of several runtimes, the one whose chunk files
 * the site has. A relative public path resolves against `baseUrl`, the document's base URL. Cross-origin
 * chunks (a CDN public path) add their host to `cross`; a chunk whose file is missing is left out: the page's
 * own scripts name it, so the browser asks and gets the same 404 without objpack.
 */
async function routeChunks(
  ctx: AssembleContext,
  scripts: readonly Dep[],
  pageUrl: string,
  baseUrl: URL,
  cross: Set<string>,
): Promise<RouteChunk[]> {
  if (scripts.length === 0) return [];
  const infos: ClassicExtract[] = await Promise.all(scripts.map((s) => ctx.analyzer.classic(s.file)));
  const at = infos.findIndex((i) => i.routes);
  const table = infos[at]?.routes;
  if (!table) return [];
  const ids = new Set<string>();
  // Docusaurus loads the routes of the path and of its decoded form (`/caf%C3%A9` and `/café`).
  for (const path of routePaths(table, pageUrl)) for (const id of routeChunkIds(table, path) ?? []) ids.add(id);
  const from = scripts[at]!.url;
  // The runtime whose chunk files the site has: a third-party webpack bundle on the page names its own.
  let best: { local: RouteChunk[]; cross: string[] } | undefined;
  for (const { runtime } of infos) {
    if (!runtime) continue;
    const found: { local: RouteChunk[]; cross: string[] } = { local: [], cross: [] };
    for (const id of ids) {
      const file = chunkFile(runtime, id);
      if (file === undefined) continue; // a chunk the runtime never loads by URL (the entry's own)
      const r = ctx.resolver.resolve(runtime.publicPath + file, baseUrl);
      if (r.kind === 'local') found.local.push({ url: r.url, path: r.path, file: r.file, from });
      else if (r.kind === 'cross') found.cross.push(r.host);
    }
    if (!best || found.local.length > best.local.length) best = found;
  }
  for (const host of best?.cross ?? []) cross.add(host);
  return best?.local ?? [];
}

/**
 * The locations a visitor has on the page: its URL, or, for `guide.html` whose URL takes no route of its own,
 * the clean URL `/guide` a host serves it at (Docusaurus with `trailingSlash: false` writes such files and
 * links to them without `.html`); and the decoded form of that, which Docusaurus matches as well.
 */
function routePaths(table: DocusaurusRoutes, pageUrl: string): string[] {
  let path = pageUrl;
  if (pageUrl.endsWith('.html') && !matchesPage(table, pageUrl)) {
    const clean = pageUrl.slice(0, -'.html'.length);
    if (matchesPage(table, clean)) path = clean;
  }
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {
    // a malformed escape: the browser's router throws on it too; the encoded form alone
  }
  return decoded === path ? [path] : [path, decoded];
}
