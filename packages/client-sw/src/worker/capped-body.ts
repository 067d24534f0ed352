/**
 * A response body as text, or undefined once it grows past `maxBytes` (decoded): the stream is cancelled
 * there, so neither the download nor the memory goes further.
 */
export async function textUpTo(res: Response, maxBytes: number): Promise<string | undefined> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    parts.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new TextDecoder().decode(all);
}
