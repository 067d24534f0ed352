import { createHash } from 'node:crypto';
import { Tokenizer, TokenizerMode, html } from 'parse5';
import type { TokenHandler } from 'parse5';
import { htmlContentType, isUtf16 } from '../discover/html-charset.js';

/** Where the worker registration script lives on a site served at `/`. */
export const REGISTER_PATH = '/objpack-register.js';
export const WORKER_PATH = '/objpack-sw.js';
/**
 * How the tag loads the script. `defer` runs it once the page is parsed, never in the way of the page's own
 * scripts. `fetchpriority="high"`: a deferred script is otherwise a low-priority request, which Chromium holds
 * back while the head's stylesheets load, so the script (and with it DOMContentLoaded and load) would come
 * after every other object of the page, a round trip late on a first visit (`benchmarks/browser/README.md`).
 * Its 2 KB do not delay the stylesheets.
 */
const REGISTER_ATTRS = 'defer fetchpriority="high"';
export const REGISTER_TAG = `<script src="${REGISTER_PATH}" ${REGISTER_ATTRS}></script>`;

/** The registration script's URL path on a site served under `base` (`/repo/objpack-register.js`). */
export const registerPath = (base = '/'): string => `${base}${REGISTER_PATH.slice(1)}`;
/** The worker's URL path under `base`: the browser gives it the scope of its directory, the base. */
export const workerPath = (base = '/'): string => `${base}${WORKER_PATH.slice(1)}`;
/**
 * The tag the build injects under `base`. The snippet registers the worker beside it, with its directory as
 * the scope, so the tag needs no attribute for that. A base is percent-encoded but may keep `&`, escaped here.
 */
export const registerTag = (base = '/'): string => tagWith(base, REGISTER_ATTRS);

const tagWith = (base: string, attrs: string): string =>
  `<script src="${registerPath(base).replace(/&/g, '&amp;')}" ${attrs}></script>`;

/** How earlier versions wrote the tag: a rebuild of their output brings it up to date. */
const EARLIER_ATTRS = ['defer'];

/**
 * Returns the HTML with the registration `<script>` added where the head ends: before `</head>`, or where
 * the body begins when the head's end is implicit (the first tag that is not head content, `</body>`,
 * `</html>`), or at the end; `undefined` when the page already loads the script, so rebuilding never
 * injects twice (a tag as an earlier version wrote it becomes today's; any other is the site's own). The
 * scan uses parse5's tokenizer, switched as the tree builder switches it (`<title>`, `<script>`, `<style>`,
 * `<noscript>`…), so a `</head>` inside a comment, a script or a string never fools
 * it; tags inside a `<template>` are its inert content, never the place (a script there would not run);
 * and it stops as soon as the place is found.
 */
export function injectRegister(html: string, base = '/'): string | undefined {
  const tag = registerTag(base);
  if (html.includes(tag)) return undefined;
  for (const earlier of EARLIER_ATTRS.map((attrs) => tagWith(base, attrs)))
    if (html.includes(earlier)) return html.replace(earlier, () => tag);
  if (html.includes(registerPath(base))) return undefined;
  const at = headEnd(html);
  return `${html.slice(0, at)}${tag}${html.slice(at)}`;
}

/** Offset where the head ends (see injectRegister). */
function headEnd(html: string): number {
  let at = html.length;
  let templates = 0;
  // A place known to be in the head (or body) so far: after the last complete tag outside templates, before
  // an open raw text element or `<template>`, never before the doctype or a BOM. Where the scan cannot
  // follow the page (it ends inside a comment, a tag, a raw text element or a template; foreign content
  // inside a template, whose `<style>` or `<script>` is not raw text), the tag goes there instead.
  let safe = html.startsWith('\ufeff') ? 1 : html.startsWith('\xef\xbb\xbf') ? 3 : 0;
  const found = (offset: number) => {
    at = offset;
    tokenizer.pause();
  };
  const ignore = () => undefined;
  const handler: TokenHandler = {
    onComment: ignore,
    onDoctype(token) {
      if (templates === 0) safe = token.location!.endOffset;
    },
    onCharacter: ignore,
    onNullCharacter: ignore,
    onWhitespaceCharacter: ignore,
    onEof() {
      if (templates > 0 || tokenizer.state !== TokenizerMode.DATA) at = safe;
    },
    onParseError: null,
    onStartTag(token) {
      if (token.tagID === $.TEMPLATE) {
        if (templates++ === 0) safe = token.location!.startOffset;
      } else if (templates === 0 && !HEAD_CONTENT.has(token.tagID)) return found(token.location!.startOffset);
      else if (token.tagID === $.SVG || token.tagID === $.MATH) return found(safe);
      // As the tree builder does, also for `<script/>` (a self-closing flag on an HTML element is ignored).
      const mode = TEXT_MODES.get(token.tagID);
      if (mode !== undefined) tokenizer.state = mode;
      if (templates === 0 && token.tagID !== $.TEMPLATE)
        safe = mode === undefined ? token.location!.endOffset : token.location!.startOffset;
    },
    onEndTag(token) {
      if (token.tagID === $.TEMPLATE) templates = Math.max(0, templates - 1);
      else if (templates === 0 && (token.tagID === $.HEAD || token.tagID === $.BODY || token.tagID === $.HTML))
        return found(token.location!.startOffset);
      if (templates === 0) safe = token.location!.endOffset;
    },
  };
  const tokenizer = new Tokenizer({ sourceCodeLocationInfo: true }, handler);
  tokenizer.write(html, true);
  return at;
}

const $ = html.TAG_ID;

/**
 * Start tags the tree builder keeps in the head (or, after it, still puts there): any other opens the body.
 * Foreign content (`<svg>`, `<math>`) opens it too, so the scan never has to follow namespaces.
 */
const HEAD_CONTENT = new Set<html.TAG_ID>([
  $.HTML,
  $.HEAD,
  $.BASE,
  $.BASEFONT,
  $.BGSOUND,
  $.LINK,
  $.META,
  $.NOFRAMES,
  $.SCRIPT,
  $.STYLE,
  $.TEMPLATE,
  $.TITLE,
  $.NOSCRIPT,
]);

/** The tokenizer state the tree builder sets after these start tags (scripting on: `<noscript>` is raw text). */
const TEXT_MODES = new Map<html.TAG_ID, (typeof TokenizerMode)[keyof typeof TokenizerMode]>([
  [$.TITLE, TokenizerMode.RCDATA],
  [$.TEXTAREA, TokenizerMode.RCDATA],
  [$.SCRIPT, TokenizerMode.SCRIPT_DATA],
  [$.STYLE, TokenizerMode.RAWTEXT],
  [$.NOSCRIPT, TokenizerMode.RAWTEXT],
  [$.NOFRAMES, TokenizerMode.RAWTEXT],
  [$.IFRAME, TokenizerMode.RAWTEXT],
  [$.XMP, TokenizerMode.RAWTEXT],
  [$.NOEMBED, TokenizerMode.RAWTEXT],
  [$.PLAINTEXT, TokenizerMode.PLAINTEXT],
]);

/**
 * The page's bytes with the registration tag, or undefined when it already has it or cannot take it. The
 * bytes are read as latin1 (one character per byte, exact both ways): offsets are byte offsets, the tag and
 * HTML's syntax are ASCII in every ASCII-compatible encoding, and a windows-1252 or Shift_JIS page keeps
 * every byte it had (decoding it as UTF-8 would replace its non-ASCII bytes with U+FFFD). UTF-16 pages
 * are left as they are.
 */
export function injectBytes(source: Buffer, base = '/'): Buffer | undefined {
  if (isUtf16(source)) return undefined;
  const injected = injectRegister(source.toString('latin1'), base);
  return injected === undefined ? undefined : Buffer.from(injected, 'latin1');
}

/**
 * The HTML a build ships for a page read as `source`: with the registration tag for `base` when `inject` (and the page
 * lacks it; `changed` says so), its SHA-256 (base64) and the content type it is served with. Discovery's
 * parser threads compute it from the bytes they parse, so the build does not read and inject every page
 * again on its main thread.
 */
export function finalHtml(
  source: Buffer,
  inject: boolean,
  base = '/',
): { body: Buffer; sha256: string; changed: boolean; contentType: string } {
  const injected = inject ? injectBytes(source, base) : undefined;
  const body = injected ?? source;
  return {
    body,
    sha256: createHash('sha256').update(body).digest('base64'),
    changed: injected !== undefined,
    contentType: htmlContentType(source),
  };
}
