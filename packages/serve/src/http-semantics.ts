import { MEDIA_TYPE } from '@objpack/format';

/** A single satisfiable range, inclusive ends (RFC 9110 §14.1.2). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * `Range` → one range, `'unsatisfiable'` (416) or `null` (serve the whole body: no header, not bytes,
 * malformed, or several ranges — a multipart answer would cost more than the file).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return null;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return null;
  if (a === '') {
    const n = Number(b);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  if (!Number.isSafeInteger(start)) return null;
  if (start >= size) return 'unsatisfiable';
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (end < start) return null;
  return { start, end };
}

/** Strong comparison against an `If-None-Match` / `If-Range` list; weak tags never match a strong one. */
function matches(list: string, etags: readonly string[]): boolean {
  if (list.trim() === '*') return true;
  for (const raw of list.split(',')) {
    const t = raw.trim();
    if (t.startsWith('W/')) continue;
    if (etags.includes(t)) return true;
  }
  return false;
}

/** True when the client's copy is current (answer 304). `etags`: every representation's tag. */
export function isNotModified(
  ifNoneMatch: string | undefined,
  ifModifiedSince: string | undefined,
  etags: readonly string[],
  mtimeMs: number,
): boolean {
  if (ifNoneMatch !== undefined) return matches(ifNoneMatch, etags);
  if (ifModifiedSince !== undefined) {
    const t = Date.parse(ifModifiedSince);
    return Number.isFinite(t) && Math.floor(mtimeMs / 1000) * 1000 <= t;
  }
  return false;
}

/** `If-Range` allows the range only when it names the current representation. */
export function ifRangeHolds(ifRange: string | undefined, etag: string, lastModified: string): boolean {
  if (ifRange === undefined) return true;
  const v = ifRange.trim();
  if (v.startsWith('"') || v.startsWith('W/')) return !v.startsWith('W/') && v === etag;
  return v === lastModified;
}

/** Best supported content coding by `Accept-Encoding` q-values: `'br'`, `'gzip'` or `null` (identity). */
export function negotiateEncoding(
  header: string | undefined,
  available: { br: boolean; gzip: boolean },
): 'br' | 'gzip' | null {
  if (!header) return null;
  let best: 'br' | 'gzip' | null = null;
  let bestQ = 0;
  let star = -1;
  const seen = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (name === '*') star = q;
    else seen.set(name, q);
  }
  for (const coding of ['br', 'gzip'] as const) {
    if (!available[coding]) continue;
    const q = seen.get(coding) ?? (coding === 'gzip' ? seen.get('x-gzip') : undefined) ?? (star >= 0 ? star : 0);
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/** The client asks for the page as a package: `Accept: application/vnd.objpack` or `X-Objpack: package`. */
export function wantsPackage(accept: string | undefined, xObjpack: string | undefined): boolean {
  if (xObjpack !== undefined && xObjpack.trim().toLowerCase() === 'package') return true;
  if (!accept || !accept.includes(MEDIA_TYPE)) return false;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    if (type.trim() !== MEDIA_TYPE) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find(Boolean);
    return !q || Number(q[1]) > 0;
  }
  return false;
}

/**
 * Whether a response with this `Cache-Control` may be reused from a private cache without asking the
 * server: fresh for a while (`max-age` > 0, RFC 9111 §5.2.2.1) and neither `no-cache` (§5.2.2.4) nor
 * `no-store` (§5.2.2.5).
 */
export function reusableWithoutAsking(cacheControl: string | undefined): boolean {
  if (!cacheControl) return false;
  let maxAge = 0;
  for (const part of cacheControl.toLowerCase().split(',')) {
    const [name = '', value = ''] = part.trim().split('=');
    if (name === 'no-cache' || name === 'no-store') return false;
    if (name === 'max-age') maxAge = Number(value.replace(/"/g, '')) || 0;
  }
  return maxAge > 0;
}
