import { HEADER_SIZE } from './constants.js';
import { FormatError, FormatErrorCode } from './errors.js';
import { planIndex, writeIndex } from './index-writer.js';
import type { ObjectInfo } from './object-info.js';
import { createSha256, digestEquals } from './sha256.js';
import type { BodySource, EncoderInput, HashFactory } from './types.js';

export interface EncoderOptions {
  /** Hash used for digests the caller did not supply (Node: pass `nodeSha256` for speed). */
  hash?: HashFactory;
}

type Headers = ReadonlyArray<readonly [string, string]> | undefined;

/** The index columns (see IndexInput in index-writer.ts) plus the bodies, filled in delivery order. */
class Columns {
  readonly names: string[] = [];
  readonly contentTypes: string[] = [];
  readonly headers: Headers[] = [];
  readonly sizes: number[] = [];
  readonly totalSizes: number[] = [];
  readonly digests: Uint8Array[] = [];
  readonly bodies: BodySource[] = [];

  add(
    name: string,
    contentType: string,
    headers: Headers,
    size: number,
    totalSize: number | undefined,
    digest: Uint8Array,
    body: BodySource,
  ): void {
    this.names.push(name);
    this.contentTypes.push(contentType);
    this.headers.push(headers);
    this.sizes.push(size);
    this.totalSizes.push(totalSize ?? size);
    this.digests.push(digest);
    this.bodies.push(body);
  }

  /** Header and object information field, in a buffer with room for the data field when asked. */
  index(
    input: { buildId?: string; sharedRefs?: readonly string[] },
    withData = false,
  ): { bytes: Uint8Array; at: number } {
    const plan = planIndex({ buildId: input.buildId ?? '', sharedRefs: input.sharedRefs ?? [], ...this });
    const bytes = new Uint8Array(HEADER_SIZE + plan.infoLength + (withData ? plan.dataLength : 0));
    writeIndex(plan, bytes, 0);
    return { bytes, at: HEADER_SIZE + plan.infoLength };
  }
}

/** Header plus object information field for objects whose sizes and digests are known. */
export function encodeIndex(input: {
  buildId?: string;
  sharedRefs?: readonly string[];
  objects: readonly ObjectInfo[];
}): Uint8Array {
  const c = new Columns();
  for (const o of input.objects)
    c.add(o.name, o.contentType, o.headers, o.size, o.totalSize, o.digest, new Uint8Array(0));
  return c.index(input).bytes;
}

function hashOf(bytes: Uint8Array, hash: HashFactory): Uint8Array {
  const h = hash();
  h.update(bytes);
  return h.digest();
}

type Chunks = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
/** A sync source (a file read in one call, an array) is walked without an await per chunk. */
const isSync = (c: Chunks): c is Iterable<Uint8Array> => !(Symbol.asyncIterator in c) && Symbol.iterator in c;

/** Size and digest of a streamed body, reading it once. */
async function measure(
  name: string,
  source: () => Chunks,
  expected: number | undefined,
  hash: HashFactory,
): Promise<{ size: number; digest: Uint8Array }> {
  const h = hash();
  let n = 0;
  const chunks = source();
  if (isSync(chunks)) {
    for (const chunk of chunks) {
      h.update(chunk);
      n += chunk.length;
    }
  } else {
    for await (const chunk of chunks) {
      h.update(chunk);
      n += chunk.length;
    }
  }
  if (expected !== undefined && expected !== n)
    throw new FormatError(FormatErrorCode.SOURCE_CHANGED, `${name} yielded ${n} bytes, expected ${expected}`, name);
  return { size: n, digest: h.digest() };
}

/**
 * Reads every object of the input into columns, each property exactly once (see IndexInput: objects built
 * with object spread make property loads slow). In-memory bodies are described without an await.
 */
async function columnsOf(input: EncoderInput, hash: HashFactory): Promise<Columns> {
  const c = new Columns();
  for (const { name, contentType, headers, body, size, totalSize, digest } of input.objects) {
    if (body instanceof Uint8Array) {
      if (size !== undefined && size !== body.length)
        throw new FormatError(FormatErrorCode.INVALID_INPUT, `size of ${name} does not match its body`, name);
      c.add(name, contentType, headers, body.length, totalSize, digest ?? hashOf(body, hash), body);
    } else if (digest && size !== undefined) {
      c.add(name, contentType, headers, size, totalSize, digest, body);
    } else {
      // A given digest is replaced by the measured one when the size was not given (the pass reads it anyway).
      const m = await measure(name, body, size, hash);
      c.add(name, contentType, headers, m.size, totalSize, m.digest, body);
    }
  }
  return c;
}

/**
 * Encodes a package as a byte stream: the header and complete index first, then each body in delivery
 * order. Streamed bodies are read chunk by chunk (a 1 GB object never sits in memory) and re-hashed on the
 * way out, so a source that changed between passes fails with OBJP_SOURCE_CHANGED instead of producing a
 * package whose digests lie. Output is a pure function of the input. Bodies are yielded as given, without
 * copying: batching small bodies into 64 KiB chunks saves no time (benchmarks/format/README.md).
 */
export async function* encodePackage(input: EncoderInput, options: EncoderOptions = {}): AsyncGenerator<Uint8Array> {
  const hash = options.hash ?? createSha256;
  const c = await columnsOf(input, hash);
  yield c.index(input).bytes;
  for (let i = 0; i < c.bodies.length; i++) {
    const body = c.bodies[i]!;
    if (body instanceof Uint8Array) {
      if (body.length > 0) yield body;
      continue;
    }
    const name = c.names[i]!;
    const size = c.sizes[i]!;
    const h = hash();
    let n = 0;
    const take = (chunk: Uint8Array) => {
      n += chunk.length;
      if (n > size) throw new FormatError(FormatErrorCode.SOURCE_CHANGED, `${name} grew while being packaged`, name);
      h.update(chunk);
    };
    const chunks = body();
    if (isSync(chunks)) {
      for (const chunk of chunks) {
        take(chunk);
        if (chunk.length > 0) yield chunk;
      }
    } else {
      for await (const chunk of chunks) {
        take(chunk);
        if (chunk.length > 0) yield chunk;
      }
    }
    if (n !== size || !digestEquals(h.digest(), c.digests[i]!)) {
      throw new FormatError(FormatErrorCode.SOURCE_CHANGED, `${name} changed while being packaged`, name);
    }
  }
}

/** Encodes a package whose bodies are all in memory, in one buffer. */
export function encodePackageSync(input: EncoderInput, options: EncoderOptions = {}): Uint8Array {
  const hash = options.hash ?? createSha256;
  const c = new Columns();
  for (const { name, contentType, headers, body, size, totalSize, digest } of input.objects) {
    if (!(body instanceof Uint8Array))
      throw new FormatError(FormatErrorCode.INVALID_INPUT, `${name}: encodePackageSync needs Uint8Array bodies`, name);
    if (size !== undefined && size !== body.length)
      throw new FormatError(FormatErrorCode.INVALID_INPUT, `size of ${name} does not match its body`, name);
    c.add(name, contentType, headers, body.length, totalSize, digest ?? hashOf(body, hash), body);
  }
  const { bytes, at: dataStart } = c.index(input, true);
  let at = dataStart;
  for (const body of c.bodies as Uint8Array[]) {
    bytes.set(body, at);
    at += body.length;
  }
  return bytes;
}
