import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { Utf8Check } from './utf8-check.js';

/** Digests of one file: the whole object, and the carried prefix when only a prefix is packaged. */
export interface FileDigest {
  size: number;
  mtimeMs: number;
  ino?: number;
  /** sha256 of the whole file, base64. */
  whole: string;
  /** Carried bytes (= size unless partial). */
  sendBytes: number;
  /** sha256 of the carried bytes, base64. */
  send: string;
  /** HTML only: the carried bytes differ from the file (a registration tag was injected). */
  changed?: boolean;
  /** HTML only: the page's `Content-Type` (UTF-8 or not, from its bytes). */
  type?: string;
  /** Whether the file's bytes are valid UTF-8. */
  utf8?: boolean;
}

const SMALL = 1 << 20;

/**
 * Hashes a file once, taking the prefix digest on the way (node:crypto's `copy()` forks the running hash
 * at the prefix boundary). Throws the fs error when the file vanished or cannot be read.
 */
export async function digestFile(
  file: string,
  sendBytes: number,
  stat: { size: number; mtimeMs: number; ino?: number },
): Promise<FileDigest> {
  const whole = createHash('sha256');
  let seen = 0;
  let sendDigest: string | undefined;
  const feed = (chunk: Uint8Array) => {
    const cut = sendBytes - seen;
    if (sendDigest === undefined && cut >= 0 && cut < chunk.length) {
      whole.update(chunk.subarray(0, cut));
      sendDigest = whole.copy().digest('base64');
      whole.update(chunk.subarray(cut));
    } else {
      whole.update(chunk);
    }
    seen += chunk.length;
  };
  const utf8 = new Utf8Check();
  if (stat.size <= SMALL) {
    const bytes = readFileSync(file);
    utf8.push(bytes);
    feed(bytes);
  } else {
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
      utf8.push(chunk as Buffer);
      feed(chunk as Buffer);
    }
  }
  const w = whole.digest('base64');
  return {
    size: seen,
    mtimeMs: stat.mtimeMs,
    ...(stat.ino !== undefined ? { ino: stat.ino } : {}),
    whole: w,
    sendBytes: Math.min(sendBytes, seen),
    send: sendDigest ?? w,
    utf8: utf8.end(),
  };
}
