import { Decoder } from './decoder.js';
import type { DecodeEvent } from './events.js';
import type { DecoderOptions } from './types.js';

function eventDecoder(emit: (e: DecodeEvent) => void, options?: DecoderOptions): Decoder {
  return new Decoder(
    {
      onIndex: (index) => emit({ type: 'index', index }),
      onObjectStart: (entry) => emit({ type: 'start', entry }),
      onObjectData: (entry, bytes) => emit({ type: 'data', entry, bytes }),
      onObjectEnd: (entry) => emit({ type: 'end', entry }),
    },
    options,
  );
}

/** A WHATWG TransformStream from package bytes to {@link DecodeEvent}s (errors as FormatError). */
export function createDecoderStream(options?: DecoderOptions): TransformStream<Uint8Array, DecodeEvent> {
  let decoder: Decoder;
  return new TransformStream<Uint8Array, DecodeEvent>({
    start(controller) {
      decoder = eventDecoder((e) => controller.enqueue(e), options);
    },
    transform(chunk) {
      decoder.push(chunk);
    },
    flush() {
      decoder.end();
    },
  });
}

async function* chunksOf(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (Symbol.asyncIterator in source) {
    yield* source as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    // Stopped early (break or a decode error): cancel the source, as async iteration of a stream does,
    // so a fetch body stops downloading instead of merely being unlocked.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * Decodes a byte stream as an async iterator of events. Stopping the iteration early (break/return)
 * stops reading the source.
 */
export async function* decodeStream(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  options?: DecoderOptions,
): AsyncGenerator<DecodeEvent> {
  const pending: DecodeEvent[] = [];
  const decoder = eventDecoder((e) => pending.push(e), options);
  for await (const chunk of chunksOf(source)) {
    decoder.push(chunk);
    while (pending.length > 0) yield pending.shift()!;
  }
  decoder.end();
  while (pending.length > 0) yield pending.shift()!;
}
