import { describe, expect, it } from 'vitest';
import { encodePackage, encodePackageSync } from './encoder.js';
import { sha256 } from './sha256.js';
import { decodeChunks } from './test-utils/decode.js';
import { concat } from './test-utils/raw.js';
import { samplePackageInput } from './test-utils/sample.js';
import type { EncoderInput } from './types.js';

const body = new TextEncoder().encode('streamed body');

/** A source factory that counts its passes. */
function counted() {
  const log = { passes: 0 };
  const source = () => {
    log.passes++;
    return (async function* () {
      yield body.subarray(0, 4);
      yield body.subarray(4);
    })();
  };
  return { log, source };
}

describe('encoder', () => {
  it('reads a streamed body once when size and digest are given, twice otherwise', async () => {
    for (const [given, passes] of [
      [true, 1],
      [false, 2],
    ] as const) {
      const { log, source } = counted();
      const input: EncoderInput = {
        objects: [
          {
            name: '/s',
            contentType: 'x/y',
            body: source,
            ...(given ? { size: body.length, digest: sha256(body) } : {}),
          },
        ],
      };
      const chunks: Uint8Array[] = [];
      for await (const c of encodePackage(input)) chunks.push(c);
      expect(log.passes).toBe(passes);
      expect(decodeChunks(concat(chunks)).objects[0]!.body).toBe(Buffer.from(body).toString('base64'));
    }
  });

  it('yields the whole index first and streams bodies without buffering them', async () => {
    const { log, source } = counted();
    const gen = encodePackage({
      objects: [{ name: '/s', contentType: 'x/y', body: source, size: body.length, digest: sha256(body) }],
    });
    const first = (await gen.next()).value as Uint8Array;
    expect(log.passes).toBe(0); // nothing read before the index went out
    const { index } = decodeChunks(concat([first, body]));
    expect(index.headerBytes).toBe(first.length);
    const rest: number[] = [];
    for await (const c of gen) rest.push(c.length);
    expect(rest).toEqual([4, body.length - 4]);
  });

  it('is deterministic and independent of how bodies are given', async () => {
    const a = encodePackageSync(samplePackageInput());
    const b = encodePackageSync(samplePackageInput());
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const streamed = { ...samplePackageInput() };
    streamed.objects = streamed.objects.map((o) => ({ ...o, body: () => [o.body as Uint8Array] }));
    const chunks: Uint8Array[] = [];
    for await (const c of encodePackage(streamed)) chunks.push(c);
    expect(Buffer.from(concat(chunks)).equals(Buffer.from(a))).toBe(true);
  });
});
