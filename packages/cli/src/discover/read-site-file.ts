import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DiscoverCodes, warning } from './diagnostic-codes.js';
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
  return createHash('sha1').update(bytes.subarray(0, at)).update(bytes.subarray(at + Buffer.byteLength(ignore!))).digest('base64url');
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
  if (code === 'ENOENT') return warning(DiscoverCodes.FILE_VANISHED, `${rel} disappeared during the build; left out`, { file: rel });
  return warning(DiscoverCodes.UNREADABLE, `Cannot read ${rel} (${code ?? (err as Error).message}); left out`, { file: rel });
}

/**
 * Decodes an HTML file as a browser would for the common cases: a BOM, valid UTF-8, else the `<meta>`
 * charset in the first 1024 bytes, else windows-1252 (the legacy default). URL paths are UTF-8 whatever
 * the page's encoding, so a wrong guess here would turn 'café.png' into a missing reference.
 */
export function decodeHtml(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  if (isUtf16(bytes)) return new TextDecoder(bytes[0] === 0xfe ? 'utf-16be' : 'utf-16le').decode(bytes);
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  for (const candidate of [metaCharset(bytes), 'windows-1252']) {
    if (!candidate) continue;
    try {
      return new TextDecoder(candidate).decode(bytes);
    } catch {
      // unknown label: try the next
    }
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
