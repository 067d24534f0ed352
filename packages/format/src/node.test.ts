import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { encodePackageSync } from './encoder.js';
import { FormatError } from './errors.js';
import type { DecodeEvent } from './events.js';
import { createNodeDecoder, encodeToNodeStream, fileSource, nodeSha256 } from './node.js';
import { sha256 } from './sha256.js';
import { decodeChunks, transcriptOfEvents } from './test-utils/decode.js';
import { samplePackage, samplePackageInput } from './test-utils/sample.js';
import type { DecoderOptions, EncoderInput } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'objpack-format-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pkg = samplePackage();
const expected = decodeChunks(pkg).transcript;

async function decodeNode(source: Readable, options?: DecoderOptions): Promise<DecodeEvent[]> {
  const events: DecodeEvent[] = [];
  await pipeline(
    source,
    createNodeDecoder(options),
    new Writable({ objectMode: true, write: (e: DecodeEvent, _enc, cb) => (events.push(e), cb()) }),
  );
  return events;
}

const chunked = (bytes: Uint8Array, size: number) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += size) yield Buffer.from(bytes.subarray(i, i + size));
    })(),
    { objectMode: false },
  );

async function failure(p: Promise<unknown>): Promise<FormatError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FormatError);
  return err as FormatError;
}

describe('Node adapters', () => {
  it('nodeSha256 agrees with the portable SHA-256', () => {
    for (const n of [0, 1, 63, 64, 65, 1000]) {
      const b = randomBytes(n);
      const h = nodeSha256();
      h.update(b.subarray(0, n >> 1));
      h.update(b.subarray(n >> 1));
      expect(h.digest()).toEqual(sha256(b));
    }
  });

  it('createNodeDecoder gives the same events as the core decoder, in any chunking', async () => {
    for (const size of [1, 5, 333, pkg.length]) {
      expect(transcriptOfEvents(await decodeNode(chunked(pkg, size))).transcript).toEqual(expected);
    }
  });

  it('rejects a pipeline with FormatError on corrupt, truncated or over-long input', async () => {
    const bad = pkg.slice();
    bad[bad.length - 1]! ^= 1;
    expect((await failure(decodeNode(chunked(bad, 100)))).code).toBe('OBJP_DIGEST_MISMATCH');
    expect((await failure(decodeNode(chunked(pkg.subarray(0, pkg.length - 1), 100)))).code).toBe('OBJP_TRUNCATED');
    expect((await failure(decodeNode(chunked(Buffer.concat([pkg, Buffer.from('x')]), 100)))).code).toBe(
      'OBJP_TRAILING_DATA',
    );
    const unverified = transcriptOfEvents(await decodeNode(chunked(bad, 100), { verify: false })).objects;
    expect(unverified).toHaveLength(5);
    expect(Buffer.from(unverified[4]!.body, 'base64').at(-1)).toBe(bad.at(-1));
  });

  it('a failing source errors the pipeline and destroys the decoder', async () => {
    const boom = new Error('disk gone');
    const source = new Readable({
      read() {
        this.push(Buffer.from(pkg.subarray(0, 100)));
        this.destroy(boom);
      },
    });
    const decoder = createNodeDecoder();
    const err = await pipeline(
      source,
      decoder,
      new Writable({ objectMode: true, write: (_e, _enc, cb) => cb() }),
    ).catch((e: unknown) => e);
    expect(err).toBe(boom);
    expect(decoder.destroyed).toBe(true);
  });

  it('encodeToNodeStream writes the same bytes as encodePackageSync', async () => {
    const parts: Buffer[] = [];
    for await (const c of encodeToNodeStream(samplePackageInput())) parts.push(c as Buffer);
    expect(Buffer.concat(parts).equals(Buffer.from(pkg))).toBe(true);
    expect(transcriptOfEvents(await decodeNode(encodeToNodeStream(samplePackageInput()))).transcript).toEqual(expected);
  });

  it('encodeToNodeStream errors the stream on bad input', async () => {
    const s = encodeToNodeStream({ objects: [{ name: '/../x', contentType: 'x/y', body: new Uint8Array(1) }] });
    expect((await failure(decodeNode(s))).code).toBe('OBJP_INVALID_NAME');
  });

  it('fileSource streams whole files and byte ranges (end inclusive), re-readable for both passes', async () => {
    const data = randomBytes(700_000); // more than one 256 KiB read
    const path = join(dir, 'media.bin');
    writeFileSync(path, data);
    const input: EncoderInput = {
      objects: [
        { name: '/whole.bin', contentType: 'application/octet-stream', body: fileSource(path) },
        {
          name: '/range.bin',
          contentType: 'application/octet-stream',
          body: fileSource(path, { start: 1000, end: 1999 }),
        },
        // A partial entry: the first 300,000 bytes of the file, the rest left to a Range request.
        {
          name: '/video.mp4',
          contentType: 'video/mp4',
          body: fileSource(path, { end: 299_999 }),
          totalSize: data.length,
          size: 300_000,
        },
        { name: '/tail.bin', contentType: 'application/octet-stream', body: fileSource(path, { start: 699_990 }) },
      ],
    };
    const events = await decodeNode(encodeToNodeStream(input));
    const { objects } = transcriptOfEvents(events);
    const want = [data, data.subarray(1000, 2000), data.subarray(0, 300_000), data.subarray(699_990)];
    expect(objects.map((o) => o.size)).toEqual(want.map((w) => w.length));
    objects.forEach((o, i) => {
      expect(Buffer.from(o.body, 'base64').equals(want[i]!)).toBe(true);
      expect(o.digest).toBe(createHash('sha256').update(want[i]!).digest('hex'));
    });
    expect(objects[2]).toMatchObject({ partial: true, totalSize: 700_000 });
    // Same bytes as the in-memory encoder given the same slices.
    const inMemory = encodePackageSync({
      objects: input.objects.map((o, i) => ({ ...o, body: want[i]!, size: undefined })),
    });
    const parts: Buffer[] = [];
    for await (const c of encodeToNodeStream(input)) parts.push(c as Buffer);
    expect(Buffer.concat(parts).equals(Buffer.from(inMemory))).toBe(true);
  });

  it('fileSource on a missing file fails the stream with the fs error', async () => {
    const s = encodeToNodeStream({
      objects: [{ name: '/x', contentType: 'x/y', body: fileSource(join(dir, 'missing')) }],
    });
    const err = await decodeNode(s).catch((e: unknown) => e);
    expect((err as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});
