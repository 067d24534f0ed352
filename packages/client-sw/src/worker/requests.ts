import { nameFormPath } from '@objpack/format';

/**
 * Which requests the worker may answer. Everything else goes to the network untouched, exactly as
 * without objpack: other origins, non-GET, Range (media elements, resumable downloads), explicit
 * credentials (`credentials: 'include'` from script or an Authorization header: a per-user answer), and
 * requests that ask to bypass caches.
 */
export function answerable(request: Request, origin: string): boolean {
  if (request.method !== 'GET') return false;
  if (request.headers.has('range') || request.headers.has('authorization')) return false;
  if (request.cache === 'no-store' || request.cache === 'reload') return false;
  // Elements' no-cors loads default to credentials "include" by spec; only an explicit opt-in from a
  // CORS request (`fetch(u, {credentials: 'include'})`, `crossorigin=use-credentials`) marks a per-user load.
  if (request.mode === 'cors' && request.credentials === 'include') return false;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return false;
  }
  return url.origin === origin && (url.protocol === 'https:' || url.protocol === 'http:');
}

/** The name a package uses for this URL: path plus query, as the build records it. */
export function objectName(url: string): string {
  const u = new URL(url);
  // Other browsers may keep `|` `^` that the build's names escape.
  return nameFormPath(u.pathname) + u.search;
}

/** `Clear-Site-Data` asks us to drop caches (`"cache"`, `"storage"`, `"*"`) and maybe to unregister. */
export function clearSiteData(res: Response): { caches: boolean; unregister: boolean } | undefined {
  const v = res.headers.get('clear-site-data');
  if (!v) return undefined;
  const types = v.split(',').map((s) => s.trim().replace(/^"|"$/g, ''));
  const all = types.includes('*');
  const storage = all || types.includes('storage');
  const cache = storage || types.includes('cache');
  return cache ? { caches: true, unregister: storage } : undefined;
}
