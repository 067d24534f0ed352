import { digestEquals, sha256 } from '@objpack/format';

/**
 * SHA-256 with Web Crypto: native, off the decoding loop. The format's incremental TypeScript hash would
 * run synchronously inside push() and hold the navigation's HTML behind the hashing of a whole chunk.
 */
export async function verify(bytes: Uint8Array, digest: Uint8Array): Promise<boolean> {
  const got = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return digestEquals(got, digest);
}

let hashWarm = false;

/**
 * Runs the TypeScript hash once on a few bytes, in a later task, the first time a page package is on its
 * way: the navigation's HTML is hashed with it on this thread, and V8's first run of a function is several
 * times slower than a warm one. While the package's round trip is pending the thread is idle, so warming it
 * then costs the first page nothing.
 */
export function warmHash(): void {
  if (hashWarm) return;
  hashWarm = true;
  setTimeout(() => sha256(new Uint8Array(8192)), 0);
}

/** The navigation's HTML: hashed at once, on this thread, so the page gets its last bytes first. */
export function verifyNow(bytes: Uint8Array, digest: Uint8Array): boolean {
  return digestEquals(sha256(bytes), digest);
}
