/**
 * Everything discovery needs from one HTML file, parsed once: its references plus the parsed content of
 * inline `<style>`, style attributes and inline module scripts. Plain JSON (crosses worker threads, sits
 * in the DiscoverCache).
 */
import type { CssExtract } from './css-extract.js';
import { extractHtml } from './html-extract.js';
import type { HtmlExtract } from './html-ref.js';
import type { JsExtract } from './js-extract.js';

/**
 * Bump when extraction changes, so cached results from an older objpack are not reused. It keys cached
 * closures too: 6 = closures record `cleanLinks`, 7 = and `bareDirLinks`, 8 = fonts come from the last
 * valid `src` (font-src.ts), 9 = tiers (tiers.ts), 10 = Docusaurus route chunks (route-chunks.ts).
 */
export const EXTRACT_VERSION = 11;

export interface PageExtract extends HtmlExtract {
  /** Parsed inline CSS/JS, by index into `refs`. */
  inline: Record<number, { css?: CssExtract; js?: JsExtract; imports?: Record<string, string> }>;
}

/** The parsers of inline CSS and module scripts (es-module-lexer's must be ready: `jsReady`). */
export interface InlineParsers {
  css(text: string, declarations: boolean): CssExtract;
  js(text: string): JsExtract;
}

/** Parses a page. */
export function extractPage(source: string, parsers: InlineParsers): PageExtract {
  return withInline(extractHtml(source), parsers);
}

/**
 * Parses a page, loading css-tree and es-module-lexer only if it has inline CSS or module scripts: a
 * one-page incremental rebuild in a fresh process would otherwise spend a noticeable part of its time importing them.
 */
export async function extractPageLazily(source: string): Promise<PageExtract> {
  const html = extractHtml(source);
  const css = html.refs.some((r) => isInlineCss(r.k)) ? (await import('./css-extract.js')).extractCss : unused;
  let js: InlineParsers['js'] = unused;
  if (html.refs.some((r) => isInlineModule(r.k))) {
    const m = await import('./js-extract.js');
    await m.jsReady;
    js = m.extractJs;
  }
  return withInline(html, { css, js });
}

function unused(): never {
  throw new Error('extractPageLazily: an inline parser was not loaded');
}

/** The reference kinds whose text goes through an inline parser (extractPageLazily loads by these). */
const isInlineCss = (k: string) => k === 'style' || k === 'style-attr';
const isInlineModule = (k: string) => k === 'module-inline';

function withInline(html: HtmlExtract, parsers: InlineParsers): PageExtract {
  const inline: PageExtract['inline'] = {};
  html.refs.forEach((ref, i) => {
    if (isInlineCss(ref.k)) inline[i] = { css: parsers.css(ref.v, ref.k === 'style-attr') };
    else if (isInlineModule(ref.k)) inline[i] = { js: parsers.js(ref.v) };
    else if (ref.k === 'importmap') inline[i] = { imports: parseImportMap(ref.v) };
    else return;
    ref.v = ''; // the text itself is not needed any more and would bloat the cache
  });
  return { ...html, inline };
}

function parseImportMap(text: string): Record<string, string> {
  try {
    const map = JSON.parse(text) as { imports?: unknown };
    const out: Record<string, string> = {};
    if (map.imports && typeof map.imports === 'object') {
      for (const [k, v] of Object.entries(map.imports)) if (typeof v === 'string') out[k] = v;
    }
    return out;
  } catch {
    return {};
  }
}
