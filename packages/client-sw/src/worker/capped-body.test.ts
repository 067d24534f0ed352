import { describe, expect, it } from 'vitest';
import { textUpTo } from './capped-body.js';

/** 'é' × `chars` (2 bytes each) in chunks of `chunk` bytes; `state` counts the chunks the reader took. */
function body(chars: number, chunk: number) {
  const bytes = new TextEncoder().encode('é'.repeat(chars));
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const at = state.pulled * chunk;
      if (at >= bytes.length) return controller.close();
      state.pulled++;
      controller.enqueue(bytes.slice(at, at + chunk));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { res: new Response(stream), state };
}

describe('textUpTo', () => {
  it('reads a body up to the limit whole, characters split across chunks included', async () => {
    const { res } = body(2000, 999);
    expect(await textUpTo(res, 4000)).toBe('é'.repeat(2000));
  });
  it('stops and cancels the stream at the first chunk past the limit', async () => {
    const { res, state } = body(50_000, 1000);
    expect(await textUpTo(res, 4000)).toBeUndefined();
    expect(state.pulled).toBeLessThanOrEqual(6);
    expect(state.cancelled).toBe(true);
  });
  it('an empty body is an empty string', async () => {
    expect(await textUpTo(new Response(null), 10)).toBe('');
    expect(await textUpTo(new Response(''), 10)).toBe('');
  });
});
