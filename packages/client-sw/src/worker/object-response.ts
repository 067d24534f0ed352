import { digestToSri, type ObjectEntry } from '@objpack/format';

/** Response headers for an object, from its index row. */
export function objectHeaders(entry: ObjectEntry, buildId: string): Headers {
  const h = new Headers();
  for (const [name, value] of entry.headers) h.append(name, value);
  h.set('content-type', entry.contentType);
  h.set('content-length', String(entry.totalSize));
  h.set('x-objpack-digest', digestToSri(entry.digest));
  if (buildId) h.set('x-objpack-build', buildId);
  return h;
}

/** A complete object as the page sees it: status 200, the package's headers, the verified bytes. */
export function objectResponse(entry: ObjectEntry, bytes: Uint8Array, buildId: string): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers: objectHeaders(entry, buildId) });
}

/** Joins owned chunks into one buffer (one copy, at the end of the object). */
export function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]!.length === size) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
