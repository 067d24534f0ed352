/**
 * Everything discovery needs from one HTML file, parsed once: its references plus the parsed content of
 * inline `<style>`, style attributes and inline module scripts. Plain JSON (crosses worker threads, sits
 * in the DiscoverCache).
 */
import { extractCss } from './css-extract.js';
import type { CssExtract } from './css-extract.js';
import { extractHtml } from './html-extract.js';
import type { HtmlExtract } from './html-extract.js';
import { extractJs } from './js-extract.js';
import type { JsExtract } from './js-extract.js';

/** Bump when extraction changes, so cached results from an older objpack are not reused. */
export const EXTRACT_VERSION = 3;

export interface PageExtract extends HtmlExtract {
  /** Parsed inline CSS/JS, by index into `refs`. */
  inline: Record<number, { css?: CssExtract; js?: JsExtract; imports?: Record<string, string> }>;
}

/** Parses a page. Requires `jsReady` to have resolved (inline module scripts use es-module-lexer). */
export function extractPage(source: string): PageExtract {
  const html = extractHtml(source);
  const inline: PageExtract['inline'] = {};
  html.refs.forEach((ref, i) => {
    if (ref.k === 'style' || ref.k === 'style-attr') inline[i] = { css: extractCss(ref.v, ref.k === 'style-attr') };
    else if (ref.k === 'module-inline') inline[i] = { js: extractJs(ref.v) };
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
