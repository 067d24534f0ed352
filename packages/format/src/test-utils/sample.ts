import { encodePackageSync } from '../encoder.js';
import type { EncoderInput } from '../types.js';

const enc = new TextEncoder();

/** A small package exercising every field: build id, shared refs, headers, empty and partial entries. */
export function samplePackageInput(): EncoderInput {
  return {
    buildId: 'b-test-0001',
    sharedRefs: ['/_objpack/shared/0123456789abcdef.objp'],
    objects: [
      {
        name: '/index.html',
        contentType: 'text/html; charset=utf-8',
        body: enc.encode('<!doctype html><link rel=stylesheet href=/a.css><p>hi'),
      },
      {
        name: '/a.css?v=3',
        contentType: 'text/css; charset=utf-8',
        headers: [['x-objpack-test', 'yes']],
        body: enc.encode('p{color:red}'),
      },
      { name: '/empty.txt', contentType: 'text/plain', body: new Uint8Array(0) },
      {
        name: '/video/intro.mp4',
        contentType: 'video/mp4',
        totalSize: 100_000,
        body: new Uint8Array(300).map((_, i) => i & 0xff),
      },
      {
        name: '/img/%C3%A9t%C3%A9.png',
        contentType: 'image/png',
        body: new Uint8Array(1000).map((_, i) => (i * 7) & 0xff),
      },
    ],
  };
}

export const samplePackage = (): Uint8Array => encodePackageSync(samplePackageInput());
