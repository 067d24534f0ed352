import { describe, expect, it } from 'vitest';
import { Decoder } from './decoder.js';
import { FormatError } from './errors.js';
import { decodeChunks, evenChunks } from './test-utils/decode.js';
import { samplePackage, samplePackageInput } from './test-utils/sample.js';
import type { DecoderOptions } from './types.js';

/** Decodes `bytes` fed in the given chunk lengths and returns a transcript of events. */
function transcript(bytes: Uint8Array, splits: number[], options?: DecoderOptions) {
  const events: string[] = [];
  const bodies = new Map<string, number[]>();
  const d = new Decoder(
    {
      onIndex: (ix) => events.push(`index ${ix.buildId} ${ix.entries.length} ${ix.sharedRefs.join(',')}`),
      onObjectStart: (e) => events.push(`start ${e.name}`),
      onObjectData: (e, b) => bodies.set(e.name, [...(bodies.get(e.name) ?? []), ...b]),
      onObjectEnd: (e) => events.push(`end ${e.name} ${bodies.get(e.name)?.length ?? 0}`),
      onEnd: () => events.push('done'),
    },
    options,
  );
  let at = 0;
  for (const n of splits) {
    d.push(bytes.subarray(at, at + n));
    at += n;
  }
  d.push(bytes.subarray(at));
  d.end();
  return { events, bodies };
}

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof FormatError) return e.code;
    throw e;
  }
  return 'no error';
};

describe('Decoder', () => {
  const pkg = samplePackage();
  const whole = transcript(pkg, []);

  it('decodes every object with its bytes, in delivery order', () => {
    const input = samplePackageInput();
    expect(whole.events[0]).toBe('index b-test-0001 5 /_objpack/shared/0123456789abcdef.objp');
    expect(whole.events.at(-1)).toBe('done');
    for (const o of input.objects) {
      expect(Uint8Array.from(whole.bodies.get(o.name) ?? [])).toEqual(o.body);
    }
  });

  it('gives identical events for every split point and for 1..64-byte chunking', () => {
    for (let cut = 0; cut <= pkg.length; cut++) {
      const t = transcript(pkg, [cut]);
      expect(t.events).toEqual(whole.events);
    }
    for (let size = 1; size <= 64; size++) {
      const splits = Array.from({ length: Math.ceil(pkg.length / size) }, () => size);
      expect(transcript(pkg, splits).events).toEqual(whole.events);
    }
  });

  it('gives identical events and body bytes for every chunk size from 1 byte to the whole package', () => {
    // The recorder's transcript folds each body (base64) and its digest into the object's end line.
    const reference = decodeChunks(pkg).transcript;
    expect(reference.join('\n')).toContain(
      Buffer.from(samplePackageInput().objects[4]!.body as Uint8Array).toString('base64'),
    );
    for (let size = 1; size <= pkg.length; size++) {
      expect(decodeChunks(pkg, evenChunks(pkg.length, size)).transcript, `${size}-byte chunks`).toEqual(reference);
    }
  });

  it('fails with OBJP_TRUNCATED at every truncation point', () => {
    for (let n = 0; n < pkg.length; n++) {
      expect(codeOf(() => transcript(pkg.subarray(0, n), []))).toBe('OBJP_TRUNCATED');
    }
  });

  it('turns every single-bit flip into a typed error, never a wrong object', () => {
    // Flips in the bodies are caught by SHA-256; in header and index by CRC-32 and validation.
    for (let i = 0; i < pkg.length; i++) {
      for (const bit of [0, 3, 7]) {
        const bad = pkg.slice();
        bad[i]! ^= 1 << bit;
        expect(
          codeOf(() => transcript(bad, [])),
          `byte ${i} bit ${bit}`,
        ).toMatch(/^OBJP_/);
      }
    }
  });

  it('rejects trailing bytes and use after end', () => {
    const extra = new Uint8Array(pkg.length + 1);
    extra.set(pkg);
    expect(codeOf(() => transcript(extra, []))).toBe('OBJP_TRAILING_DATA');
    const d = new Decoder();
    d.push(pkg);
    d.end();
    expect(codeOf(() => d.push(new Uint8Array(1)))).toBe('OBJP_DECODER_STATE');
  });

  it('reports partial entries and headers', () => {
    let entries: readonly {
      name: string;
      partial: boolean;
      totalSize: number;
      headers: readonly (readonly [string, string])[];
    }[] = [];
    const d = new Decoder({ onIndex: (ix) => (entries = ix.entries) });
    d.push(pkg);
    d.end();
    const video = entries.find((e) => e.name === '/video/intro.mp4')!;
    expect(video.partial).toBe(true);
    expect(video.totalSize).toBe(100_000);
    expect(entries.find((e) => e.name === '/a.css?v=3')!.headers).toEqual([['x-objpack-test', 'yes']]);
  });

  it('skips verification when asked (a flipped body bit then passes through)', () => {
    const bad = pkg.slice();
    bad[bad.length - 1]! ^= 1;
    expect(codeOf(() => transcript(bad, [], { verify: false }))).toBe('no error');
    expect(codeOf(() => transcript(bad, []))).toBe('OBJP_DIGEST_MISMATCH');
  });
});
