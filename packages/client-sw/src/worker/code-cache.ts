import type { ObjectEntry } from '@objpack/format';
import { chromium } from '../engine.js';

/** Chromium keeps no code cache for scripts this short; a look-up would be wasted. */
const MIN_SCRIPT_BYTES = 1024;

const essence = (contentType: string | null): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();
const SCRIPT = /^(?:text|application)\/(?:x-)?(?:java|ecma)script$/;

/**
 * The browser's HTTP-cache copy of a shared package's script, when it holds exactly these bytes, to store in
 * Cache Storage instead of a Response made from them. Chromium keeps a V8 code cache beside a Cache Storage
 * entry only when the entry came from the network: a script made from package bytes is compiled from scratch
 * on every load in a new renderer (a browser restarted, a new tab), where the same script from the HTTP cache
 * is not, from a site's third visit on. A reader's first visit, before the worker, loaded the site's common
 * scripts from the host, so the HTTP cache usually has them. `only-if-cached` never goes to the network; a
 * copy of other bytes, another type, a redirect or anything that fails leaves the package's own copy.
 */
export async function httpCachedScript(
  url: string,
  entry: ObjectEntry,
  bytes: Uint8Array,
): Promise<Response | undefined> {
  if (!SCRIPT.test(essence(entry.contentType)) || bytes.length < MIN_SCRIPT_BYTES || !chromium()) return undefined;
  try {
    const res = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin', redirect: 'error' });
    // `Vary` would make Cache Storage key the copy by request headers the page's own request may not send.
    if (res.status !== 200 || res.type !== 'basic' || res.headers.has('vary')) return undefined;
    if (essence(res.headers.get('content-type')) !== essence(entry.contentType)) return undefined;
    const got = new Uint8Array(await res.clone().arrayBuffer());
    return sameBytes(got, bytes) ? res : undefined;
  } catch {
    return undefined;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
