import { checkAborted } from '../abort.js';
import type { BuildCache } from '../cache/build-cache.js';
import { ErrorCode, ObjpackError, reportedCode } from '../errors.js';
import { registerTag } from '../inject/inject.js';
import { aboutSite, ownPaths } from '../inject/own-paths.js';
import type { BuildProgress } from '../options.js';
import type { ThreadPool } from '../pool/thread-pool.js';
import { baseDetected, detectBase } from './detect-base.js';
import { DiscoverError } from './diagnostic-codes.js';
import { discoverWith } from './discover-site.js';
import type { FileDigest } from './file-digest.js';
import { isPage } from './is-page.js';
import type { Diagnostic, SiteFile, SiteGraph } from './types.js';

/** What the discover stage reads (a BuildContext has it all). */
export interface DiscoverStageInput {
  root: string;
  options: { origin?: string; base?: string };
  exclude: string[];
  inject: boolean;
  partialThreshold: number;
  signal: AbortSignal | undefined;
  progress(p: BuildProgress): void;
}

/** The site as the later stages see it. */
export interface Discovered {
  graph: SiteGraph;
  /** The base the build writes under: the option's, else the one the pages are built for, else `/`. */
  base: string;
  /** The base found in the pages when no option named one (detect-base.ts). */
  detected: string | undefined;
  /** The site's diagnostics, to which every later stage adds its own. */
  diagnostics: Diagnostic[];
  /** Digests of objects being computed on the pool's threads, by absolute file. */
  hashing: ReadonlyMap<string, Promise<FileDigest>>;
}

/**
 * Walks the site and computes every page's closure on the parser pool, with the previous build's caches;
 * when no base was given and the pages name one, walks again under it. No pages: OBJPACK_E_NO_PAGES.
 */
export async function discoverStage(
  input: DiscoverStageInput,
  session: { pool: ThreadPool; cache: BuildCache },
): Promise<Discovered> {
  const { root, options, partialThreshold } = input;
  const { pool, cache } = session;
  let base = options.base ?? '/';
  let own = ownPaths(base);
  // Files the cache cannot vouch for are hashed on the pool's threads while discovery runs (behind the
  // page parses), so the hash phase mostly finds its digests done.
  const hashing = new Map<string, Promise<FileDigest>>();
  const prehash = (files: ReadonlyMap<string, SiteFile>) => {
    // With a previous build's cache, the few changed files are hashed when a page needs them: hashing every
    // unreferenced file ahead (their digests are never kept) would cost more than the rebuild.
    if (cache.discover.warm) return;
    for (const f of files.values()) {
      if (isPage(f) || own.has(f.path)) continue;
      const send = /^(video|audio)\//.test(f.contentType) && f.bytes > partialThreshold ? partialThreshold : f.bytes;
      if (cache.digest(f.file, f, send)) continue;
      const p = pool.digest(f.file, send, {
        size: f.bytes,
        mtimeMs: f.mtimeMs,
        ...(f.ino !== undefined ? { ino: f.ino } : {}),
      });
      p.catch(() => undefined); // a file that vanished is reported when a page needs it
      hashing.set(f.file, p);
    }
  };
  let graph: SiteGraph;
  let detected: string | undefined;
  try {
    const discover = {
      origin: options.origin,
      base: options.base,
      exclude: input.exclude,
      cache: cache.discover,
      hashIgnore: registerTag(base),
      finalHtml: input.inject ? ('inject' as const) : ('plain' as const),
      signal: input.signal,
      onProgress: (done: number, total: number) => input.progress({ phase: 'discover', done, total }),
    };
    graph = await discoverWith(pool, root, discover, prehash);
    checkAborted(input.signal);
    detected = options.base === undefined ? detectBase(graph) : undefined;
    if (detected !== undefined) {
      // Again under the base: closures resolve the pages' references there (parse results come from the cache).
      [base, own] = [detected, ownPaths(detected)];
      graph = await discoverWith(pool, root, { ...discover, base, hashIgnore: registerTag(base) });
      checkAborted(input.signal);
    }
  } catch (err) {
    throw fromDiscoverError(err);
  }
  const needed = new Set<string>();
  for (const page of graph.pages) for (const item of page.items) needed.add(graph.files.get(item.path)?.file ?? '');
  pool.dropDigests((file) => !needed.has(file));
  const diagnostics = graph.diagnostics.filter(aboutSite);
  if (detected !== undefined) diagnostics.unshift(baseDetected(detected));
  if (graph.pages.length === 0) {
    throw new ObjpackError(ErrorCode.NO_PAGES, `no HTML pages in ${root}`);
  }
  return { graph, base, detected, diagnostics, hashing };
}

function fromDiscoverError(err: unknown): unknown {
  if (!(err instanceof DiscoverError)) return err;
  const code = reportedCode(err.code);
  // The discovery code says more than USAGE, but once: not `OBJPACK_E_USAGE: OBJPACK_E_BAD_ORIGIN: …`.
  return new ObjpackError(code, code === ErrorCode.USAGE ? err.message : `${err.code}: ${err.message}`, undefined, {
    cause: err,
  });
}
