/**
 * Turns one page's extracted references into its closure, in the order the page needs the bytes:
 * HTML, render-blocking CSS (depth-first through @import), sync scripts, fonts from critical CSS,
 * deferred and module scripts with their static imports, images in document order, images from CSS,
 * then everything else. Each object appears once, at its first (most urgent) position.
 */
import { BUCKETS, emptyBuckets, type AssembleContext, type Bucket, type Subtree } from './assemble-context.js';
import type { Dep, ModuleInfo, SheetInfo } from './asset-analyzer.js';
import { add, firstVisit, fontRange, fontStyle, type Sink } from './closure-sink.js';
import { isCss, isJavaScript } from './asset-analyzer.js';
import { asFor, mediaBlocksRender, preloadAs, srcsetUrls } from './object-kind.js';
import { WarningCode, warn } from '../diagnostics/warnings.js';
import type { HtmlRef } from './html-ref.js';
import type { PageExtract } from './page-extract.js';
import { reportRef } from './report-ref.js';
import { addRouteChunks } from './route-chunks.js';
import { pageUrlPath } from './site-origin.js';
import type { ClosureItem, Diagnostic, PageClosure, SiteFile } from './types.js';
import { mergeBuckets } from './merge-buckets.js';
import { pageChars } from './page-chars.js';
import { addPageLink, type PageLinks } from './page-links.js';
import { rangesUsed } from './unicode-range.js';
import { unusedFaces, type FaceStyle } from './unused-faces.js';

/**
 * Builds one page's closure. Problems with the page's own references go to `diagnostics` (so a cached
 * closure can replay them); problems inside stylesheets and modules go to the analyzer's, once per file.
 */
export async function assemblePage(
  ctx: AssembleContext,
  page: SiteFile,
  extract: PageExtract,
  diagnostics: Diagnostic[],
): Promise<PageClosure> {
  const { resolver, analyzer } = ctx;
  const pageUrl = pageUrlPath(page.rel, resolver.site.basePath);
  const docUrl = resolver.absolute(pageUrl);
  const buckets = emptyBuckets();
  const visited = new Set<string>();
  const cross = new Set<string>();
  const pageLinks: PageLinks = { iframes: [], links: [], cleanLinks: [], bareDirLinks: [] };
  const { iframes, links, cleanLinks, bareDirLinks } = pageLinks;
  const prefetch: string[] = [];
  let importMap: Record<string, string> = {};
  const classicScripts: Dep[] = []; // in document order: a webpack runtime and route table may be among them

  const pageSink: Sink = { buckets, visited, cross, shared: false };

  /**
   * What a stylesheet or module brings with it is the same on every page that references it directly, so it
   * is expanded once per build and the (frozen) items are shared between the pages' closures. Module
   * subtrees depend on the page's import map, so pages with one expand their own.
   */
  function subtree(
    kind: 'sheet' | 'module',
    dep: Dep,
    bucket: Bucket,
    critical: boolean,
    cond: string | undefined,
  ): Promise<Subtree> {
    const shareable = kind === 'sheet' || Object.keys(importMap).length === 0;
    const key = `${kind}|${bucket}|${critical ? 1 : 0}|${cond ?? ''}|${dep.path}`;
    const hit = shareable ? ctx.subtrees.get(key) : undefined;
    if (hit) return hit;
    const sink: Sink = {
      buckets: emptyBuckets(),
      visited: new Set([`${bucket}|${dep.url}`, `${bucket}|file:${dep.path}`]),
      cross: new Set(),
      shared: shareable,
    };
    const done = (async () => {
      if (kind === 'sheet') await useSheet(sink, await analyzer.sheet(dep.file), dep.url, bucket, critical, [dep]);
      else await useModule(sink, await analyzer.module(dep.file), dep.url, dep.file.rel, bucket, cond);
      return { buckets: sink.buckets, cross: [...sink.cross] };
    })();
    if (shareable) ctx.subtrees.set(key, done);
    return done;
  }

  async function expand(
    sink: Sink,
    kind: 'sheet' | 'module',
    dep: Dep,
    bucket: Bucket,
    critical: boolean,
    cond: string | undefined,
    chain: readonly Dep[] = [],
  ) {
    if (sink !== pageSink) {
      if (kind === 'sheet')
        await useSheet(sink, await analyzer.sheet(dep.file), dep.url, bucket, critical, [...chain, dep]);
      else await useModule(sink, await analyzer.module(dep.file), dep.url, dep.file.rel, bucket, cond);
      return;
    }
    const tree = await subtree(kind, dep, bucket, critical, cond);
    for (const b of BUCKETS) for (const item of tree.buckets[b]) buckets[b].push(item);
    for (const h of tree.cross) cross.add(h);
  }

  async function visitSheet(
    sink: Sink,
    dep: Dep,
    bucket: Bucket,
    critical: boolean,
    from: string,
    cond?: string,
    chain: readonly Dep[] = [],
  ): Promise<void> {
    const first = firstVisit(sink, dep, bucket);
    if (first.item) add(sink, bucket, dep, 'style', critical, from, cond);
    if (first.expand) await expand(sink, 'sheet', dep, bucket, critical, cond, chain);
  }

  /** `chain`: the stylesheets from the one a page (or module) names down to this one, through `@import`. */
  async function useSheet(
    sink: Sink,
    info: SheetInfo,
    from: string,
    bucket: Bucket,
    critical: boolean,
    chain: readonly Dep[] = [],
  ): Promise<void> {
    info.cross.forEach((h) => sink.cross.add(h));
    for (const imp of info.imports) {
      const back = chain.findIndex((c) => c.path === imp.path);
      if (back >= 0) importCycle(chain.slice(back), imp);
      if (critical && !mediaBlocksRender(imp.media))
        await visitSheet(sink, imp, 'rest', false, from, 'media-query', chain);
      else await visitSheet(sink, imp, bucket, critical, from, undefined, chain);
    }
    for (const font of info.fonts) add(sink, critical ? 'fonts' : 'rest', font, 'font', critical, from);
    for (const img of info.images) add(sink, critical ? 'cssImages' : 'rest', img, 'image', false, from);
  }

  async function visitModule(sink: Sink, dep: Dep, bucket: Bucket, from: string, cond?: string): Promise<void> {
    if (isCss(dep.file)) return visitSheet(sink, dep, bucket, false, from, cond); // CSS module script
    const first = firstVisit(sink, dep, bucket);
    const js = isJavaScript(dep.file);
    if (first.item)
      add(sink, bucket, js ? { ...dep, script: 'module' } : dep, js ? 'script' : 'fetch', false, from, cond);
    if (first.expand && js) await expand(sink, 'module', dep, bucket, false, cond);
  }

  async function useModule(
    sink: Sink,
    info: ModuleInfo,
    from: string,
    rel: string,
    bucket: Bucket,
    cond?: string,
  ): Promise<void> {
    info.cross.forEach((h) => sink.cross.add(h));
    for (const imp of info.imports) await visitModule(sink, imp, bucket, from, cond);
    // A dynamic import that runs on load is needed as its importer is; any other waits for the code that calls it.
    const dynamicCond = (eager: boolean | undefined) => (eager ? cond : 'dynamic-import');
    for (const b of info.bare) {
      const dep = mapBare(b.spec, b.line, rel);
      if (dep) await visitModule(sink, dep, b.dynamic ? 'rest' : bucket, from, b.dynamic ? dynamicCond(b.eager) : cond);
    }
    for (const dyn of info.dynamic) await visitModule(sink, dyn, 'rest', from, dynamicCond(dyn.eager));
  }

  /** One warning per cycle in a build, at the `@import` that closes it (`cycle` ends with the sheet holding it). */
  function importCycle(cycle: readonly Dep[], closing: Dep): void {
    const ref = cycle
      .map((c) => c.path)
      .sort()
      .join(' ');
    if (ctx.reported.has(`cycle|${ref}`)) return;
    ctx.reported.add(`cycle|${ref}`);
    const file = cycle[cycle.length - 1]!.file.rel;
    const names = [...cycle, closing].map((c) => c.file.rel).join(' → ');
    diagnostics.push(
      warn(
        WarningCode.IMPORT_CYCLE,
        { at: `${file}:${closing.line}`, chain: names },
        { file, line: closing.line, ref },
      ),
    );
  }

  function mapBare(spec: string, line: number, rel: string): Dep | undefined {
    let target = importMap[spec];
    if (target === undefined) {
      const prefix = Object.keys(importMap)
        .filter((k) => k.endsWith('/') && spec.startsWith(k))
        .sort((a, b) => b.length - a.length)[0];
      if (prefix !== undefined) target = importMap[prefix] + spec.slice(prefix.length);
    }
    if (target === undefined) {
      const key = `${rel}|${spec}`;
      if (!ctx.reported.has(key)) {
        ctx.reported.add(key);
        diagnostics.push(
          warn(WarningCode.BARE_SPECIFIER, { at: `${rel}:${line}`, spec }, { file: rel, line, ref: spec }),
        );
      }
      return undefined;
    }
    const r = resolver.resolve(target, docUrl);
    if (r.kind === 'local') return { url: r.url, path: r.path, file: r.file, line };
    if (r.kind === 'cross') cross.add(r.host);
    else reportRef(diagnostics, r, target, rel, line);
    return undefined;
  }

  /** Resolves an HTML reference; reports unusable ones against the page and returns local hits. */
  const local = (raw: string, ref: HtmlRef, pageMode = false): Dep | undefined => {
    const r = resolver.resolve(raw, resolver.baseFor(docUrl, ref.base), pageMode);
    if (r.kind === 'local')
      return { url: r.url, path: r.path, file: r.file, line: ref.line, ...(ref.cors ? { cors: ref.cors } : {}) };
    if (r.kind === 'cross') cross.add(r.host);
    else reportRef(diagnostics, r, raw, page.rel, ref.line);
    return undefined;
  };

  if (extract.parseErrors > 0 && extract.firstError) {
    const e = extract.firstError;
    diagnostics.push(
      warn(
        WarningCode.MALFORMED_HTML,
        { at: `${page.rel}:${e.line}`, errors: extract.parseErrors, first: e.code },
        {
          file: page.rel,
          line: e.line,
          column: e.column,
        },
      ),
    );
  }

  for (const [i, ref] of extract.refs.entries()) {
    const inline = extract.inline[i];
    switch (ref.k) {
      case 'stylesheet':
      case 'stylesheet-alt': {
        const dep = local(ref.v, ref);
        if (!dep) break;
        const critical = ref.k === 'stylesheet' && mediaBlocksRender(ref.media);
        const cond = ref.k === 'stylesheet-alt' ? 'alternate-stylesheet' : critical ? undefined : 'media-query';
        await visitSheet(pageSink, dep, critical ? 'css' : 'rest', critical, pageUrl, cond);
        break;
      }
      case 'style':
      case 'style-attr': {
        if (!inline?.css) break;
        const base = resolver.baseFor(docUrl, ref.base);
        const info = analyzer.resolveSheet(inline.css, base, page.rel, ref.line - 1);
        if (ref.k === 'style') await useSheet(pageSink, info, pageUrl, 'css', mediaBlocksRender(ref.media));
        else for (const img of info.images) add(pageSink, 'images', img, 'image', false, pageUrl);
        break;
      }
      case 'script':
      case 'script-defer':
      case 'script-async': {
        const dep = local(ref.v, ref);
        if (dep) classicScripts.push(dep);
        if (dep)
          add(
            pageSink,
            ref.k === 'script' ? 'sync' : ref.k === 'script-defer' ? 'early' : 'rest',
            { ...dep, script: 'classic' },
            'script',
            ref.k === 'script',
            pageUrl,
          );
        break;
      }
      case 'module':
      case 'module-async':
      case 'modulepreload': {
        const dep = local(ref.v, ref); // a src is a URL, never an import-map specifier
        if (dep) await visitModule(pageSink, dep, ref.k === 'module-async' ? 'rest' : 'early', pageUrl);
        break;
      }
      case 'island': {
        const dep = local(ref.v, ref);
        if (dep) await visitModule(pageSink, dep, 'rest', pageUrl, ref.cond);
        break;
      }
      case 'module-inline':
        if (inline?.js) {
          const info = analyzer.resolveModule(inline.js, resolver.baseFor(docUrl, ref.base), page.rel, ref.line - 1);
          await useModule(pageSink, info, pageUrl, page.rel, 'early');
        }
        break;
      case 'importmap':
        if (inline?.imports && Object.keys(importMap).length === 0) importMap = inline.imports;
        break;
      case 'preload': {
        const dep = local(ref.v, ref);
        if (!dep) break;
        const as = preloadAs(ref.as, dep.file);
        // A preloaded stylesheet is applied later (the loadCSS pattern): its fonts and images follow it.
        if (as === 'style' && isCss(dep.file)) await visitSheet(pageSink, dep, 'early', false, pageUrl);
        else
          add(
            pageSink,
            as === 'font' ? 'fonts' : as === 'image' ? 'images' : as === 'script' ? 'early' : 'rest',
            // `as=script` preloads a classic script's request (a module's is `modulepreload`).
            ref.as === 'script' ? { ...dep, script: 'classic' } : dep,
            as,
            false,
            pageUrl,
          );
        break;
      }
      case 'prefetch': {
        const dep = local(ref.v, ref);
        if (dep && !prefetch.includes(dep.url)) prefetch.push(dep.url);
        break;
      }
      case 'icon':
      case 'manifest': {
        const dep = local(ref.v, ref);
        if (dep) add(pageSink, 'rest', dep, ref.k === 'icon' ? 'image' : 'fetch', false, pageUrl, ref.cond ?? ref.k);
        break;
      }
      case 'preconnect': {
        const r = resolver.resolve(ref.v, docUrl);
        if (r.kind === 'cross') cross.add(r.host);
        break;
      }
      case 'srcset': {
        for (const candidate of srcsetUrls(ref, page.rel, diagnostics)) {
          const dep = local(candidate, ref);
          const cond = ref.pick !== undefined && candidate !== ref.pick ? 'other-density' : ref.cond;
          if (dep) add(pageSink, 'images', dep, 'image', false, pageUrl, cond);
        }
        break;
      }
      case 'img':
      case 'poster':
      case 'svg-image':
      case 'svg-use':
      case 'background': {
        const dep = local(ref.v, ref);
        if (dep) add(pageSink, 'images', dep, 'image', false, pageUrl, ref.cond);
        break;
      }
      case 'video':
      case 'audio':
      case 'track': {
        const dep = local(ref.v, ref);
        if (dep) add(pageSink, 'rest', dep, ref.k, false, pageUrl, ref.cond);
        break;
      }
      case 'object': {
        const dep = local(ref.v, ref);
        if (dep) {
          const as = asFor(dep.file);
          add(pageSink, as === 'image' ? 'images' : 'rest', dep, as, false, pageUrl);
        }
        break;
      }
      case 'iframe':
      case 'anchor': {
        const r = resolver.resolve(ref.v, resolver.baseFor(docUrl, ref.base), true);
        if (r.kind === 'cross') {
          if (ref.k === 'iframe') cross.add(r.host);
        } else if (r.kind === 'local') addPageLink(pageLinks, ref.k, r, resolver.site.basePath);
        else if (ref.k === 'iframe') reportRef(diagnostics, r, ref.v, page.rel, ref.line);
        break;
      }
      default:
    }
  }

  await addRouteChunks(ctx, pageSink, classicScripts, pageUrl, resolver.baseFor(docUrl, extract.base));

  const chars = await pageChars(ctx, extract, buckets, (item) => fontRange(item) !== undefined);
  const styles = new Map<string, FaceStyle>();
  for (const bucket of BUCKETS) {
    for (const item of buckets[bucket]) {
      const style = fontStyle(item);
      // A file two faces name counts as upright if either is.
      if (style && !analyzer.gone.has(item.path) && !(styles.get(item.url)?.slanted === false))
        styles.set(item.url, style);
    }
  }
  const document: ClosureItem = { url: pageUrl, path: page.path, as: 'document', critical: true, from: pageUrl };
  const items = mergeBuckets(document, buckets, (item) => {
    const range = fontRange(item);
    return analyzer.gone.has(item.path) || (range !== undefined && chars !== undefined && !rangesUsed(range, chars));
  });
  await unusedFaces(ctx, page, extract, items, styles);
  const closure: PageClosure = {
    url: pageUrl,
    file: page.rel,
    items,
    iframes,
    links,
    crossOrigin: [...cross].sort(),
    prefetch,
    ...(cleanLinks.length > 0 ? { cleanLinks } : {}),
    ...(bareDirLinks.length > 0 ? { bareDirLinks } : {}),
  };
  if (chars) closure.fontsByChars = true;
  return closure;
}
