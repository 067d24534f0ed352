import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Decoder } from './decoder.js';
import { FormatError } from './errors.js';
import { decodeChunks, evenChunks, expectedObjects } from './test-utils/decode.js';
import { GOLDEN_CASES, type GoldenCase } from './test-utils/golden-cases.js';
import type { PackageIndex } from './types.js';

// Golden vectors for other implementations (fixtures/format/README.md). The JSON is derived from our
// decoder, so the valid cases are also checked against the encoder's input hashed with node:crypto, and
// each broken case against the error code declared by hand in golden-cases.ts.
const DIR = new URL('../../../fixtures/format/', import.meta.url);
const UPDATE = process.env.OBJPACK_UPDATE_GOLDEN === '1';

const hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** What a reader reports for `bytes`: the decoded index and bodies, or the error and how far it got. */
function outcome(bytes: Uint8Array) {
  let index: PackageIndex | undefined;
  const completed: string[] = [];
  const d = new Decoder({ onIndex: (ix) => (index = ix), onObjectEnd: (e) => completed.push(e.name) });
  try {
    d.push(bytes);
    d.end();
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return { valid: false as const, error: e.code, indexEmitted: index !== undefined, completedObjects: completed };
  }
  const { objects } = decodeChunks(bytes);
  return {
    valid: true as const,
    index: {
      version: index!.version,
      buildId: index!.buildId,
      sharedRefs: index!.sharedRefs,
      headerBytes: index!.headerBytes,
      dataBytes: index!.dataBytes,
      entries: objects.map((o, i) => ({ index: i, ...o })),
    },
  };
}

function expectedJson(c: GoldenCase, bytes: Uint8Array) {
  return {
    description: c.description,
    file: `${c.name}.objp`,
    bytes: bytes.length,
    sha256: hex(bytes),
    ...outcome(bytes),
  };
}

if (UPDATE) {
  mkdirSync(DIR, { recursive: true });
  for (const c of GOLDEN_CASES) {
    const bytes = c.bytes();
    writeFileSync(new URL(`${c.name}.objp`, DIR), bytes);
    writeFileSync(new URL(`${c.name}.json`, DIR), `${JSON.stringify(expectedJson(c, bytes), null, 2)}\n`);
  }
}

describe('golden vectors (fixtures/format)', () => {
  it('holds exactly the files golden-cases.ts describes', () => {
    const files = readdirSync(DIR)
      .filter((f) => /\.(objp|json)$/.test(f))
      .sort();
    expect(files).toEqual(GOLDEN_CASES.flatMap((c) => [`${c.name}.json`, `${c.name}.objp`]).sort());
  });

  for (const c of GOLDEN_CASES) {
    describe(c.name, () => {
      const path = new URL(`${c.name}.objp`, DIR);
      const committed = existsSync(path) ? new Uint8Array(readFileSync(path)) : new Uint8Array(0);
      const json = existsSync(new URL(`${c.name}.json`, DIR))
        ? JSON.parse(readFileSync(new URL(`${c.name}.json`, DIR), 'utf8'))
        : undefined;

      it('is byte for byte what the writer produces today', () => {
        expect(Buffer.from(committed).equals(Buffer.from(c.bytes()))).toBe(true);
      });

      it('decodes to its JSON', () => {
        expect(json).toEqual(JSON.parse(JSON.stringify(expectedJson(c, committed))));
        expect(json.sha256).toBe(hex(committed));
      });

      if (c.error) {
        it(`fails with ${c.error}, whole and in 1-byte and 7-byte chunks`, () => {
          expect(json.valid).toBe(false);
          expect(json.error).toBe(c.error);
          for (const size of [committed.length || 1, 1, 7]) {
            const err = (() => {
              try {
                decodeChunks(committed, evenChunks(committed.length, size));
              } catch (e) {
                return e;
              }
            })();
            expect(err).toBeInstanceOf(FormatError);
            expect((err as FormatError).code).toBe(c.error);
          }
        });
      } else {
        it('is valid and gives the same events in every chunking', () => {
          expect(json.valid).toBe(true);
          const whole = decodeChunks(committed).transcript;
          for (let cut = 0; cut <= committed.length; cut++)
            expect(decodeChunks(committed, [cut]).transcript).toEqual(whole);
          expect(decodeChunks(committed, evenChunks(committed.length, 1)).transcript).toEqual(whole);
        });

        if (c.input) {
          it('matches its input, hashed independently with node:crypto', () => {
            const bodies = c.input!.objects.map((o) => o.body as Uint8Array);
            const digests = bodies.map((b) => new Uint8Array(createHash('sha256').update(b).digest()));
            expect(json.index.entries.map(({ index: _i, ...o }: { index: number }) => o)).toEqual(
              expectedObjects(c.input!, bodies, digests),
            );
            expect(json.index.buildId).toBe(c.input!.buildId ?? '');
            expect(json.index.sharedRefs).toEqual(c.input!.sharedRefs ?? []);
            expect(json.index.headerBytes + json.index.dataBytes).toBe(committed.length);
          });
        }
      }
    });
  }
});
