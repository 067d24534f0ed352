import { ObjpackSwError, SwErrorCode } from '../errors.js';
import type { ResolvedOptions } from '../options.js';

/**
 * Paper 004's proxy query protocol over HTTP: ask every mirror with a cheap HEAD at once, take the first
 * that has the package, and give up on them after the timeout (then the origin serves). Mirrors are
 * trusted by configuration, as a CDN is: the worker verifies every object's digest, not who wrote the index.
 */
export async function pickMirror(
  path: string,
  options: ResolvedOptions,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (options.mirrors.length === 0) return undefined;
  const ctrl = new AbortController();
  const abort = () => ctrl.abort();
  signal.addEventListener('abort', abort);
  const timer = setTimeout(abort, options.mirrorTimeoutMs);
  try {
    const asks = options.mirrors.map(async (origin) => {
      const res = await fetch(new URL(path, origin).href, {
        method: 'HEAD',
        mode: 'cors',
        credentials: 'omit',
        signal: ctrl.signal,
      });
      if (!res.ok) throw new Error(String(res.status));
      return origin;
    });
    // A timeout or every mirror missing both end here as "no mirror": the origin is always the fallback.
    return await Promise.any(asks).catch(() => undefined);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', abort);
    ctrl.abort();
  }
}

export interface PackageFetch {
  response: Response;
  /** Where the bytes came from (origin or a mirror). */
  from: string;
  /** The origin sent a delta package (only the objects not named in `X-Objpack-Have`). */
  delta: boolean;
}

export interface FetchOptions {
  revalidate: boolean;
  /** `X-Objpack-Have` value: asks the origin (never a mirror: static hosts) for a delta package. */
  have?: string;
  /** Sees every origin response, to learn whether the origin speaks `X-Objpack-Have`. */
  observe?: (res: Response, sentHave: boolean) => void;
}

/** Fetches one package: from a mirror when one answers in time, else from the origin. Only a 200 will do. */
export async function fetchPackage(
  path: string,
  origin: string,
  options: ResolvedOptions,
  signal: AbortSignal,
  { revalidate, have, observe }: FetchOptions,
): Promise<PackageFetch> {
  // A delta is made for what this worker holds: only the origin can do that, so mirrors are not asked.
  const mirror = have ? undefined : await pickMirror(path, options, signal);
  if (mirror) {
    options.onEvent({ type: 'mirror', url: path, detail: mirror });
    try {
      const response = await fetch(new URL(path, mirror).href, { mode: 'cors', credentials: 'omit', signal });
      if (response.status === 200 && response.body) return { response, from: mirror, delta: false };
    } catch {
      // A mirror that said yes and then failed costs one request; the origin still answers.
    }
  }
  let response: Response;
  try {
    // Page packages change with every deploy at the same URL: never take the HTTP cache's word for them.
    const cache: RequestCache = revalidate ? 'no-cache' : 'default';
    const headers: HeadersInit = have ? { 'x-objpack-have': have } : {};
    response = await fetch(new URL(path, origin).href, { credentials: 'same-origin', cache, signal, headers });
  } catch (cause) {
    throw new ObjpackSwError(SwErrorCode.PACKAGE_NETWORK, path, { cause });
  }
  observe?.(response, !!have);
  if (response.status !== 200 || !response.body)
    throw new ObjpackSwError(SwErrorCode.PACKAGE_HTTP, `${path} ${response.status}`);
  const delta = !!have && response.headers.get('x-objpack-dynamic') === 'delta';
  return { response, from: origin, delta };
}
