/**
 * The webpack chunks a Docusaurus page loads as it starts: its classic scripts hold the runtime (how chunk
 * files are named) and the route table (which chunks each route needs). Chromium requests them on every
 * first load, so they are in the critical tier; before this, only `--trace` found them.
 */
import type { AssembleContext } from './assemble-context.js';
import type { Dep } from './asset-analyzer.js';
import type { ClassicExtract } from './classic-extract.js';
import { add, type Sink } from './closure-sink.js';
import { onlyCatchAll, routeChunkIds, type DocusaurusRoutes } from './docusaurus-routes.js';
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
  docUrl: URL,
): Promise<void> {
  for (const chunk of await routeChunks(ctx, scripts, pageUrl, docUrl, sink.cross))
    add(sink, 'rest', { ...chunk, script: 'classic' }, 'script', false, chunk.from);
}

/**
 * The page's route chunks; none unless one of `scripts` (the page's classic scripts, in document order) is
 * a webpack runtime and one holds a Docusaurus route table. Cross-origin chunks (a CDN public path) add
 * their host to `cross`; a chunk whose file is missing is left out: the page's own scripts name it, so the
 * browser asks and gets the same 404 without objpack.
 */
async function routeChunks(
  ctx: AssembleContext,
  scripts: readonly Dep[],
  pageUrl: string,
  docUrl: URL,
  cross: Set<string>,
): Promise<RouteChunk[]> {
  if (scripts.length === 0) return [];
  const infos: ClassicExtract[] = await Promise.all(scripts.map((s) => ctx.analyzer.classic(s.file)));
  const runtime = infos.find((i) => i.runtime)?.runtime;
  const at = infos.findIndex((i) => i.routes);
  const table = infos[at]?.routes;
  if (!runtime || !table) return [];
  const ids = routeChunkIds(table, routePath(table, pageUrl)) ?? [];
  const from = scripts[at]!.url;
  const out: RouteChunk[] = [];
  for (const id of ids) {
    const file = chunkFile(runtime, id);
    if (file === undefined) continue; // a chunk the runtime never loads by URL (the entry's own)
    const r = ctx.resolver.resolve(runtime.publicPath + file, docUrl);
    if (r.kind === 'local') out.push({ url: r.url, path: r.path, file: r.file, from });
    else if (r.kind === 'cross') cross.add(r.host);
  }
  return out;
}

/**
 * The location a visitor has on the page: its URL, or, for `guide.html` that only the catch-all route
 * matches, the clean URL `/guide` a host serves it at (Docusaurus with `trailingSlash: false` writes such
 * files and links to them without `.html`).
 */
function routePath(table: DocusaurusRoutes, pageUrl: string): string {
  if (!pageUrl.endsWith('.html') || !onlyCatchAll(table, pageUrl)) return pageUrl;
  const clean = pageUrl.slice(0, -'.html'.length);
  return onlyCatchAll(table, clean) ? pageUrl : clean;
}
