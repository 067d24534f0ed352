import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodePackageSync } from './encoder.js';
import { FormatError } from './errors.js';
import { fromBase64 } from './sri.js';
import { sha256 } from './sha256.js';
import { bytesInput, fcRuns, packageSpecArb, splitLengths, splitsArb } from './test-utils/arbitraries.js';
import { type Decoded, decodeChunks } from './test-utils/decode.js';
import { fixCrcs } from './test-utils/raw.js';
import { toHex } from './sri.js';
import { validateName } from './validate.js';

type Mutation =
  | { kind: 'set'; at: number; value: number }
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; value: number }
  | { kind: 'delete'; at: number }
  | { kind: 'many'; edits: Array<[number, number]> };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('many' as const),
    edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 2, maxLength: 8 }),
  }),
);

/** Applies `m` to a copy of `pkg`; positions wrap into `limit` bytes (the whole package by default). */
function mutate(pkg: Uint8Array, m: Mutation, limit = pkg.length): Uint8Array {
  const pos = (n: number) => n % Math.max(1, limit);
  const b = pkg.slice();
  switch (m.kind) {
    case 'set':
      b[pos(m.at)] = m.value;
      return b;
    case 'flip':
      b[pos(m.at)]! ^= 1 << m.bit;
      return b;
    case 'truncate':
      return b.slice(0, m.at % pkg.length);
    case 'insert': {
      const at = m.at % (pkg.length + 1);
      return Uint8Array.from([...b.subarray(0, at), m.value, ...b.subarray(at)]);
    }
    case 'delete': {
      const at = pos(m.at);
      return Uint8Array.from([...b.subarray(0, at), ...b.subarray(at + 1)]);
    }
    case 'many':
      for (const [at, v] of m.edits) b[pos(at)] = v;
      return b;
  }
}

/** Decodes, returning the FormatError code or the decoded package; anything else fails the test. */
function attempt(bytes: Uint8Array, splits: number[]): { code: string } | { decoded: Decoded } {
  try {
    return { decoded: decodeChunks(bytes, splitLengths(bytes.length, splits)) };
  } catch (e) {
    if (!(e instanceof FormatError)) throw new Error(`not a FormatError: ${String(e)}`, { cause: e });
    expect(e.code).toMatch(/^OBJP_[A-Z_]+$/);
    return { code: e.code };
  }
}

describe('corrupt input (fast-check)', () => {
  it(
    'any mutation or truncation gives a FormatError, or (only if the package is unchanged in meaning) the same objects',
    { timeout: 180_000 },
    () => {
      let decodedAnyway = 0;
      fc.assert(
        fc.property(packageSpecArb, mutationArb, splitsArb, (spec, m, splits) => {
          const pkg = encodePackageSync(bytesInput(spec));
          const original = decodeChunks(pkg);
          const bad = mutate(pkg, m);
          const r = attempt(bad, splits);
          if ('decoded' in r) {
            decodedAnyway++;
            expect(r.decoded.objects).toEqual(original.objects);
            expect(r.decoded.transcript).toEqual(original.transcript);
          }
        }),
        { numRuns: fcRuns(0.3) },
      );
      // Only a `set` to the same value (or edits that cancel out) can leave a package intact.
      expect(decodedAnyway).toBeLessThan(fcRuns(0.3) / 20 + 5);
    },
  );

  it(
    'mutations behind correct CRCs give a FormatError or a package that is consistent and re-encodable',
    { timeout: 180_000 },
    () => {
      fc.assert(
        fc.property(packageSpecArb, mutationArb, splitsArb, (spec, m, splits) => {
          const pkg = encodePackageSync(bytesInput(spec));
          const headerBytes = decodeChunks(pkg).index.headerBytes;
          // Mutate only the header and index, then make both CRCs right so the parser itself is exercised.
          const bad = fixCrcs(mutate(pkg, m, headerBytes));
          const r = attempt(bad, splits);
          if ('code' in r) return;
          const { index, objects } = r.decoded;
          expect(index.headerBytes + index.dataBytes).toBe(bad.length);
          expect(objects.reduce((s, o) => s + o.size, 0)).toBe(index.dataBytes);
          for (const o of objects) {
            expect(() => validateName(o.name, 4096, new TextEncoder().encode(o.name).length)).not.toThrow();
            expect(o.digest).toBe(toHex(sha256(fromBase64(o.body)!)));
            expect(o.totalSize >= o.size && o.partial === o.totalSize > o.size).toBe(true);
          }
          // Whatever a reader accepts, a writer must be able to write again.
          const again = encodePackageSync({
            buildId: index.buildId,
            sharedRefs: index.sharedRefs,
            objects: objects.map((o) => ({
              name: o.name,
              contentType: o.contentType,
              headers: o.headers,
              body: fromBase64(o.body)!,
              totalSize: o.totalSize,
            })),
          });
          expect(JSON.stringify(decodeChunks(again).objects)).toBe(JSON.stringify(objects));
        }),
        { numRuns: fcRuns(0.3) },
      );
    },
  );
});
