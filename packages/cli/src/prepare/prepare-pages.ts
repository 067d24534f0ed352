import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkAborted } from '../abort.js';
import type { ClosureItem, Diagnostic, SiteFile, SiteGraph } from '../discover/index.js';
import { digestFile, type FileDigest } from '../discover/file-digest.js';
import { statKey } from '../discover/stat-key.js';
import type { BuildCache } from '../cache/build-cache.js';
import { finalHtml, registerPath } from '../inject/inject.js';
import { ownPaths } from '../inject/own-paths.js';
import { mapLimit } from '../pool/map-limit.js';
import { earlyHints, preloadHints } from './preload-hints.js';
import { WarningCode, warn } from '../errors.js';
import { laterReason } from '../discover/tiers.js';
import type { BuildProgress } from '../options.js';
import type { LaterObject, PlanObject, PlanPage } from '../plan/types.js';

/** The build cache's key of a page's final HTML: it holds the tag of its base. */
const finalKey = (inject: boolean, base: string, file: string | undefined) =>
  `${inject ? (base === '/' ? 'inject' : `inject${base}`) : 'plain'}:${file}`;

const isMedia = (item: ClosureItem, f: SiteFile) =>
  item.as === 'video' || item.as === 'audio' || /^(video|audio)\//.test(f.contentType);

/** Turns closures into plan input: final HTML, digests (cached by size+mtime), partial media prefixes. */
export async function preparePages(
  graph: SiteGraph,
  ctx: {
    cache: BuildCache;
    inject: boolean;
    /** The base path the site is served under (checkBasePath's spelling). */
    base: string;
    partialThreshold: number;
    concurrency: number;
    diagnostics: Diagnostic[];
    progress(p: BuildProgress): void;
    /** Response headers the site's host config gives a page (by URL path). */
    pageHeaders?: (url: string) => Array<[string, string]>;
    /** Digests being computed on the thread pool, by absolute file. */
    hashing: ReadonlyMap<string, Promise<FileDigest>>;
    signal?: AbortSignal;
  },
): Promise<PlanPage[]> {
  const { cache } = ctx;
  const own = ownPaths(ctx.base);
  const objects = new Map<string, Promise<PlanObject | undefined>>();
  let done = 0;
  const total = graph.pages.length;

  const objectFor = (item: ClosureItem, page: string): Promise<PlanObject | undefined> => {
    let p = objects.get(item.url);
    if (!p) {
      p = (async () => {
        const f = graph.files.get(item.path);
        if (!f) return undefined;
        const send = isMedia(item, f) && f.bytes > ctx.partialThreshold ? ctx.partialThreshold : f.bytes;
        let d = cache.digest(f.file, f, send);
        // A digest cached before files were checked for UTF-8: a text file is read once more.
        if (d && d.utf8 === undefined && LABELLED_UTF8.test(f.contentType) && f.bytes <= 1 << 20) d = undefined;
        if (!d) {
          try {
            const pending = ctx.hashing.get(f.file);
            const early = pending && (await pending.catch(() => undefined));
            d =
              early && early.sendBytes === Math.min(send, early.size)
                ? early
                : await digestFile(f.file, send, {
                    size: f.bytes,
                    mtimeMs: f.mtimeMs,
                    ...(f.ino !== undefined ? { ino: f.ino } : {}),
                  });
          } catch (err) {
            const reason = String((err as NodeJS.ErrnoException).code ?? err);
            ctx.diagnostics.push(
              warn(WarningCode.OBJECT_VANISHED, { path: f.rel, reason }, { file: page, ref: item.url }),
            );
            return undefined;
          }
        }
        cache.setDigest(f.file, d);
        return planObject(item, f, d);
      })();
      objects.set(item.url, p);
    }
    return p;
  };

  const htmlFor = async (item: ClosureItem): Promise<PlanObject | undefined> => {
    const f = graph.files.get(item.path);
    if (!f) return undefined;
    const key = finalKey(ctx.inject, ctx.base, f.file);
    let d = cache.digest(key, f);
    // A cache written before pages had their own content type: look again.
    if (!d || d.type === undefined) {
      // Digested by the parser thread from the bytes it parsed, unless the page changed size since the walk.
      let final = graph.finals?.get(f.rel);
      if (final?.source !== f.bytes) {
        let source: Buffer;
        try {
          source = readFileSync(f.file);
        } catch {
          return undefined;
        }
        const r = finalHtml(source, ctx.inject, ctx.base);
        final = {
          sha256: r.sha256,
          bytes: r.body.length,
          source: source.length,
          changed: r.changed,
          type: r.contentType,
        };
      }
      d = {
        size: f.bytes,
        mtimeMs: f.mtimeMs,
        ...(f.ino !== undefined ? { ino: f.ino } : {}),
        whole: final.sha256,
        sendBytes: final.bytes,
        send: final.sha256,
        changed: final.changed,
        type: final.type,
      };
    }
    cache.setDigest(key, d);
    const o = planObject(item, f, d);
    o.bytes = d.sendBytes;
    o.contentType = d.type!;
    const headers = ctx.pageHeaders?.(item.url);
    if (headers && headers.length > 0) o.headers = headers;
    if (d.changed) o.inject = ctx.base;
    return o;
  };

  const pages = await mapLimit(graph.pages, ctx.concurrency, async (page) => {
    checkAborted(ctx.signal);
    const html = await htmlFor(page.items[0]!);
    const items: PlanObject[] = [];
    const critical: PlanPage['critical'] = [];
    const seen = new Set<string>();
    const packed = new Set<ClosureItem>();
    const later: LaterObject[] = [];
    for (const item of page.items.slice(1)) {
      if (own.has(item.path) || seen.has(item.url)) continue;
      seen.add(item.url);
      // The later tier stays out of the packages: the browser fetches it if the page ever asks.
      const reason = laterReason(item);
      if (reason) {
        const f = graph.files.get(item.path);
        if (f) later.push({ url: item.url, bytes: f.bytes, reason });
        continue;
      }
      const o = await objectFor(item, page.file);
      if (!o) continue;
      items.push(o);
      packed.add(item);
      if (item.critical) critical.push({ path: item.url, as: item.as, ...(item.cors ? { cors: item.cors } : {}) });
    }
    ctx.progress({ phase: 'hash', done: ++done, total });
    const preload = preloadHints(page.items, (item) => packed.has(item));
    // The registration snippet every page loads (`defer`): the worker answers it from its own
    // copy, and announced it leaves with the preloads instead of after the HTML (benchmarks/browser README).
    // With --no-inject the page loads whatever the user chose, or nothing: not announced.
    if (ctx.inject) preload.push([registerPath(ctx.base), 'script']);
    const hints = earlyHints(page.items, (item) => packed.has(item));
    if (!html) return undefined;
    const { url, file, crossOrigin } = page;
    const planned: PlanPage = { url, file, items: [html, ...items], critical, preload, earlyHints: hints, crossOrigin };
    if (later.length > 0) planned.later = later;
    return planned;
  });
  return pages.filter((p): p is PlanPage => p !== undefined);
}

/**
 * A page the build rewrote in place (registration tag injected) has a new size, mtime and inode: map them to
 * what the build just computed, so the next build neither re-parses the page nor re-hashes it.
 */
export function rememberRewrittenPages(
  root: string,
  graph: SiteGraph,
  written: ReadonlySet<string>,
  cache: BuildCache,
  inject: boolean,
  base = '/',
): void {
  const discover = cache.discover;
  for (const page of graph.pages) {
    if (!written.has(page.file)) continue;
    const f = graph.files.get(page.items[0]!.path);
    const key = finalKey(inject, base, f?.file);
    const before = cache.nextDigest(key);
    const hash = graph.pageHashes.get(page.file);
    if (!f || !before) continue;
    let st;
    try {
      st = statSync(path.join(root, page.file));
    } catch {
      continue;
    }
    const now = { bytes: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
    if (now.bytes !== before.sendBytes) continue; // changed under us: let the next build look at it
    cache.setDigest(key, {
      size: now.bytes,
      mtimeMs: now.mtimeMs,
      ino: now.ino,
      whole: before.send,
      sendBytes: now.bytes,
      send: before.send,
      ...(before.type !== undefined ? { type: before.type } : {}),
    });
    if (hash !== undefined) discover.set(statKey(page.file, now), hash);
  }
}

/** Types the walk labels UTF-8 (text, JS, JSON, SVG): a file whose bytes are not UTF-8 loses the label. */
const LABELLED_UTF8 = /;\s*charset=utf-8$/i;

function planObject(item: ClosureItem, f: SiteFile, d: FileDigest): PlanObject {
  // As a server with no charset setting sends it: the browser then decodes by BOM, `@charset` or the
  // page's encoding, exactly as without objpack; a UTF-8 label would garble a latin-1 stylesheet.
  const contentType = d.utf8 === false ? f.contentType.replace(LABELLED_UTF8, '') : f.contentType;
  return {
    url: item.url,
    path: item.path,
    file: f.file,
    rel: f.rel,
    bytes: f.bytes,
    contentType,
    as: item.as,
    sendBytes: d.sendBytes,
    digest: Buffer.from(d.send, 'base64'),
    sri: `sha256-${d.whole}`,
  };
}
