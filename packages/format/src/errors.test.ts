import { describe, expect, it } from 'vitest';
import { Decoder } from './decoder.js';
import { FormatError, FormatErrorCode } from './errors.js';
import { sha256 } from './sha256.js';
import { codeOf } from './test-utils/decode.js';
import { HEADER_SIZE, rawObjectInfo, rawPackage, singleObjectPackage } from './test-utils/raw.js';
import { samplePackage } from './test-utils/sample.js';
import { decodeCode, encodeCode, one, setU32, utf8 } from './test-utils/error-cases.js';

describe('error codes', () => {
  const pkg = samplePackage();

  it('has a test below for every code in errors.ts', () => {
    // Keep this list in step with the tests below and in errors-objects.test.ts: a new code needs a new test.
    expect(Object.values(FormatErrorCode).sort()).toEqual([
      'OBJP_BAD_LAYOUT',
      'OBJP_BAD_MAGIC',
      'OBJP_DECODER_STATE',
      'OBJP_DIGEST_MISMATCH',
      'OBJP_DUPLICATE_NAME',
      'OBJP_HEADER_CHECK',
      'OBJP_INDEX_CHECK',
      'OBJP_INVALID_HEADER',
      'OBJP_INVALID_INPUT',
      'OBJP_INVALID_NAME',
      'OBJP_LIMIT',
      'OBJP_SOURCE_CHANGED',
      'OBJP_TRAILING_DATA',
      'OBJP_TRUNCATED',
      'OBJP_UNSUPPORTED_VERSION',
    ]);
  });

  it('OBJP_BAD_MAGIC: another format or a text file', () => {
    const gif = pkg.slice();
    gif.set(utf8.encode('GIF8'), 0);
    expect(decodeCode(gif)).toBe('OBJP_BAD_MAGIC');
    expect(decodeCode(utf8.encode('<!doctype html><html><body>Not Found</body></html>'))).toBe('OBJP_BAD_MAGIC');
  });

  it('OBJP_BAD_MAGIC also for input shorter than the 32-byte header, when its first bytes are not "OBJP"', () => {
    for (const text of [
      'Not Found',
      'GIF89a',
      '{}',
      'X',
      'OBJQ',
      'OBX',
      'OBJp',
      '<!doctype html><title>404</title>'.slice(0, 31),
      'PK\x03\x04',
    ]) {
      expect(decodeCode(utf8.encode(text)), text).toBe('OBJP_BAD_MAGIC');
    }
    // A prefix of a real package (also a prefix of the magic itself) is a truncated package.
    for (let n = 0; n < HEADER_SIZE; n++) expect(decodeCode(pkg.subarray(0, n)), `${n} bytes`).toBe('OBJP_TRUNCATED');
    expect(decodeCode(utf8.encode('OBJP\x07 short'))).toBe('OBJP_TRUNCATED');
  });

  it('OBJP_BAD_MAGIC is raised by the push() that brings the first wrong byte, not at end()', () => {
    for (const text of ['N', 'OBx', 'OBJ!']) {
      const d = new Decoder();
      for (let i = 0; i < text.length - 1; i++) d.push(utf8.encode(text[i]!));
      expect(
        codeOf(() => d.push(utf8.encode(text.at(-1)!))),
        text,
      ).toBe('OBJP_BAD_MAGIC');
      // The decoder stays failed.
      expect(codeOf(() => d.end())).toBe('OBJP_BAD_MAGIC');
    }
    const waiting = new Decoder();
    waiting.push(utf8.encode('OBJ'));
    expect(codeOf(() => waiting.end())).toBe('OBJP_TRUNCATED');
  });

  it('OBJP_UNSUPPORTED_VERSION: another major version, or a must-understand attribute flag', () => {
    for (const major of [0, 2, 255])
      expect(decodeCode(rawPackage({ objects: [] }, undefined, { major }))).toBe('OBJP_UNSUPPORTED_VERSION');
    expect(decodeCode(rawPackage({ objects: [] }, undefined, { minor: 9 }))).toBe('no error');
    expect(decodeCode(singleObjectPackage({ flags: 0x0002 }))).toBe('OBJP_UNSUPPORTED_VERSION');
    expect(decodeCode(singleObjectPackage({ flags: 0x0080 }))).toBe('OBJP_UNSUPPORTED_VERSION');
    expect(decodeCode(singleObjectPackage({ flags: 0xff00 }))).toBe('no error');
  });

  it('OBJP_HEADER_CHECK and OBJP_INDEX_CHECK: CRC-32 mismatches', () => {
    for (let at = 6; at < 32; at++) {
      const b = pkg.slice();
      b[at]! ^= 0x10;
      expect(decodeCode(b), `header byte ${at}`).toBe('OBJP_HEADER_CHECK');
    }
    expect(decodeCode(rawPackage({ objects: [] }, undefined, { headerCrc: 0 }))).toBe('OBJP_HEADER_CHECK');
    expect(decodeCode(rawPackage({ objects: [] }, undefined, { indexCrc: 0 }))).toBe('OBJP_INDEX_CHECK');
    const b = pkg.slice();
    b[HEADER_SIZE + 3]! ^= 1;
    expect(decodeCode(b)).toBe('OBJP_INDEX_CHECK');
  });

  it('OBJP_TRUNCATED: input ending in the header, the index or a body', () => {
    for (const n of [0, 1, 4, 31, 32, 40, pkg.length - 1])
      expect(decodeCode(pkg.subarray(0, n)), `${n} bytes`).toBe('OBJP_TRUNCATED');
    const d = new Decoder();
    d.push(pkg.subarray(0, pkg.length - 5));
    const err = (() => {
      try {
        d.end();
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).code).toBe('OBJP_TRUNCATED');
  });

  describe('OBJP_LIMIT', () => {
    it('a 100-byte file claiming 2^32-1 objects fails at byte 32 without allocating', () => {
      const bytes = rawPackage(new Uint8Array(68), undefined, { count: 0xffff_ffff });
      expect(bytes.length).toBe(100);
      const before = process.memoryUsage().arrayBuffers;
      const d = new Decoder();
      expect(codeOf(() => d.push(bytes.subarray(0, 32)))).toBe('OBJP_LIMIT');
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * 1024 * 1024);
    });

    it('declared lengths within the limits allocate nothing until their bytes arrive', () => {
      // 65,535 objects, a 16 MiB index and a 2^53-1 byte data field, in 100 bytes.
      const bytes = rawPackage(new Uint8Array(68), undefined, {
        count: 65_535,
        indexLength: 16 * 1024 * 1024,
        dataLength: 2 ** 53 - 1,
      });
      const before = process.memoryUsage().arrayBuffers;
      const d = new Decoder();
      d.push(bytes);
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * 1024 * 1024);
      expect(codeOf(() => d.end())).toBe('OBJP_TRUNCATED');
    });

    it('counts and lengths over the format limits or the caller limits', () => {
      const empty = rawObjectInfo({ objects: [] });
      expect(decodeCode(rawPackage(empty, undefined, { count: 65_536, indexLength: 4 + 58 * 65_536 }))).toBe(
        'OBJP_LIMIT',
      );
      expect(decodeCode(rawPackage(empty, undefined, { indexLength: 16 * 1024 * 1024 + 1 }))).toBe('OBJP_LIMIT');
      expect(decodeCode(rawPackage(empty, undefined, { dataLength: 2 ** 53 }))).toBe('OBJP_LIMIT');
      expect(decodeCode(pkg, { limits: { maxObjects: 4 } })).toBe('OBJP_LIMIT');
      expect(decodeCode(pkg, { limits: { maxIndexBytes: 100 } })).toBe('OBJP_LIMIT');
      expect(decodeCode(pkg, { limits: { maxDataBytes: 1000 } })).toBe('OBJP_LIMIT');
      expect(decodeCode(pkg, { limits: { maxNameBytes: 10 } })).toBe('OBJP_LIMIT');
      expect(decodeCode(pkg, { limits: { maxHeaderBytes: 5 } })).toBe('OBJP_LIMIT');
      expect(
        decodeCode(pkg, {
          limits: { maxObjects: 5, maxIndexBytes: 2000, maxDataBytes: 2000, maxNameBytes: 64, maxHeaderBytes: 20 },
        }),
      ).toBe('no error');
    });

    it('fields over their own limits', () => {
      expect(decodeCode(singleObjectPackage({ name: `/${'a'.repeat(4096)}` }))).toBe('OBJP_LIMIT');
      expect(decodeCode(singleObjectPackage({ buildId: 'b'.repeat(65) }))).toBe('OBJP_LIMIT');
      expect(decodeCode(singleObjectPackage({ headers: `x-a: ${'v'.repeat(8190)}` }))).toBe('OBJP_LIMIT');
      const refs = Array.from({ length: 1025 }, (_, i) => `/s/${i}.objp`);
      expect(decodeCode(rawPackage({ sharedRefs: refs, objects: [] }))).toBe('OBJP_LIMIT');
      expect(encodeCode({ sharedRefs: refs, objects: [] })).toBe('OBJP_LIMIT');
      // A size above 2^53-1 in the sizes subfield (high word 2^21).
      const big = singleObjectPackage({ size: 0 });
      const sizeAt = HEADER_SIZE + 1 + 1 + 'application/octet-stream'.length + 1 + 2 + '/a.txt'.length + 1;
      expect(decodeCode(setU32(big, sizeAt + 4, 0x20_0000))).toBe('OBJP_LIMIT');
    });

    it('the encoder refuses what a default decoder would refuse', () => {
      const types = Array.from({ length: 256 }, (_, i) => ({
        name: `/${i}`,
        contentType: `x/${i}`,
        body: new Uint8Array(0),
      }));
      expect(encodeCode({ objects: types })).toBe('OBJP_LIMIT');
      expect(encodeCode(one({ headers: [['x-a', 'v'.repeat(8190)]] }))).toBe('OBJP_LIMIT');
      expect(encodeCode(one({ headers: [['x-a', 'v'.repeat(8187)]] }))).toBe('no error');
      const many = Array.from({ length: 65_536 }, (_, i) => ({
        name: `/${i}`,
        contentType: 'x/y',
        body: new Uint8Array(0),
        digest: new Uint8Array(32),
      }));
      expect(encodeCode({ objects: many })).toBe('OBJP_LIMIT');
      expect(encodeCode({ objects: many.slice(1) })).toBe('no error');
      const long = Array.from({ length: 2100 }, (_, i) => ({
        name: `/${String(i).padStart(4000, '0')}`,
        contentType: 'x/y',
        headers: [['x-a', 'v'.repeat(4000)]] as Array<[string, string]>,
        body: new Uint8Array(0),
      }));
      expect(encodeCode({ objects: long })).toBe('OBJP_LIMIT');
    });
  });

  it('OBJP_BAD_LAYOUT: lengths and offsets that do not fit together', () => {
    const body = utf8.encode('hello');
    const obj = { name: '/a', size: 5, digest: sha256(body) };
    expect(decodeCode(rawPackage({ objects: [obj] }, utf8.encode('hello!')))).toBe('OBJP_BAD_LAYOUT');
    expect(decodeCode(rawPackage({ objects: [obj] }, body, { dataLength: 4 }))).toBe('OBJP_BAD_LAYOUT');
    expect(decodeCode(rawPackage({ objects: [{ ...obj, typeIndex: 1 }] }, body))).toBe('OBJP_BAD_LAYOUT');
    expect(decodeCode(rawPackage({ objects: [{ ...obj, totalSize: 6 }] }, body))).toBe('OBJP_BAD_LAYOUT');
    expect(decodeCode(rawPackage({ objects: [{ ...obj, flags: 1 }] }, body))).toBe('OBJP_BAD_LAYOUT');
    expect(decodeCode(rawPackage({ objects: [{ ...obj, flags: 1, totalSize: 6 }] }, body))).toBe('no error');
    expect(decodeCode(rawPackage({ objects: [{ ...obj, headerLength: 10 }] }, body))).toBe('OBJP_BAD_LAYOUT');
    // An index shorter than its count needs, or cut before its sizes.
    expect(decodeCode(rawPackage(rawObjectInfo({ objects: [] }), undefined, { count: 1 }))).toBe('OBJP_BAD_LAYOUT');
    const info = rawObjectInfo({ objects: [obj] });
    expect(decodeCode(rawPackage(info.subarray(0, info.length - 10), body, { count: 1 }))).toBe('OBJP_BAD_LAYOUT');
    // A name without its NUL (the index ends inside it), and a build id that is not printable ASCII.
    expect(decodeCode(rawPackage(utf8.encode(`\0\0\0\0/${'a'.repeat(60)}`), undefined, { count: 1 }))).toBe(
      'OBJP_BAD_LAYOUT',
    );
    expect(decodeCode(singleObjectPackage({ buildId: 'a b' }))).toBe('OBJP_BAD_LAYOUT');
  });

  it('OBJP_TRAILING_DATA: bytes after the data field, also pushed after the last object', () => {
    const extra = new Uint8Array(pkg.length + 3);
    extra.set(pkg);
    expect(decodeCode(extra)).toBe('OBJP_TRAILING_DATA');
    const d = new Decoder();
    d.push(pkg);
    expect(codeOf(() => d.push(new Uint8Array([0])))).toBe('OBJP_TRAILING_DATA');
  });
});
