import { createHash } from 'node:crypto';
import { SAXParser } from 'parse5-sax-parser';
import { htmlContentType, isUtf16 } from '../discover/html-charset.js';

/** Where the worker registration script lives on the site. */
export const REGISTER_PATH = '/objpack-register.js';
export const WORKER_PATH = '/objpack-sw.js';
export const REGISTER_TAG = `<script src="${REGISTER_PATH}" defer></script>`;

/**
 * Returns the HTML with the registration `<script>` added at the end of `<head>` (or before the first body
 * content when the head is implicit, or at the end), or `undefined` when the page already loads the
 * script, so rebuilding never injects twice. The scan uses parse5's tokenizer, so a `</head>` inside a
 * comment, a script or a string never fools it, and it stops as soon as the place is found.
 */
export function injectRegister(html: string): string | undefined {
  if (html.includes(REGISTER_PATH)) return undefined;
  let at = -1;
  const parser = new SAXParser({ sourceCodeLocationInfo: true });
  const found = (offset: number) => {
    if (at < 0) {
      at = offset;
      parser.stop();
    }
  };
  parser.on('endTag', (t) => {
    if (t.tagName === 'head' || t.tagName === 'html' || t.tagName === 'body') found(t.sourceCodeLocation!.startOffset);
  });
  parser.on('startTag', (t) => {
    if (t.tagName === 'body' || BODY_CONTENT.has(t.tagName)) found(t.sourceCodeLocation!.startOffset);
  });
  parser.end(html);
  if (at < 0) at = html.length;
  return `${html.slice(0, at)}${REGISTER_TAG}${html.slice(at)}`;
}

/**
 * The page's bytes with the registration tag, or undefined when it already has it or cannot take it. The
 * bytes are read as latin1 (one character per byte, exact both ways): offsets are byte offsets, the tag and
 * HTML's syntax are ASCII in every ASCII-compatible encoding, and a windows-1252 or Shift_JIS page keeps
 * every byte it had (decoding it as UTF-8 would replace its non-ASCII bytes with U+FFFD). UTF-16 pages
 * are left as they are.
 */
export function injectBytes(source: Buffer): Buffer | undefined {
  if (isUtf16(source)) return undefined;
  const injected = injectRegister(source.toString('latin1'));
  return injected === undefined ? undefined : Buffer.from(injected, 'latin1');
}

/**
 * The HTML a build ships for a page read as `source`: with the registration tag when `inject` (and the page
 * lacks it; `changed` says so), its SHA-256 (base64) and the content type it is served with. Discovery's
 * parser threads compute it from the bytes they parse, so the build does not read and inject every page
 * again on its main thread.
 */
export function finalHtml(source: Buffer, inject: boolean): { body: Buffer; sha256: string; changed: boolean; contentType: string } {
  const injected = inject ? injectBytes(source) : undefined;
  const body = injected ?? source;
  return { body, sha256: createHash('sha256').update(body).digest('base64'), changed: injected !== undefined, contentType: htmlContentType(source) };
}

// Tags that open the body when the document omits <body>; a script before them stays in the head.
const BODY_CONTENT = new Set(['div', 'p', 'main', 'header', 'footer', 'nav', 'section', 'article', 'h1', 'h2', 'h3', 'img', 'table', 'ul', 'ol', 'form', 'a', 'span', 'pre']);
