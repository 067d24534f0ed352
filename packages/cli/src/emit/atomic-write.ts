import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

let counter = 0;

/** Marker in temporary file names; dot-prefixed so discovery never crawls a leftover. */
export const TEMP_MARK = '.objpack-tmp-';

/** `.<name>.objpack-tmp-<pid>-<thread>-<n>` beside the target, so the final rename never crosses a file system. */
export function tempPathFor(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}${TEMP_MARK}${process.pid}-${threadId}-${++counter}`,
  );
}

/**
 * Writes `data` to `target` so that readers only ever see the old file or the complete new one: the bytes
 * go to a temporary file in the same directory, which is renamed over the target when complete (rename is
 * atomic on POSIX file systems). On any failure the temporary file is removed and the target is untouched.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array | readonly Uint8Array[] | AsyncIterable<Uint8Array>,
  options: { fsync?: boolean } = {},
): Promise<number> {
  if (!options.fsync && (typeof data === 'string' || data instanceof Uint8Array)) return writeSmallAtomic(target, data);
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = tempPathFor(target);
  const fh = await open(tmp, 'wx');
  let bytes = 0;
  try {
    try {
      if (typeof data === 'string' || data instanceof Uint8Array) {
        const buf = typeof data === 'string' ? Buffer.from(data) : data;
        await fh.writeFile(buf);
        bytes = buf.length;
      } else if (Array.isArray(data)) {
        // Parts of a patched file as they are (one system call for them all, no copy into one buffer).
        const parts = data as readonly Uint8Array[];
        const total = parts.reduce((n, p) => n + p.length, 0);
        let done = (await fh.writev(parts as Uint8Array[])).bytesWritten;
        // A short write (rare: signals, full pipes) finishes with the rest, joined.
        if (done < total) done += (await fh.write(Buffer.concat(parts).subarray(done))).bytesWritten;
        if (done !== total) throw new Error(`short write to ${target}`);
        bytes = total;
      } else {
        for await (const chunk of data as AsyncIterable<Uint8Array>) {
          await fh.write(chunk);
          bytes += chunk.length;
        }
      }
      if (options.fsync) await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return bytes;
}

const madeDirs = new Set<string>();

/**
 * Creates a new temporary file beside `target` holding `data` (making the directory once per process) and
 * returns its name. A directory removed since this process made it (a cleanup between two builds in one
 * process) is made again, once. On failure nothing is left behind.
 */
function createTemp(target: string, data: string | Uint8Array): string {
  const dir = path.dirname(target);
  if (!madeDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  const tmp = tempPathFor(target);
  try {
    writeFileSync(tmp, data, { flag: 'wx' });
  } catch (err) {
    rmSync(tmp, { force: true });
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && madeDirs.delete(dir)) return createTemp(target, data);
    throw err;
  }
  return tmp;
}

/**
 * The same contract for a body already in memory, writing synchronously: for the thousands of small files
 * of a build, libuv round trips per open/write/close through a 4-thread pool cost more than the writes.
 */
export async function writeSmallAtomic(target: string, data: string | Uint8Array): Promise<number> {
  const tmp = createTemp(target, data);
  try {
    // Synchronous too: a thread-pool round trip per rename costs a build of thousands of packages more than
    // the renames do (benchmarks/build/README.md); these files are at most 1 MB, so a rename frees little.
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return typeof data === 'string' ? Buffer.byteLength(data) : data.length;
}

/**
 * Writes `data` to a new temporary file beside `target` (making the directory) and returns its name; the
 * caller renames it over the target later, or removes it. On failure nothing is left behind.
 *
 * Why stage: on ext4 without a journal (this VM's disk) creating a file skips, one by one, every inode of
 * its block group freed in the last minutes (`recently_deleted()` in fs/ext4/ialloc.c), and each rename
 * over an old page frees one. Creating all temporary files before any rename keeps a build from paying
 * for its own frees: interleaved, 10,000 page rewrites cost O(n²) inode-bitmap checks.
 */
export function writeTemp(target: string, data: Uint8Array): string {
  return createTemp(target, data);
}
