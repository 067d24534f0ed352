/**
 * What extractHtml (html-extract.ts) finds in one HTML document: each reference and what the font choice
 * needs. A module of its own, so the helpers html-extract uses can name these types without importing it.
 */
import type { PreloadCors } from '@objpack/format';

/** The tag or attribute a reference comes from. */
export type HtmlRefKind =
  | 'stylesheet'
  | 'stylesheet-alt'
  | 'style'
  | 'style-attr'
  | 'script'
  | 'script-defer'
  | 'script-async'
  | 'module'
  | 'module-async'
  | 'module-inline'
  | 'importmap'
  | 'modulepreload'
  | 'preload'
  | 'prefetch'
  | 'icon'
  | 'manifest'
  | 'preconnect'
  | 'img'
  | 'srcset'
  | 'poster'
  | 'video'
  | 'audio'
  | 'track'
  | 'object'
  | 'svg-image'
  | 'svg-use'
  | 'background'
  | 'island'
  | 'iframe'
  | 'anchor';

export interface HtmlRef {
  k: HtmlRefKind;
  /** The URL as written; a srcset for 'srcset'; source text for 'style', 'style-attr', 'module-inline', 'importmap'. */
  v: string;
  /** Line where the tag ends (for inline text: where the text starts). */
  line: number;
  /** The `<base href>` in effect, if one came before this reference. */
  base?: string;
  media?: string;
  /** `as` of a preload, `type` of a module/object. */
  as?: string;
  /** The browser may not fetch it on load: 'lazy', 'srcset-candidate', 'track', 'media'. */
  cond?: string;
  /** The element's `crossorigin` state (links and scripts): its request is CORS, which a preload must match. */
  cors?: PreloadCors;
  /**
   * For a srcset: the candidate (as written) the reference display picks, when that can be told; the
   * empty string when it picks none of them (another `<source>` of the `<picture>` wins).
   */
  pick?: string;
}

export interface HtmlExtract {
  refs: HtmlRef[];
  parseErrors: number;
  firstError?: { code: string; line: number; column: number };
  /** The document's `<base href>` (its first, outside templates), as written: scripts resolve URLs against it. */
  base?: string;
  /** Non-ASCII characters anywhere in the page (character references decoded), for choosing font subsets. */
  chars?: string;
  /**
   * The page has text a browser draws slanted without any stylesheet's help: an element italic by default
   * (`em`, `i`, `cite`, `var`, `dfn`, `address`, MathML `mi`), or a style or `font-style` attribute that
   * says italic or oblique. Anywhere, templates included (a script may show them).
   */
  slanted?: true;
}
