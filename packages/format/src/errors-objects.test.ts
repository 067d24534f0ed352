import { describe, expect, it } from 'vitest';
import { Decoder } from './decoder.js';
import { encodePackageSync } from './encoder.js';
import { FormatError } from './errors.js';
import { sha256 } from './sha256.js';
import type { EncoderInput } from './types.js';
import { codeOf, codeOfAsync, decodeChunks } from './test-utils/decode.js';
import { rawPackage, singleObjectPackage } from './test-utils/raw.js';
import { samplePackage } from './test-utils/sample.js';
import { decodeCode, drain, encodeCode, one, utf8 } from './test-utils/error-cases.js';

describe('error codes of names, headers and objects; the decoder state', () => {
  const pkg = samplePackage();

  describe('OBJP_INVALID_NAME (encoder and decoder alike)', () => {
    const bad = [
      'https://evil.example/x.js',
      'a.js',
      '',
      '//evil.example/x.js',
      '/../etc/passwd',
      '/a/../b',
      '/a/./b',
      '/..',
      '/%2e%2e/x',
      '/%2E%2E/x',
      '/.%2e/x',
      '/a%2fb',
      '/a%5cb',
      '/a%00b',
      '/%zz',
      '/a\0b',
      '/a\nb',
      '/a\rb',
      '/a\tb',
      '/a\x7fb',
      '/a\x85b',
      '/a b',
      '/a\\b',
      '\\\\host/x',
      '/a#frag',
      '/\uD800',
      'javascript:alert(1)',
      // Raw non-ASCII: names are the percent-encoded form a browser requests (README §1.2).
      '/café.png',
      '/a\u00a0b',
      '/😀',
      '/a?q=é',
      '/a\u2028b',
    ];
    for (const name of bad) {
      it(JSON.stringify(name), () => {
        expect(encodeCode(one({ name }))).toBe('OBJP_INVALID_NAME');
        // A NUL ends a name on the wire (the rest no longer parses); everything else reaches validation.
        if (!name.includes('\0')) expect(decodeCode(singleObjectPackage({ name }))).toBe('OBJP_INVALID_NAME');
        expect(encodeCode({ sharedRefs: [name], objects: [] })).toBe('OBJP_INVALID_NAME');
      });
    }
    it('accepts names a browser requests', () => {
      for (const name of [
        '/',
        '/a.css?v=3',
        '/img/%C3%A9t%C3%A9.png',
        '/a..b/c',
        '/.well-known/x',
        '/a?x=../..',
        '/a;b=c',
        '/%F0%9F%99%82',
      ]) {
        expect(encodeCode(one({ name })), name).toBe('no error');
        expect(decodeCode(singleObjectPackage({ name })), name).toBe('no error');
      }
    });
    it('accepts a file name in the form URL.pathname + URL.search gives it, and refuses it raw', () => {
      for (const file of ['/café.png', '/日本/ü.css', '/a b.txt', '/😀.svg', '/search?q=crème brûlée&x=1']) {
        const url = new URL(file, 'https://example.test');
        const name = url.pathname + url.search;
        expect(encodeCode(one({ name })), name).toBe('no error');
        expect(decodeChunks(encodePackageSync(one({ name }))).objects[0]!.name).toBe(name);
        expect(encodeCode(one({ name: file })), file).toBe('OBJP_INVALID_NAME');
        expect(decodeCode(singleObjectPackage({ name: file })), file).toBe('OBJP_INVALID_NAME');
      }
    });

    it('rejects invalid UTF-8 in a name', () => {
      expect(decodeCode(singleObjectPackage({ name: new Uint8Array([0x2f, 0xc3, 0x28]) }))).toBe('OBJP_INVALID_NAME');
    });
  });

  it('OBJP_INVALID_HEADER: CR/LF in values, forbidden or malformed names, bad content types', () => {
    for (const [k, v] of [
      ['x-a', 'b\r\nset-cookie: c=d'],
      ['x-a', 'b\nc'],
      ['x-a', 'b\0'],
      ['x-a', 'é'],
      ['X-Upper', 'b'],
      ['bad name', 'b'],
      ['', 'b'],
    ]) {
      expect(encodeCode(one({ headers: [[k!, v!]] })), k).toBe('OBJP_INVALID_HEADER');
    }
    for (const k of [
      'content-type',
      'content-length',
      'transfer-encoding',
      'connection',
      'set-cookie',
      'keep-alive',
      'upgrade',
    ]) {
      expect(encodeCode(one({ headers: [[k, 'x']] })), k).toBe('OBJP_INVALID_HEADER');
      expect(decodeCode(singleObjectPackage({ headers: `${k}: x` })), k).toBe('OBJP_INVALID_HEADER');
    }
    for (const block of ['x-a: 1\r', 'x-a: 1\r\nx-b: 2', 'x-a 1', ': 1', 'x-a: 1\n', 'x-a: 1\n\nx-b: 2', 'X-A: 1']) {
      expect(decodeCode(singleObjectPackage({ headers: block })), JSON.stringify(block)).toBe('OBJP_INVALID_HEADER');
    }
    expect(decodeCode(singleObjectPackage({ headers: new Uint8Array([0x78, 0x3a, 0x20, 0xff]) }))).toBe(
      'OBJP_INVALID_HEADER',
    );
    for (const t of ['', 'text/html\r\nx-a: b', 'text/é']) {
      expect(encodeCode(one({ contentType: t })), t).toBe('OBJP_INVALID_HEADER');
      if (t) expect(decodeCode(singleObjectPackage({ contentTypes: [t] })), t).toBe('OBJP_INVALID_HEADER');
    }
    expect(
      decodeCode(singleObjectPackage({ headers: 'x-a: b: c\ncache-control: max-age=1, immutable\nx-tab: \t' })),
    ).toBe('no error');
  });

  it('OBJP_DUPLICATE_NAME', () => {
    const input: EncoderInput = { objects: [one().objects[0]!, one().objects[0]!] };
    expect(encodeCode(input)).toBe('OBJP_DUPLICATE_NAME');
    const body = utf8.encode('ab');
    const objects = [0, 1].map((i) => ({ name: '/x', size: 1, digest: sha256(body.subarray(i, i + 1)) }));
    expect(decodeCode(rawPackage({ objects }, body))).toBe('OBJP_DUPLICATE_NAME');
  });

  it('OBJP_DIGEST_MISMATCH names the object, after the objects before it completed', () => {
    const bad = pkg.slice();
    bad[bad.length - 1]! ^= 1;
    const ended: string[] = [];
    const d = new Decoder({ onObjectEnd: (e) => ended.push(e.name) });
    const err = (() => {
      try {
        d.push(bad);
      } catch (e) {
        return e as FormatError;
      }
    })();
    expect(err?.code).toBe('OBJP_DIGEST_MISMATCH');
    expect(err?.entry).toBe('/img/%C3%A9t%C3%A9.png');
    expect(ended).toEqual(['/index.html', '/a.css?v=3', '/empty.txt', '/video/intro.mp4']);
    expect(decodeCode(singleObjectPackage({ digest: new Uint8Array(32) }))).toBe('OBJP_DIGEST_MISMATCH');
    expect(decodeCode(singleObjectPackage({ size: 0, digest: new Uint8Array(32) }))).toBe('OBJP_DIGEST_MISMATCH');
    expect(decodeCode(singleObjectPackage({ digest: new Uint8Array(32) }), { verify: false })).toBe('no error');
  });

  it('OBJP_SOURCE_CHANGED: a streamed source that yields other bytes on its second pass', async () => {
    let pass = 0;
    const flipping = () => [utf8.encode(pass++ === 0 ? 'first' : 'other')];
    expect(await codeOfAsync(() => drain({ objects: [{ name: '/a', contentType: 'x/y', body: flipping }] }))).toBe(
      'OBJP_SOURCE_CHANGED',
    );
    let n = 0;
    const growing = () => [new Uint8Array(5 + n++)];
    expect(await codeOfAsync(() => drain({ objects: [{ name: '/a', contentType: 'x/y', body: growing }] }))).toBe(
      'OBJP_SOURCE_CHANGED',
    );
    let m = 0;
    const shrinking = async function* () {
      yield new Uint8Array(5 - m++);
    };
    expect(await codeOfAsync(() => drain({ objects: [{ name: '/a', contentType: 'x/y', body: shrinking }] }))).toBe(
      'OBJP_SOURCE_CHANGED',
    );
    // Size and digest supplied up front: the single pass is still checked against them.
    const body = utf8.encode('abc');
    const wrong = { name: '/a', contentType: 'x/y', body: () => [utf8.encode('abd')], size: 3, digest: sha256(body) };
    expect(await codeOfAsync(() => drain({ objects: [wrong] }))).toBe('OBJP_SOURCE_CHANGED');
    expect(await codeOfAsync(() => drain({ objects: [{ ...wrong, size: 4, digest: undefined }] }))).toBe(
      'OBJP_SOURCE_CHANGED',
    );
    expect(await codeOfAsync(() => drain({ objects: [{ ...wrong, body: () => [body] }] }))).toBe('no error');
  });

  it('OBJP_INVALID_INPUT: impossible object descriptions', async () => {
    expect(encodeCode({ objects: [{ name: '/a', contentType: 'x/y', body: () => [] }] })).toBe('OBJP_INVALID_INPUT');
    expect(encodeCode(one({ digest: new Uint8Array(31) }))).toBe('OBJP_INVALID_INPUT');
    expect(encodeCode(one({ totalSize: 4 }))).toBe('OBJP_INVALID_INPUT');
    expect(encodeCode({ buildId: 'has space', objects: [] })).toBe('OBJP_INVALID_INPUT');
    expect(encodeCode({ buildId: 'x'.repeat(65), objects: [] })).toBe('OBJP_INVALID_INPUT');
    expect(await codeOfAsync(() => drain(one({ size: 4 })))).toBe('OBJP_INVALID_INPUT');
    expect(encodeCode(one({ size: 4 }))).toBe('OBJP_INVALID_INPUT');
  });

  it('OBJP_DECODER_STATE: push after end; after a failure the same error again', () => {
    const d = new Decoder();
    d.push(pkg);
    d.end();
    expect(codeOf(() => d.push(new Uint8Array(0)))).toBe('OBJP_DECODER_STATE');
    const f = new Decoder();
    const first = (() => {
      try {
        f.push(utf8.encode('x'.repeat(40)));
      } catch (e) {
        return e;
      }
    })();
    expect(first).toBeInstanceOf(FormatError);
    expect(() => f.push(pkg)).toThrow(first as Error);
    expect(() => f.end()).toThrow(first as Error);
  });

  it('passes a handler’s own error through unchanged and stays failed', () => {
    const boom = new Error('handler failed');
    const d = new Decoder({
      onObjectStart: () => {
        throw boom;
      },
    });
    expect(() => d.push(pkg)).toThrow(boom);
    expect(() => d.end()).toThrow(boom);
  });
});
