import { describe, expect, it } from 'vitest';
import { FormatError } from './errors.js';
import type { DecodeEvent } from './events.js';
import { createDecoderStream, decodeStream } from './web-stream.js';
import { decodeChunks, evenChunks, transcriptOfEvents } from './test-utils/decode.js';
import { samplePackage } from './test-utils/sample.js';

const pkg = samplePackage();
const expected = decodeChunks(pkg).transcript;

/** A ReadableStream over `bytes` in `size`-byte chunks that records pulls and cancellation. */
function source(bytes: Uint8Array, size: number) {
  const chunks = evenChunks(bytes.length, size).map((n, i) => bytes.slice(i * size, i * size + n));
  const log = { pulls: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        log.pulls++;
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
      cancel() {
        log.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, log, total: chunks.length };
}

/** The same stream seen only through getReader(), as in browsers without ReadableStream async iteration. */
const readerOnly = (s: ReadableStream<Uint8Array>) =>
  ({ getReader: () => s.getReader() }) as unknown as ReadableStream<Uint8Array>;

async function collect(it: AsyncIterable<DecodeEvent>): Promise<DecodeEvent[]> {
  const out: DecodeEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

async function rejection(p: Promise<unknown>): Promise<FormatError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FormatError);
  return err as FormatError;
}

describe('createDecoderStream (WHATWG TransformStream)', () => {
  it('turns package bytes into the same events in any chunking', async () => {
    for (const size of [1, 7, 64, pkg.length]) {
      const events: DecodeEvent[] = [];
      await source(pkg, size)
        .stream.pipeThrough(createDecoderStream())
        .pipeTo(new WritableStream({ write: (e) => void events.push(e) }));
      expect(transcriptOfEvents(events).transcript).toEqual(expected);
    }
  });

  it('errors the readable side with a FormatError on corrupt or truncated input', async () => {
    const bad = pkg.slice();
    bad[bad.length - 2]! ^= 4;
    const r1 = source(bad, 100).stream.pipeThrough(createDecoderStream());
    expect((await rejection(collect(r1))).code).toBe('OBJP_DIGEST_MISMATCH');
    const r2 = source(pkg.subarray(0, 500), 100).stream.pipeThrough(createDecoderStream());
    expect((await rejection(collect(r2))).code).toBe('OBJP_TRUNCATED');
  });

  it('passes options to the decoder (verify: false)', async () => {
    const bad = pkg.slice();
    bad[bad.length - 2]! ^= 4;
    const events = await collect(source(bad, 100).stream.pipeThrough(createDecoderStream({ verify: false })));
    expect(events.filter((e) => e.type === 'end')).toHaveLength(5);
  });
});

describe('decodeStream (async iterator)', () => {
  it('reads a ReadableStream, a reader-only stream and an async iterable alike', async () => {
    expect(transcriptOfEvents(await collect(decodeStream(source(pkg, 13).stream))).transcript).toEqual(expected);
    expect(transcriptOfEvents(await collect(decodeStream(readerOnly(source(pkg, 13).stream)))).transcript).toEqual(
      expected,
    );
    async function* gen() {
      for (let i = 0; i < pkg.length; i += 50) yield pkg.subarray(i, i + 50);
    }
    expect(transcriptOfEvents(await collect(decodeStream(gen()))).transcript).toEqual(expected);
  });

  it('stops reading and cancels the source when the consumer breaks early', async () => {
    for (const wrap of [(s: ReadableStream<Uint8Array>) => s, readerOnly]) {
      const src = source(pkg, 16);
      for await (const e of decodeStream(wrap(src.stream))) if (e.type === 'index') break;
      expect(src.log.cancelled).toBe(true);
      expect(src.log.pulls).toBeLessThan(src.total);
    }
    let closed = false;
    let pulled = 0;
    async function* gen() {
      try {
        for (let i = 0; i < pkg.length; i += 16, pulled++) yield pkg.subarray(i, i + 16);
      } finally {
        closed = true;
      }
    }
    for await (const e of decodeStream(gen())) if (e.type === 'start') break;
    expect(closed).toBe(true);
    expect(pulled).toBeLessThan(pkg.length / 16 - 1);
  });

  it('throws FormatError and cancels the source on corrupt input', async () => {
    for (const wrap of [(s: ReadableStream<Uint8Array>) => s, readerOnly]) {
      const bad = pkg.slice();
      bad[40]! ^= 1;
      const src = source(bad, 16);
      expect((await rejection(collect(decodeStream(wrap(src.stream))))).code).toBe('OBJP_INDEX_CHECK');
      expect(src.log.cancelled).toBe(true);
    }
    expect(await rejection(collect(decodeStream(source(pkg.subarray(0, 100), 16).stream)))).toMatchObject({
      code: 'OBJP_TRUNCATED',
    });
  });

  it('hands out every event of a chunk before reading the next one', async () => {
    const src = source(pkg, pkg.length);
    const events: DecodeEvent[] = [];
    for await (const e of decodeStream(src.stream)) {
      events.push(e);
      expect(src.log.pulls).toBe(1);
      if (e.type === 'end' && e.entry.index === 4) break;
    }
    expect(transcriptOfEvents(events).transcript).toEqual(expected);
  });
});
