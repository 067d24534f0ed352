import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { encodePackage, isFormatError, type EncoderObject } from '@objpack/format';
import { fileSource, nodeSha256 } from '@objpack/format/node';
import { ErrorCode, ObjpackError } from '../errors.js';
import type { PlanObject } from '../plan/types.js';
import { writeFileAtomic, writeSmallAtomic } from './atomic-write.js';

const READ_WHOLE = 256 * 1024;
/** Packages up to this size are assembled in memory and written with one call. */
const IN_MEMORY = 1 << 20;

function encoderObject(o: PlanObject): EncoderObject {
  const partial = o.sendBytes < o.bytes;
  const load = o.load;
  const body: EncoderObject['body'] = load
    ? async function* () {
        yield await load();
      }
    : o.sendBytes <= READ_WHOLE && !partial
      ? // Small files are read synchronously: cheaper than a thread-pool round trip per call.
        () => [readFileSync(o.file)]
      : fileSource(o.file, { start: 0, end: o.sendBytes - 1 });
  return {
    name: o.url,
    contentType: o.contentType,
    body,
    size: o.sendBytes,
    ...(partial ? { totalSize: o.bytes } : {}),
    digest: o.digest,
  };
}

/**
 * Encodes a package straight into its file (atomically; bodies stream from the site files, so a large object
 * never sits in memory) and returns its size and `sha256-…` digest. A site file that changed since it was
 * hashed fails the build with OBJPACK_E_SOURCE_CHANGED rather than ship a package whose digests lie.
 */
export async function writePackage(
  target: string,
  input: { buildId: string; sharedRefs: readonly string[]; objects: readonly PlanObject[] },
): Promise<{ bytes: number; digest: string }> {
  const h = createHash('sha256');
  const stream = encodePackage({ buildId: input.buildId, sharedRefs: input.sharedRefs, objects: input.objects.map(encoderObject) }, { hash: nodeSha256 });
  async function* hashed() {
    for await (const chunk of stream) {
      h.update(chunk);
      yield chunk;
    }
  }
  try {
    let bytes: number;
    if (input.objects.reduce((n, o) => n + o.sendBytes, 0) <= IN_MEMORY) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of hashed()) chunks.push(chunk);
      bytes = await writeSmallAtomic(target, Buffer.concat(chunks));
    } else {
      bytes = await writeFileAtomic(target, hashed());
    }
    return { bytes, digest: `sha256-${h.digest('base64')}` };
  } catch (err) {
    if (isFormatError(err) && err.code === 'OBJP_SOURCE_CHANGED') {
      throw new ObjpackError(ErrorCode.SOURCE_CHANGED, err.message, err.entry, { cause: err });
    }
    if (err && typeof err === 'object' && 'code' in err && (err.code === 'ENOENT' || err.code === 'EACCES')) {
      throw new ObjpackError(ErrorCode.SOURCE_CHANGED, `cannot read a site file while writing ${target}: ${(err as unknown as Error).message}`, undefined, { cause: err });
    }
    throw err;
  }
}
