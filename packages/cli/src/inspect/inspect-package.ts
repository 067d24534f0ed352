import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { decodeStream, digestToSri, isFormatError, type DecodeEvent, type PackageIndex } from '@objpack/format';
import { nodeSha256 } from '@objpack/format/node';
import { ErrorCode, ObjpackError } from '../errors.js';
import { currentFileOfSlot } from '../emit/generation.js';

export interface InspectResult {
  file: string;
  fileBytes: number;
  version: string;
  buildId: string;
  sharedRefs: string[];
  headerBytes: number;
  dataBytes: number;
  /** Every object in delivery order; `verified` is true once its SHA-256 matched. */
  objects: Array<{
    index: number;
    name: string;
    contentType: string;
    size: number;
    totalSize: number;
    partial: boolean;
    digest: string;
    verified: boolean;
  }>;
}

/** Streams package events from a file, turning format errors into OBJPACK_E_CORRUPT_PACKAGE (exit 3). */
export async function* readPackageEvents(file: string): AsyncGenerator<DecodeEvent> {
  file = await packagePath(file);
  const st = await stat(file).catch(() => undefined);
  if (!st) throw new ObjpackError(ErrorCode.INPUT_NOT_FOUND, `package not found: ${file}`, file);
  if (st.isDirectory())
    throw new ObjpackError(
      ErrorCode.USAGE,
      `${file} is a directory; give a package file (_objpack/pages/….objp or _objpack/shared/….objp)`,
      file,
    );
  try {
    yield* decodeStream(createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Uint8Array>, {
      hash: nodeSha256,
    });
  } catch (err) {
    if (isFormatError(err))
      throw new ObjpackError(ErrorCode.CORRUPT_PACKAGE, `${file}: ${err.message}`, file, { cause: err });
    throw err;
  }
}

/** `file`, or for a page package's slot (`_objpack/pages/index.html.objp`) its current generation's file. */
async function packagePath(file: string): Promise<string> {
  if (await stat(file).catch(() => undefined)) return file;
  return currentFileOfSlot(file) ?? file;
}

/** Reads a whole package, verifying every object's digest, and describes it. Corrupt input throws. */
export async function inspectPackage(file: string): Promise<InspectResult> {
  file = await packagePath(file);
  let index: PackageIndex | undefined;
  const objects: InspectResult['objects'] = [];
  for await (const e of readPackageEvents(file)) {
    if (e.type === 'index') {
      index = e.index;
      for (const o of e.index.entries) {
        objects.push({
          index: o.index,
          name: o.name,
          contentType: o.contentType,
          size: o.size,
          totalSize: o.totalSize,
          partial: o.partial,
          digest: digestToSri(o.digest),
          verified: false,
        });
      }
    } else if (e.type === 'end') {
      objects[e.entry.index]!.verified = true;
    }
  }
  if (!index) throw new ObjpackError(ErrorCode.CORRUPT_PACKAGE, `${file}: no package index`, file);
  return {
    file,
    fileBytes: (await stat(file)).size,
    version: `${index.version.major}.${index.version.minor}`,
    buildId: index.buildId,
    sharedRefs: [...index.sharedRefs],
    headerBytes: index.headerBytes,
    dataBytes: index.dataBytes,
    objects,
  };
}
