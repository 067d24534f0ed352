import { HEADER_SIZE } from './constants.js';
import { crc32 } from './crc32.js';
import { FormatError } from './errors.js';
import { encodeHeader } from './header.js';
import { encodeObjectInfo, type ObjectInfo } from './object-info.js';
import { createSha256, digestEquals } from './sha256.js';
import type { BodySource, EncoderInput, EncoderObject, HashFactory } from './types.js';

export interface EncoderOptions {
  /** Hash used for digests the caller did not supply (Node: pass `nodeSha256` for speed). */
  hash?: HashFactory;
}

/** Header plus object information field for objects whose sizes and digests are known. */
export function encodeIndex(input: { buildId?: string; sharedRefs?: readonly string[]; objects: readonly ObjectInfo[] }): Uint8Array {
  const info = encodeObjectInfo({ buildId: input.buildId ?? '', sharedRefs: input.sharedRefs ?? [], objects: input.objects });
  const dataLength = input.objects.reduce((s, o) => s + o.size, 0);
  const header = encodeHeader({ flags: 0, count: input.objects.length, indexLength: info.length, dataLength, indexCrc: crc32(info) });
  const out = new Uint8Array(HEADER_SIZE + info.length);
  out.set(header, 0);
  out.set(info, HEADER_SIZE);
  return out;
}

async function* iterate(body: BodySource): AsyncGenerator<Uint8Array> {
  if (body instanceof Uint8Array) {
    yield body;
    return;
  }
  for await (const chunk of body()) yield chunk;
}

/** Size and digest of an object, reading a streamed body once if they were not given. */
async function describe(o: EncoderObject, hash: HashFactory): Promise<ObjectInfo> {
  let size = o.size;
  let digest = o.digest;
  if (o.body instanceof Uint8Array) {
    if (size !== undefined && size !== o.body.length) throw new FormatError('OBJP_INVALID_INPUT', `size of ${o.name} does not match its body`, o.name);
    size = o.body.length;
    if (!digest) {
      const h = hash();
      h.update(o.body);
      digest = h.digest();
    }
  } else if (!digest || size === undefined) {
    const h = hash();
    let n = 0;
    for await (const chunk of iterate(o.body)) {
      h.update(chunk);
      n += chunk.length;
    }
    if (size !== undefined && size !== n) throw new FormatError('OBJP_SOURCE_CHANGED', `${o.name} yielded ${n} bytes, expected ${size}`, o.name);
    size = n;
    digest = h.digest();
  }
  return {
    name: o.name,
    contentType: o.contentType,
    headers: o.headers ?? [],
    size,
    totalSize: o.totalSize ?? size,
    digest,
  };
}

/**
 * Encodes a package as a byte stream: the header and complete index first, then each body in delivery
 * order. Streamed bodies are read chunk by chunk (a 1 GB object never sits in memory) and re-hashed on the
 * way out, so a source that changed between passes fails with OBJP_SOURCE_CHANGED instead of producing a
 * package whose digests lie. Output is a pure function of the input.
 */
export async function* encodePackage(input: EncoderInput, options: EncoderOptions = {}): AsyncGenerator<Uint8Array> {
  const hash = options.hash ?? createSha256;
  const infos: ObjectInfo[] = [];
  for (const o of input.objects) infos.push(await describe(o, hash));
  yield encodeIndex({ buildId: input.buildId, sharedRefs: input.sharedRefs, objects: infos });
  for (let i = 0; i < input.objects.length; i++) {
    const o = input.objects[i]!;
    const info = infos[i]!;
    if (o.body instanceof Uint8Array) {
      if (o.body.length > 0) yield o.body;
      continue;
    }
    const h = hash();
    let n = 0;
    for await (const chunk of iterate(o.body)) {
      n += chunk.length;
      if (n > info.size) throw new FormatError('OBJP_SOURCE_CHANGED', `${o.name} grew while being packaged`, o.name);
      h.update(chunk);
      if (chunk.length > 0) yield chunk;
    }
    if (n !== info.size || !digestEquals(h.digest(), info.digest)) {
      throw new FormatError('OBJP_SOURCE_CHANGED', `${o.name} changed while being packaged`, o.name);
    }
  }
}

/** Encodes a package whose bodies are all in memory, in one buffer. */
export function encodePackageSync(input: EncoderInput, options: EncoderOptions = {}): Uint8Array {
  const hash = options.hash ?? createSha256;
  const infos: ObjectInfo[] = input.objects.map((o) => {
    if (!(o.body instanceof Uint8Array)) throw new FormatError('OBJP_INVALID_INPUT', `${o.name}: encodePackageSync needs Uint8Array bodies`, o.name);
    if (o.size !== undefined && o.size !== o.body.length) throw new FormatError('OBJP_INVALID_INPUT', `size of ${o.name} does not match its body`, o.name);
    let digest = o.digest;
    if (!digest) {
      const h = hash();
      h.update(o.body);
      digest = h.digest();
    }
    return { name: o.name, contentType: o.contentType, headers: o.headers ?? [], size: o.body.length, totalSize: o.totalSize ?? o.body.length, digest };
  });
  const head = encodeIndex({ buildId: input.buildId, sharedRefs: input.sharedRefs, objects: infos });
  const total = head.length + infos.reduce((s, o) => s + o.size, 0);
  const out = new Uint8Array(total);
  out.set(head, 0);
  let at = head.length;
  for (const o of input.objects) {
    out.set(o.body as Uint8Array, at);
    at += (o.body as Uint8Array).length;
  }
  return out;
}
