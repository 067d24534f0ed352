// The golden test vectors in fixtures/format/: how each .objp file is made and what a reader must report.
// golden.test.ts compares the committed files with these (OBJPACK_UPDATE_GOLDEN=1 rewrites them).
import { HEADER_SIZE } from '../constants.js';
import { encodePackageSync } from '../encoder.js';
import { sha256 } from '../sha256.js';
import type { EncoderInput } from '../types.js';
import { fixCrcs, rawPackage, singleObjectPackage } from './raw.js';
import { samplePackageInput } from './sample.js';

const utf8 = new TextEncoder();

export interface GoldenCase {
  name: string;
  description: string;
  /** The input a writer encodes (valid cases written by the encoder). */
  input?: EncoderInput;
  bytes: () => Uint8Array;
  /** Expected failure; absent for a valid package. */
  error?: string;
}

const sample = () => encodePackageSync(samplePackageInput());

/** Offset of the data field in the sample package. */
const sampleDataStart = (pkg: Uint8Array) => HEADER_SIZE + new DataView(pkg.buffer, pkg.byteOffset).getUint32(12, true);

const edit = (pkg: Uint8Array, f: (b: Uint8Array, v: DataView) => void): Uint8Array => {
  const b = pkg.slice();
  f(b, new DataView(b.buffer));
  return b;
};

const emptyInput: EncoderInput = { objects: [] };
const oneInput: EncoderInput = {
  buildId: 'golden-1',
  objects: [
    {
      name: '/index.html',
      contentType: 'text/html; charset=utf-8',
      body: utf8.encode('<!doctype html><title>OBJP</title><p>Hello, package.\n'),
    },
  ],
};
const zeroInput: EncoderInput = {
  objects: [
    { name: '/empty.js', contentType: 'text/javascript', body: new Uint8Array(0) },
    {
      name: '/after-empty.txt',
      contentType: 'text/plain; charset=utf-8',
      headers: [['cache-control', 'no-cache']],
      body: utf8.encode('x'),
    },
    { name: '/empty-last.css', contentType: 'text/css', body: new Uint8Array(0) },
  ],
};

/** A v1.1 writer's package: minor 1, ignorable flag bits 8–15, extra bytes after the headers subfield. */
function futureMinor(): Uint8Array {
  const body = utf8.encode('from the future');
  return rawPackage(
    {
      buildId: 'v1.1',
      contentTypes: ['text/plain'],
      objects: [{ name: '/future.txt', size: body.length, digest: sha256(body), flags: 0x0100, headers: 'x-new: 1' }],
      tail: utf8.encode('reserved-for-v1.1'),
    },
    body,
    { minor: 1, flags: 0x8000 },
  );
}

export const GOLDEN_CASES: readonly GoldenCase[] = [
  {
    name: 'empty',
    description: 'A package with no objects, no build id and no shared references.',
    input: emptyInput,
    bytes: () => encodePackageSync(emptyInput),
  },
  {
    name: 'one-object',
    description: 'One HTML page with a build id.',
    input: oneInput,
    bytes: () => encodePackageSync(oneInput),
  },
  {
    name: 'sample',
    description:
      'Build id, a shared reference, a query in a name, a custom header, an empty object, a partial entry ' +
      '(first 300 of 100000 bytes) and a percent-encoded UTF-8 name.',
    input: samplePackageInput(),
    bytes: sample,
  },
  {
    name: 'zero-length',
    description: 'Zero-length objects first and last around a one-byte object with a header.',
    input: zeroInput,
    bytes: () => encodePackageSync(zeroInput),
  },
  {
    name: 'future-minor',
    description:
      'Version 1.1 with package flags 0x8000, attribute flag bit 8 and 17 unknown bytes after the headers ' +
      'subfield: a v1 reader must accept it and skip the unknown parts.',
    bytes: futureMinor,
  },
  {
    name: 'bad-magic',
    description: 'The sample with "OBJQ" instead of "OBJP".',
    error: 'OBJP_BAD_MAGIC',
    bytes: () => edit(sample(), (b) => (b[3] = 0x51)),
  },
  {
    name: 'short-not-objp',
    description:
      'Ten bytes of text ("Not Found\\n"), shorter than the fixed header: not a package, so OBJP_BAD_MAGIC ' +
      'rather than OBJP_TRUNCATED.',
    error: 'OBJP_BAD_MAGIC',
    bytes: () => utf8.encode('Not Found\n'),
  },
  {
    name: 'short-prefix',
    description: 'The first 20 bytes of the sample: a package cut inside its fixed header.',
    error: 'OBJP_TRUNCATED',
    bytes: () => sample().slice(0, 20),
  },
  {
    name: 'unsupported-version',
    description: 'The sample with major version 2 (header CRC recomputed).',
    error: 'OBJP_UNSUPPORTED_VERSION',
    bytes: () => fixCrcs(edit(sample(), (b) => (b[4] = 2))),
  },
  {
    name: 'header-check',
    description: 'The sample with one bit of the object count flipped (header CRC not updated).',
    error: 'OBJP_HEADER_CHECK',
    bytes: () => edit(sample(), (b) => (b[8]! ^= 0x04)),
  },
  {
    name: 'index-check',
    description: 'The sample with one bit of a content type flipped (index CRC not updated).',
    error: 'OBJP_INDEX_CHECK',
    bytes: () => edit(sample(), (b) => (b[HEADER_SIZE + 20]! ^= 0x01)),
  },
  {
    name: 'truncated',
    description: 'The sample cut 10 bytes into the body of /video/intro.mp4.',
    error: 'OBJP_TRUNCATED',
    bytes: () => {
      const pkg = sample();
      const input = samplePackageInput();
      const before = input.objects.slice(0, 3).reduce((s, o) => s + (o.body as Uint8Array).length, 0);
      return pkg.slice(0, sampleDataStart(pkg) + before + 10);
    },
  },
  {
    name: 'digest-mismatch',
    description: 'The sample with one bit flipped in the last byte of the last body.',
    error: 'OBJP_DIGEST_MISMATCH',
    bytes: () => edit(sample(), (b) => (b[b.length - 1]! ^= 0x80)),
  },
  {
    name: 'count-limit',
    description:
      'A 100-byte file whose header claims 2^32-1 objects (CRC correct): must fail at byte 32 without allocating.',
    error: 'OBJP_LIMIT',
    bytes: () => rawPackage(new Uint8Array(68), new Uint8Array(0), { count: 0xffff_ffff }),
  },
  {
    name: 'index-length-limit',
    description: 'A header declaring a 16 MiB + 1 byte object information field (CRC correct), over the limit.',
    error: 'OBJP_LIMIT',
    bytes: () => rawPackage(new Uint8Array(68), new Uint8Array(0), { count: 1, indexLength: 16 * 1024 * 1024 + 1 }),
  },
  {
    name: 'index-past-end',
    description: 'A header declaring a 1 MiB object information field in a 100-byte file: the input ends first.',
    error: 'OBJP_TRUNCATED',
    bytes: () => rawPackage(new Uint8Array(68), new Uint8Array(0), { count: 1, indexLength: 1024 * 1024 }),
  },
  {
    name: 'trailing-data',
    description: 'The sample followed by one extra byte.',
    error: 'OBJP_TRAILING_DATA',
    bytes: () => {
      const pkg = sample();
      const out = new Uint8Array(pkg.length + 1);
      out.set(pkg);
      return out;
    },
  },
  {
    name: 'bad-layout',
    description: 'One 5-byte object in a data field declared as 6 bytes (CRCs correct).',
    error: 'OBJP_BAD_LAYOUT',
    bytes: () => {
      const body = utf8.encode('hello');
      return rawPackage({ objects: [{ name: '/a.txt', size: 5, digest: sha256(body) }] }, utf8.encode('hello!'));
    },
  },
  {
    name: 'invalid-name',
    description: 'An object named "/../secret" (CRCs correct).',
    error: 'OBJP_INVALID_NAME',
    bytes: () => singleObjectPackage({ name: '/../secret' }),
  },
  {
    name: 'raw-utf8-name',
    description:
      'An object named "/café.png" in raw UTF-8 (CRCs correct): names must be percent-encoded ("/caf%C3%A9.png").',
    error: 'OBJP_INVALID_NAME',
    bytes: () => singleObjectPackage({ name: '/café.png' }),
  },
  {
    name: 'invalid-header',
    description: 'A header value carrying CR LF and a second header (CRCs correct).',
    error: 'OBJP_INVALID_HEADER',
    bytes: () => singleObjectPackage({ headers: 'x-a: 1\r\nset-cookie: a=b' }),
  },
  {
    name: 'duplicate-name',
    description: 'Two objects named "/a.txt" (CRCs correct).',
    error: 'OBJP_DUPLICATE_NAME',
    bytes: () => {
      const body = utf8.encode('ab');
      const objects = [0, 1].map((i) => ({ name: '/a.txt', size: 1, digest: sha256(body.subarray(i, i + 1)) }));
      return rawPackage({ objects }, body);
    },
  },
];
