import { isUtf8 } from 'node:buffer';
import { UTF8_HTML } from '@objpack/format';

/** The `<meta charset>` (or `http-equiv` content) label in the first 1024 bytes, as a browser's prescan finds it. */
export function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)/i.exec(head)?.[1]?.toLowerCase();
}

/** A UTF-16 byte order mark: the bytes are not ASCII-compatible. */
export const isUtf16 = (b: Uint8Array) => (b[0] === 0xfe && b[1] === 0xff) || (b[0] === 0xff && b[1] === 0xfe);

const UTF8_LABELS = new Set([
  'utf-8',
  'utf8',
  'unicode-1-1-utf-8',
  'unicode11utf8',
  'unicode20utf8',
  'x-unicode20utf8',
]);

/**
 * The `Content-Type` a page is served with from its package. UTF-8 pages (most of the web) are labelled so;
 * any other page goes out as plain `text/html`, as a server with no charset setting sends it (nginx's
 * default), so the browser decodes it by its BOM or `<meta charset>` exactly as without objpack. Labelling a
 * windows-1252 page UTF-8 would garble every non-ASCII character.
 */
export function htmlContentType(bytes: Uint8Array): string {
  if (isUtf16(bytes)) return 'text/html';
  const label = metaCharset(bytes);
  return isUtf8(bytes) && (label === undefined || UTF8_LABELS.has(label)) ? UTF8_HTML : 'text/html';
}
