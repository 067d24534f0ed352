import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { Decoder } from './decoder.js';
import { encodePackage, type EncoderOptions } from './encoder.js';
import type { DecodeEvent } from './events.js';
import type { BodySource, DecoderOptions, EncoderInput, HashFactory } from './types.js';

/** SHA-256 from node:crypto (several times faster than the portable one). */
export const nodeSha256: HashFactory = () => {
  const h = createHash('sha256');
  return {
    update: (bytes) => void h.update(bytes),
    digest: () => new Uint8Array(h.digest()),
  };
};

/** A re-readable body source over a file (or a byte range of it, `end` inclusive as in fs). */
export function fileSource(path: string, range: { start?: number; end?: number } = {}): BodySource {
  return () =>
    createReadStream(path, {
      start: range.start,
      end: range.end,
      highWaterMark: 256 * 1024,
    }) as AsyncIterable<Uint8Array>;
}

/** An object-mode Transform: package bytes in, {@link DecodeEvent}s out; errors are FormatError. */
export function createNodeDecoder(options: DecoderOptions = {}): Transform {
  let decoder: Decoder | undefined;
  return new Transform({
    readableObjectMode: true,
    construct(callback) {
      const emit = (e: DecodeEvent) => this.push(e);
      decoder = new Decoder(
        {
          onIndex: (index) => emit({ type: 'index', index }),
          onObjectStart: (entry) => emit({ type: 'start', entry }),
          onObjectData: (entry, bytes) => emit({ type: 'data', entry, bytes }),
          onObjectEnd: (entry) => emit({ type: 'end', entry }),
        },
        { hash: nodeSha256, ...options },
      );
      callback();
    },
    transform(chunk: Buffer, _enc, callback) {
      try {
        decoder!.push(chunk);
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
    flush(callback) {
      try {
        decoder!.end();
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
  });
}

/** The encoded package as a Node Readable (backpressure comes from the async generator). */
export function encodeToNodeStream(input: EncoderInput, options: EncoderOptions = {}): Readable {
  return Readable.from(encodePackage(input, { hash: nodeSha256, ...options }), { objectMode: false });
}
