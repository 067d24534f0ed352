import { encodePackage, encodePackageSync } from '../encoder.js';
import type { DecoderOptions, EncoderInput } from '../types.js';
import { codeOf, decodeChunks } from './decode.js';
import { fixCrcs } from './raw.js';

export const utf8 = new TextEncoder();
/** The code a decoder fails with on `bytes`, pushed whole. */
export const decodeCode = (bytes: Uint8Array, options?: DecoderOptions) =>
  codeOf(() => decodeChunks(bytes, [], options));
/** The code the encoder fails with on `input`. */
export const encodeCode = (input: EncoderInput) => codeOf(() => encodePackageSync(input));
/** A package of one small text object, with `over` in it. */
export const one = (over: Partial<EncoderInput['objects'][number]> = {}): EncoderInput => ({
  objects: [{ name: '/a.txt', contentType: 'text/plain', body: utf8.encode('hello'), ...over }],
});
/** Encodes `input` as a stream, discarding the bytes. */
export const drain = async (input: EncoderInput) => {
  for await (const _ of encodePackage(input));
};
/** A copy of `pkg` with the u32 at `at` set to `n`, its CRCs fixed. */
export const setU32 = (pkg: Uint8Array, at: number, n: number) => {
  const b = pkg.slice();
  new DataView(b.buffer).setUint32(at, n, true);
  return fixCrcs(b);
};
