import { close, fstatSync, openSync, read } from 'node:fs';

/** Largest length one `read` takes (Node refuses 2 GiB and more). */
const MAX_READ = 1 << 30;

/**
 * Starts reading a whole file on libuv's thread pool and returns at once: one `read` system call for the
 * file (more only after a short read), so it runs to the end while this thread is busy with synchronous
 * work (the incremental build's walk) instead of waiting for a callback between chunks, as `readFile` does
 * every 512 KB. Resolves to undefined if the file cannot be read; never rejects.
 */
export function readAhead(file: string): Promise<Buffer | undefined> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    const finish = (result: Buffer | undefined) => close(fd, () => resolve(result));
    let size: number;
    let buf: Buffer;
    try {
      size = fstatSync(fd).size;
      // Not zero-filled: every byte is overwritten or cut off, and the pages are touched by the read
      // itself, on the pool's thread.
      buf = Buffer.allocUnsafeSlow(size);
    } catch {
      return finish(undefined);
    }
    const from = (at: number): void => {
      if (at === size) return finish(buf);
      try {
        read(fd, buf, at, Math.min(size - at, MAX_READ), at, (err, n) =>
          err ? finish(undefined) : n === 0 ? finish(buf.subarray(0, at)) : from(at + n),
        );
      } catch {
        finish(undefined);
      }
    };
    from(0);
  });
}
