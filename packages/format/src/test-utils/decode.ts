// Decoding helpers shared by the format tests: run the Decoder over chunks and record what it reported.
import { Decoder } from '../decoder.js';
import { FormatError } from '../errors.js';
import { toBase64, toHex } from '../sri.js';
import type { DecodeEvent } from '../events.js';
import type { DecoderHandlers, DecoderOptions, EncoderInput, ObjectEntry, PackageIndex } from '../types.js';

/** An object as a test compares it: every index field plus the body bytes. */
export interface DecodedObject {
  name: string;
  contentType: string;
  headers: Array<[string, string]>;
  size: number;
  totalSize: number;
  partial: boolean;
  digest: string;
  offset: number;
  body: string;
}

export interface Decoded {
  index: PackageIndex;
  objects: DecodedObject[];
  /** Events in order; body bytes are folded into the `end` line so chunking does not show. */
  transcript: string[];
}

const describe = (e: ObjectEntry, body: Uint8Array): DecodedObject => ({
  name: e.name,
  contentType: e.contentType,
  headers: e.headers.map(([k, v]) => [k, v]),
  size: e.size,
  totalSize: e.totalSize,
  partial: e.partial,
  digest: toHex(e.digest),
  offset: e.offset,
  body: toBase64(body),
});

/** Handlers that record a transcript and check event order: data only inside its own object, rows in order. */
export function recorder(): { handlers: Required<DecoderHandlers>; result: () => Decoded } {
  const transcript: string[] = [];
  const objects: DecodedObject[] = [];
  let index: PackageIndex | undefined;
  let current: ObjectEntry | undefined;
  let parts: Uint8Array[] = [];
  const fail = (why: string): never => {
    throw new Error(`decoder event order: ${why}`);
  };
  const handlers: Required<DecoderHandlers> = {
    onIndex: (ix) => {
      if (index) fail('second onIndex');
      index = ix;
      transcript.push(
        `index ${ix.buildId} [${ix.sharedRefs.join(' ')}] ${ix.entries.length} ${ix.headerBytes}+${ix.dataBytes}`,
      );
    },
    onObjectStart: (e) => {
      if (!index || current || e !== index.entries[objects.length]) fail(`unexpected start of ${e.name}`);
      current = e;
      parts = [];
      transcript.push(`start ${e.index} ${e.name}`);
    },
    onObjectData: (e, b) => {
      if (e !== current) fail(`data for ${e.name} outside its object`);
      if (b.length === 0) fail(`empty data event for ${e.name}`);
      parts.push(b.slice());
    },
    onObjectEnd: (e) => {
      if (e !== current) fail(`unexpected end of ${e.name}`);
      const body = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
      let at = 0;
      for (const p of parts) {
        body.set(p, at);
        at += p.length;
      }
      const o = describe(e, body);
      objects.push(o);
      current = undefined;
      transcript.push(`end ${e.index} ${e.name} ${o.size} ${o.digest.slice(0, 16)} ${o.body}`);
    },
    onEnd: (ix) => {
      if (ix !== index || current || objects.length !== ix.entries.length) fail('early onEnd');
      transcript.push('done');
    },
  };
  return { handlers, result: () => ({ index: index!, objects, transcript }) };
}

/** Replays stream events into a {@link recorder}; `complete` adds the final 'done' a stream implies. */
export function transcriptOfEvents(events: Iterable<DecodeEvent>, complete = true): Decoded {
  const r = recorder();
  let index: PackageIndex | undefined;
  for (const e of events) {
    if (e.type === 'index') r.handlers.onIndex((index = e.index));
    else if (e.type === 'start') r.handlers.onObjectStart(e.entry);
    else if (e.type === 'data') r.handlers.onObjectData(e.entry, e.bytes);
    else r.handlers.onObjectEnd(e.entry);
  }
  if (complete && index) r.handlers.onEnd(index);
  return r.result();
}

/** Decodes `bytes` pushed as the given chunk lengths (the rest goes in one last chunk). */
export function decodeChunks(
  bytes: Uint8Array,
  chunkLengths: readonly number[] = [],
  options?: DecoderOptions,
): Decoded {
  const r = recorder();
  const d = new Decoder(r.handlers, options);
  let at = 0;
  for (const n of chunkLengths) {
    d.push(bytes.subarray(at, at + n));
    at += n;
  }
  d.push(bytes.subarray(at));
  d.end();
  return r.result();
}

/** Splits `total` bytes into lengths of `size` (the last one shorter). */
export const evenChunks = (total: number, size: number): number[] =>
  Array.from({ length: Math.ceil(total / size) }, (_, i) => Math.min(size, total - i * size));

/** The objects a decoder should report for `input` (bodies must be Uint8Array or already collected). */
export function expectedObjects(
  input: EncoderInput,
  bodies: readonly Uint8Array[],
  digests: readonly Uint8Array[],
): DecodedObject[] {
  let offset = 0;
  return input.objects.map((o, i) => {
    const body = bodies[i]!;
    const total = o.totalSize ?? body.length;
    const out: DecodedObject = {
      name: o.name,
      contentType: o.contentType,
      headers: (o.headers ?? []).map(([k, v]) => [k, v]),
      size: body.length,
      totalSize: total,
      partial: total > body.length,
      digest: toHex(digests[i]!),
      offset,
      body: toBase64(body),
    };
    offset += body.length;
    return out;
  });
}

/** The FormatError code `fn` throws, 'no error', or rethrows anything that is not a FormatError. */
export async function codeOfAsync(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof FormatError) return e.code;
    throw e;
  }
  return 'no error';
}

/** Synchronous {@link codeOfAsync}. */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof FormatError) return e.code;
    throw e;
  }
  return 'no error';
}
