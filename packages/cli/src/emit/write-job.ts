import { rmSync } from 'node:fs';
import { ErrorCode, ObjpackError } from '../errors.js';
import type { PlanObject } from '../plan/types.js';
import { writeSmallAtomic, writeTemp } from './atomic-write.js';
import { encodeInMemory, htmlBody, writePackage } from './write-package.js';

/**
 * One package to encode and write, as plain data so it can cross to a worker thread (objects carry no
 * `load`; an injected page says so with `inject`). With `html`, the package's first object (the page) is
 * also written to a temporary file beside that target (`htmlTemp`), which the caller renames over it once
 * every package is written (see writeTemp): the page is read and injected once for both.
 */
export interface WriteJob {
  target: string;
  buildId: string;
  sharedRefs: readonly string[];
  objects: readonly PlanObject[];
  html?: string;
}

export interface WriteDone {
  bytes: number;
  digest: string;
  /** With `html`: the page's bytes, staged in this temporary file (renamed by the caller). */
  htmlTemp?: string;
  htmlBytes?: number;
}

/** A failure as plain data: the ObjpackError code (or the errno code) survives the thread boundary. */
export interface WriteFailure {
  objpack?: ErrorCode;
  code?: string;
  message: string;
  file?: string;
}

/** Where write jobs run: worker threads (pool/thread-pool.ts) or, by default, this thread. */
export interface PackageWriter {
  write(job: WriteJob): Promise<WriteDone>;
}

/**
 * What worker threads do of a job: read, inject, encode and hash, and stage the page in its temporary
 * file. The package's bytes come back in `data` (absent when a package over 1 MB was streamed to its file).
 */
export interface Encoded extends WriteDone {
  data?: Uint8Array;
}

/** Runs the jobs on this thread, failing as the worker threads do. */
export const localWriter: PackageWriter = { write: async (job) => finishJob(job, await encodeJob(job)) };

/** Encodes a job's package and stages its page; only a package too big for memory is written here. */
export async function encodeJob(job: WriteJob): Promise<Encoded> {
  const first = job.objects[0];
  let page: Uint8Array | undefined;
  try {
    page = job.html !== undefined && first ? await htmlBody(first) : undefined;
  } catch (err) {
    throw new ObjpackError(
      ErrorCode.SOURCE_CHANGED,
      `cannot read ${first?.rel} while writing ${job.target}: ${(err as Error).message}`,
      first?.file,
      { cause: err },
    );
  }
  // The page's bytes, once read (and digest-checked by the encoder), go into the package and into the page.
  const objects = page && first ? [{ ...first, load: async () => page }, ...job.objects.slice(1)] : job.objects;
  const input = { buildId: job.buildId, sharedRefs: job.sharedRefs, objects };
  const small = await encodeInMemory(job.target, input);
  const done: Encoded = small
    ? { bytes: small.data.length, digest: small.digest, data: small.data }
    : await writePackage(job.target, input);
  if (page && job.html !== undefined) {
    done.htmlTemp = writeTemp(job.html, page);
    done.htmlBytes = page.length;
  }
  return done;
}

/**
 * Writes the package on the calling thread. Why here: creating a file holds its directory's lock (and on
 * this VM's ext4 costs 0.1–0.6 ms), so threads creating packages in one directory only queue; this
 * thread creates the packages while the workers create the pages' temporary files in theirs.
 */
export async function finishJob(job: WriteJob, e: Encoded): Promise<WriteDone> {
  const { data, ...done } = e;
  try {
    if (data) done.bytes = await writeSmallAtomic(job.target, data);
    return done;
  } catch (err) {
    if (done.htmlTemp !== undefined) rmSync(done.htmlTemp, { force: true });
    throw new ObjpackError(ErrorCode.WRITE, `cannot write ${job.target}: ${(err as Error).message}`, job.target, {
      cause: err,
    });
  }
}

export function toWriteFailure(err: unknown): WriteFailure {
  const e = err as Partial<ObjpackError> & NodeJS.ErrnoException;
  return {
    ...(err instanceof ObjpackError ? { objpack: err.code } : {}),
    ...(typeof e.code === 'string' && !(err instanceof ObjpackError) ? { code: e.code } : {}),
    message: e.message ?? String(err),
    ...(err instanceof ObjpackError && err.file !== undefined ? { file: err.file } : {}),
  };
}

/**
 * The error a failed job throws on the calling thread: its ObjpackError code when it had one, else
 * OBJPACK_E_WRITE naming the target (a full disk, a read-only output directory).
 */
export function fromWriteFailure(f: WriteFailure, target: string): Error {
  if (f.objpack) return new ObjpackError(f.objpack, f.message.replace(/^OBJPACK_E_\w+: /, ''), f.file);
  const cause = Object.assign(new Error(f.message), f.code !== undefined ? { code: f.code } : {});
  return new ObjpackError(ErrorCode.WRITE, `cannot write ${target}: ${f.message}`, target, { cause });
}
