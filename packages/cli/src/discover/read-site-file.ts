import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { WarningCode, warn } from '../diagnostics/warnings.js';
import { isUtf16, metaCharset } from './html-charset.js';
import type { Diagnostic, SiteFile } from './types.js';

/** Content hash used as the DiscoverCache key (fast, not a security boundary). */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('base64url');
}

/**
 * A page's content hash with the first occurrence of `ignore` left out: the registration tag the build
 * injects, so a page hashes (and reuses its parse) the same before and after the build rewrote it.
 */
export function pageHash(bytes: Uint8Array, ignore: string | undefined): string {
  const at = ignore ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(ignore) : -1;
  if (at < 0) return contentHash(bytes);
  return createHash('sha1')
    .update(bytes.subarray(0, at))
    .update(bytes.subarray(at + Buffer.byteLength(ignore!)))
    .digest('base64url');
}

/** Reads a site file, turning "gone" and "unreadable" into a diagnostic instead of an exception. */
export async function readSiteFile(file: SiteFile): Promise<Buffer | Diagnostic> {
  try {
    return await readFile(file.file);
  } catch (err) {
    return readFailure(file.rel, err);
  }
}

export function readFailure(rel: string, err: unknown): Diagnostic {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return warn(WarningCode.FILE_VANISHED, { path: rel }, { file: rel });
  return warn(WarningCode.UNREADABLE, { path: rel, reason: code ?? (err as Error).message }, { file: rel });
}

/**
 * Decodes an HTML file as a browser would for the common cases: a BOM, valid UTF-8, else the `<meta>`
 * charset in the first 1024 bytes, else windows-1252 (the legacy default). URL paths are UTF-8 whatever
 * the page's encoding, so a wrong guess here would turn 'café.png' into a missing reference.
 */
export function decodeHtml(bytes: Uint8Array): string {
  return decodeText(bytes, () => metaCharset(bytes));
}

/**
 * The decoding order HTML and CSS share: a BOM; valid UTF-8; the file's own label (`declared`, read only
 * when needed), where a UTF-16 label on BOM-less bytes means UTF-8 (HTML's prescan, CSS Syntax §3.2);
 * else windows-1252.
 */
function decodeText(bytes: Uint8Array, declared: () => string | undefined): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  if (isUtf16(bytes)) return new TextDecoder(bytes[0] === 0xfe ? 'utf-16be' : 'utf-16le').decode(bytes);
  if (isUtf8(bytes)) return buf.toString('utf8');
  for (const candidate of [declared(), 'windows-1252']) {
    if (!candidate) continue;
    try {
      const decoder = new TextDecoder(candidate);
      if (decoder.encoding.startsWith('utf-16')) return buf.toString('utf8');
      return decodeLegacy(decoder, bytes);
    } catch {
      // unknown label: try the next
    }
  }
  return decodeLegacy(new TextDecoder('windows-1252'), bytes);
}

/** WHATWG's windows-1252 index for 0x80–0x9F (the five unassigned bytes map to the C1 controls). */
const CP1252_HIGH =
  '\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\x8d\u017d\x8f' +
  '\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\x9d\u017e\u0178';

/**
 * `decoder.decode(bytes)`, except that Node 20's windows-1252 (also what `latin1` and `iso-8859-1` mean
 * on the web) decodes 0x80–0x9F as C1 controls: `€` became U+0080, so `Š.png` was a missing file. Correct
 * decoders produce no C1 control there but the five the index maps to themselves, so the fix is a no-op.
 */
function decodeLegacy(decoder: InstanceType<typeof TextDecoder>, bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  return decoder.encoding === 'windows-1252'
    ? text.replace(/[\x80-\x9f]/g, (c: string) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!)
    : text;
}

/**
 * Decodes a stylesheet as a browser decodes it when objpack serves it (CSS Syntax §3.2): a BOM; else the
 * HTTP charset, which is UTF-8 exactly when the bytes are UTF-8 (the build labels only those so, and a
 * label beats `@charset`); else a leading `@charset "…";` rule; else (where the browser would use the
 * linking page's encoding) windows-1252. `url(café.png)` in a latin-1 sheet names `caf%C3%A9.png` (URL
 * paths are UTF-8), not a U+FFFD file.
 */
export function decodeCss(bytes: Uint8Array): string {
  // `@charset "` + bytes other than `"` and `;` + `";` at the very start, within the first 1024 bytes
  // (CSS Syntax §3.2 step 3); the label is then trimmed like any encoding label.
  return decodeText(bytes, () => {
    const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
    return /^@charset "([^";]*)";/.exec(head)?.[1]?.trim();
  });
}
