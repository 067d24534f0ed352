import type { ObjectEntry } from '@objpack/format';
import { ObjpackSwError, SwErrorCode } from '../errors.js';
import { objectHeaders } from './object-response.js';

/**
 * A large object whose package entry carries only a prefix (the thesis' partial push): the prefix is
 * answered at once, the rest streams from the network with `Range: bytes=<size>-`. The combined response is
 * a plain 200 of the whole object; nothing of it goes into Cache Storage (a 206 never does).
 */
export function partialResponse(entry: ObjectEntry, prefix: Uint8Array, url: string, buildId: string): Response {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const rest = fetchRest(url, entry.size, entry.totalSize);
  rest.catch(() => {});
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      if (prefix.length > 0) c.enqueue(prefix);
    },
    async pull(c) {
      reader ??= (await rest).getReader();
      const { done, value } = await reader.read();
      if (done) c.close();
      else c.enqueue(value);
    },
    cancel() {
      reader?.cancel().catch(() => {});
    },
  });
  return new Response(body, { status: 200, headers: objectHeaders(entry, buildId) });
}

async function fetchRest(url: string, from: number, total: number): Promise<ReadableStream<Uint8Array>> {
  // Straight to the network (`no-store`): the HTTP cache must not answer a range of another version.
  const res = await fetch(url, { headers: { range: `bytes=${from}-` }, cache: 'no-store', credentials: 'same-origin' });
  if (res.status === 206 && res.body) {
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
    if (m && Number(m[1]) === from && Number(m[2]) === total - 1 && Number(m[3]) === total) return res.body;
  } else if (res.status === 200 && res.body && Number(res.headers.get('content-length') ?? total) === total) {
    // A server without Range support sends everything: skip what the package already gave.
    return res.body.pipeThrough(skipBytes(from));
  }
  res.body?.cancel().catch(() => {});
  throw new ObjpackSwError(SwErrorCode.RANGE_REST, `${url} ${res.status}`);
}

function skipBytes(n: number): TransformStream<Uint8Array, Uint8Array> {
  let left = n;
  return new TransformStream({
    transform(chunk, c) {
      if (left >= chunk.length) {
        left -= chunk.length;
        return;
      }
      c.enqueue(left > 0 ? chunk.subarray(left) : chunk);
      left = 0;
    },
  });
}
