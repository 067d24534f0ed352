import { readFileSync } from 'node:fs';
import { assemblePage } from './assemble-closure.js';
import type { AssembleContext } from './assemble-context.js';
import { AssetAnalyzer } from './asset-analyzer.js';
import { ItemTable } from './closure-cache.js';
import type { CachedClosure } from './closure-cache.js';
import { WarningCode, warn } from '../diagnostics/warnings.js';
import { EXTRACT_VERSION } from './page-extract.js';
import type { PageExtract } from './page-extract.js';
import { ThreadPool } from '../pool/thread-pool.js';
import { contentHash, pageHash, readFailure } from './read-site-file.js';
import { UrlResolver } from './resolve-url.js';
import { parseOrigin } from './site-origin.js';
import type { Diagnostic, DiscoverOptions, PageClosure, PageFinal, SiteFile, SiteGraph } from './types.js';
import { statKey, statSignature } from './stat-key.js';
import { walkFiles } from './walk.js';
import { isPage } from './is-page.js';
import { pageClosure } from './page-closure.js';

const HOST_CONFIGS = new Set(['_headers', '_redirects', 'vercel.json', 'firebase.json', 'netlify.toml']);

export { isPage, pageClosure };

/**
 * Lists every servable file under `root` (dotfiles, escaping symlinks and non-UTF-8 names excluded).
 * Throws DiscoverError (OBJPACK_E_ROOT_NOT_FOUND / _NOT_DIRECTORY) if the root cannot be used.
 */
export async function walkSite(root: string, options: DiscoverOptions = {}): Promise<Map<string, SiteFile>> {
  return (await walkFiles(root, options, [])).files;
}

/**
 * Crawls a built site and computes every page's closure. Recoverable problems (missing references,
 * malformed files, vanished files…) are returned as diagnostics with stable codes; an unusable root or
 * origin throws DiscoverError.
 */
export async function discoverSite(root: string, options: DiscoverOptions = {}): Promise<SiteGraph> {
  const pool = await ThreadPool.create(options.concurrency);
  try {
    return await discoverWith(pool, root, options);
  } finally {
    await pool.close();
  }
}

/**
 * discoverSite on a thread pool the caller owns (and closes); `onWalked` sees the file list before any page
 * is parsed (the build queues file hashes on the same pool, behind the parses).
 */
export async function discoverWith(
  pool: ThreadPool,
  root: string,
  options: DiscoverOptions,
  onWalked?: (files: ReadonlyMap<string, SiteFile>) => void,
): Promise<SiteGraph> {
  const diagnostics: Diagnostic[] = [];
  const site = parseOrigin(options.origin, options.base);
  const walked = await walkFiles(root, options, diagnostics);
  const files = walked.files;
  onWalked?.(files);
  const pages = [...files.values()].filter(isPage);
  const pageHashes = new Map<string, string>();
  const graph: SiteGraph = {
    root: walked.root,
    files,
    pages: [],
    diagnostics,
    pageHashes,
    pagesParsed: 0,
    walkDiagnostics: [...diagnostics],
    extracts: new Map(),
  };
  if (pages.length === 0) {
    diagnostics.push(warn(WarningCode.NO_PAGES, { root: walked.root }));
    return graph;
  }
  const resolver = new UrlResolver(files, site);
  const analyzer = new AssetAnalyzer(resolver, diagnostics, options.cache, (file, as, hash) =>
    pool.asset(file, as, hash),
  );
  const finals = options.finalHtml !== undefined ? new Map<string, PageFinal>() : undefined;
  if (finals) graph.finals = finals;
  const ctx: AssembleContext = { resolver, analyzer, reported: new Set(), subtrees: new Map() };
  const cache = options.cache;
  const results: Array<PageClosure | undefined> = new Array<PageClosure | undefined>(pages.length);
  let next = 0;
  let done = 0;
  options.onProgress?.(0, pages.length);

  // Closures are reused only while the set of files is the same (a new file can satisfy a reference that
  // was missing) and every stylesheet and module they went through is unchanged.
  // Host configs (which a build writes) are not objects a page can use: they must not invalidate every closure.
  const listed = [...files.values()].filter((f) => !HOST_CONFIGS.has(f.rel)).map((f) => f.path);
  const filesKey = cache ? contentHash(Buffer.from(`${site.origin}${site.basePath}\n${listed.join('\n')}`)) : '';
  const table = cache ? new ItemTable(cache, `items${EXTRACT_VERSION}:${filesKey}`) : undefined;

  async function extractOf(
    page: SiteFile,
    known: string | undefined,
  ): Promise<{ extract: PageExtract; hash: string } | undefined> {
    if (known !== undefined) {
      const hit = cache?.get(`html${EXTRACT_VERSION}:${known}`);
      if (hit !== undefined) return { extract: hit as PageExtract, hash: known };
    }
    graph.pagesParsed++;
    const r = await pool.parse(page.file, cache !== undefined, options.hashIgnore, options.finalHtml, options.base);
    if (r.error) {
      diagnostics.push(readFailure(page.rel, Object.assign(new Error(r.error.message), { code: r.error.code })));
      analyzer.gone.add(page.path);
      return undefined;
    }
    if (r.final) finals?.set(page.rel, r.final);
    if (cache) {
      cache.set(`html${EXTRACT_VERSION}:${r.hash}`, r.extract);
      cache.set(statKey(page.rel, page), r.hash);
    }
    return { extract: r.extract, hash: r.hash };
  }

  /** A cached closure whose parsed dependencies are unchanged; replays its page-level warnings. */
  async function cachedClosure(page: SiteFile, hash: string): Promise<PageClosure | undefined> {
    const hit = cache?.get(closureKey(filesKey, page, hash)) as CachedClosure | undefined;
    if (!hit || !table) return undefined;
    const deps: SiteFile[] = [];
    for (const position of hit.deps) {
      const f = files.get(table.pathAt(hit, position) ?? '');
      if (!f) return undefined;
      deps.push(f);
    }
    if (depsSignature(deps) !== hit.depsSig) return undefined;
    const closure = table.unpack(hit);
    if (!closure) return undefined;
    // Read the page's parse result too: caches that keep only what a build read (objpack's build cache)
    // must still have it when a stylesheet edit invalidates this closure next time.
    const extract = cache?.get(`html${EXTRACT_VERSION}:${hash}`) as PageExtract | undefined;
    if (extract === undefined) return undefined;
    graph.extracts?.set(page.rel, extract);
    // Re-read (from the parse cache) every stylesheet and module, so their own warnings are reported as in a full
    // build.
    for (const [k, f] of deps.entries()) {
      const kind = hit.depKinds[k];
      await (kind === 's' ? analyzer.sheet(f) : kind === 'c' ? analyzer.classic(f) : analyzer.module(f));
    }
    for (const d of hit.diagnostics) {
      const key =
        d.code === WarningCode.BARE_SPECIFIER
          ? `${d.file}|${d.ref}`
          : d.code === WarningCode.IMPORT_CYCLE
            ? `cycle|${d.ref}`
            : undefined;
      if (key !== undefined && ctx.reported.has(key)) continue;
      if (key !== undefined) ctx.reported.add(key);
      diagnostics.push(d);
    }
    return closure;
  }

  /**
   * The content hash a page's cached results are stored under: known from its stat signature, or (with a
   * warm cache) by hashing the bytes, so a regenerated site whose pages only got new mtimes is not re-parsed.
   */
  function knownHash(page: SiteFile): string | undefined {
    const known = cache?.get(statKey(page.rel, page));
    if (typeof known === 'string') return known;
    if (!cache?.warm) return undefined;
    let hash: string;
    try {
      hash = pageHash(readFileSync(page.file), options.hashIgnore);
    } catch {
      return undefined; // the parser reads it again and reports why it cannot
    }
    if (cache.get(`html${EXTRACT_VERSION}:${hash}`) === undefined) return undefined;
    cache.set(statKey(page.rel, page), hash);
    return hash;
  }

  async function lane(): Promise<void> {
    while (next < pages.length && !options.signal?.aborted) {
      const i = next++;
      const page = pages[i] as SiteFile;
      const known = knownHash(page);
      const reused = known !== undefined ? await cachedClosure(page, known) : undefined;
      if (reused) {
        results[i] = reused;
        pageHashes.set(page.rel, known!);
      } else {
        const parsed = await extractOf(page, known);
        if (parsed) {
          graph.extracts?.set(page.rel, parsed.extract);
          if (cache) pageHashes.set(page.rel, parsed.hash);
          const pageDiagnostics: Diagnostic[] = [];
          const closure = await assemblePage(ctx, page, parsed.extract, pageDiagnostics);
          results[i] = closure;
          diagnostics.push(...pageDiagnostics);
          if (cache && table && !closure.items.some((item) => analyzer.gone.has(item.path))) {
            const deps: number[] = [];
            const depFiles: SiteFile[] = [];
            let depKinds = '';
            closure.items.forEach((item, position) => {
              const kind = analyzer.parsedAs(item.path);
              const f = files.get(item.path);
              if (!kind || !f) return;
              deps.push(position);
              depFiles.push(f);
              depKinds += kind === 'sheet' ? 's' : kind === 'classic' ? 'c' : 'm';
            });
            cache.set(
              closureKey(filesKey, page, parsed.hash),
              table.pack(closure, { deps, depKinds, depsSig: depsSignature(depFiles) }, pageDiagnostics),
            );
          }
        }
      }
      options.onProgress?.(++done, pages.length);
    }
  }

  await Promise.all(Array.from({ length: Math.min(pool.width, pages.length) }, lane));
  table?.save();
  for (const path of analyzer.gone) files.delete(path);
  graph.pages = results.filter((p): p is PageClosure => p !== undefined);
  // Lanes finish in any order; sort so warnings (and their order in reports) are reproducible.
  diagnostics.sort(compareDiagnostics);
  return graph;
}

const depsSignature = (deps: SiteFile[]) =>
  contentHash(Buffer.from(deps.map((f) => `${f.path}\0${statSignature(f)}`).join('\n')));
const closureKey = (filesKey: string, page: SiteFile, hash: string) =>
  `closure${EXTRACT_VERSION}:${filesKey}:${page.rel}:${hash}`;

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  const fa = a.file ?? '';
  const fb = b.file ?? '';
  if (fa !== fb) return fa < fb ? -1 : 1;
  if ((a.line ?? 0) !== (b.line ?? 0)) return (a.line ?? 0) - (b.line ?? 0);
  return a.code < b.code ? -1 : a.code > b.code ? 1 : a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}
