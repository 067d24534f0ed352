import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { encodePackage, FormatErrorCode, isFormatError, type EncoderObject } from '@objpack/format';
import { fileSource, nodeSha256 } from '@objpack/format/node';
import { ErrorCode, ObjpackError } from '../errors.js';
import type { PlanObject } from '../plan/types.js';
import { writeFileAtomic, writeSmallAtomic } from './atomic-write.js';
import { injectBytes } from '../inject/inject.js';

const READ_WHOLE = 256 * 1024;
/** Packages up to this size are assembled in memory and written with one call. */
const IN_MEMORY = 1 << 20;

/** A page's carried bytes: from `load`, or the file with the registration tag injected when `inject`. */
export async function htmlBody(o: PlanObject): Promise<Uint8Array> {
  if (o.load) return o.load();
  const source = readFileSync(o.file);
  if (o.inject === undefined) return source;
  return injectBytes(source, o.inject) ?? source;
}

function encoderObject(o: PlanObject): EncoderObject {
  const partial = o.sendBytes < o.bytes;
  const body: EncoderObject['body'] =
    o.load || o.inject !== undefined
      ? async function* () {
          yield await htmlBody(o);
        }
      : o.sendBytes <= READ_WHOLE && !partial
        ? // Small files are read synchronously: cheaper than a thread-pool round trip per call.
          () => [readFileSync(o.file)]
        : fileSource(o.file, { start: 0, end: o.sendBytes - 1 });
  return {
    name: o.url,
    contentType: o.contentType,
    ...(o.headers && o.headers.length > 0 ? { headers: o.headers } : {}),
    body,
    size: o.sendBytes,
    ...(partial ? { totalSize: o.bytes } : {}),
    digest: o.digest,
  };
}

type PackageInput = { buildId: string; sharedRefs: readonly string[]; objects: readonly PlanObject[] };

/**
 * Encodes a package in memory, unless its objects carry more than 1 MB (`undefined`: stream it with
 * writePackage). The bytes are in their own ArrayBuffer, so a worker thread can transfer them.
 */
export async function encodeInMemory(
  target: string,
  input: PackageInput,
): Promise<{ data: Uint8Array; digest: string } | undefined> {
  if (input.objects.reduce((n, o) => n + o.sendBytes, 0) > IN_MEMORY) return undefined;
  const h = createHash('sha256');
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of encodePackage(
      { buildId: input.buildId, sharedRefs: input.sharedRefs, objects: input.objects.map(encoderObject) },
      { hash: nodeSha256 },
    )) {
      h.update(chunk);
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (err) {
    throw sourceError(err, target);
  }
  const data = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    data.set(c, at);
    at += c.length;
  }
  return { data, digest: `sha256-${h.digest('base64')}` };
}

/**
 * Encodes a package straight into its file (atomically; bodies stream from the site files, so a large object
 * never sits in memory) and returns its size and `sha256-…` digest. A site file that changed since it was
 * hashed fails the build with OBJPACK_E_SOURCE_CHANGED rather than ship a package whose digests lie.
 */
export async function writePackage(target: string, input: PackageInput): Promise<{ bytes: number; digest: string }> {
  const small = await encodeInMemory(target, input);
  if (small) return { bytes: await writeSmallAtomic(target, small.data), digest: small.digest };
  const h = createHash('sha256');
  const stream = encodePackage(
    { buildId: input.buildId, sharedRefs: input.sharedRefs, objects: input.objects.map(encoderObject) },
    { hash: nodeSha256 },
  );
  async function* hashed() {
    for await (const chunk of stream) {
      h.update(chunk);
      yield chunk;
    }
  }
  try {
    const bytes = await writeFileAtomic(target, hashed());
    return { bytes, digest: `sha256-${h.digest('base64')}` };
  } catch (err) {
    throw sourceError(err, target);
  }
}

/** A body that no longer matches its digest, or a site file gone or unreadable, as OBJPACK_E_SOURCE_CHANGED. */
function sourceError(err: unknown, target: string): unknown {
  if (isFormatError(err) && err.code === FormatErrorCode.SOURCE_CHANGED) {
    return new ObjpackError(ErrorCode.SOURCE_CHANGED, err.message, err.entry, { cause: err });
  }
  if (err && typeof err === 'object' && 'code' in err && (err.code === 'ENOENT' || err.code === 'EACCES')) {
    return new ObjpackError(
      ErrorCode.SOURCE_CHANGED,
      `cannot read a site file while writing ${target}: ${(err as unknown as Error).message}`,
      undefined,
      { cause: err },
    );
  }
  return err;
}
