import { close, fstatSync, openSync, read } from 'node:fs';

/**
 * Starts reading a whole file on libuv's thread pool and returns at once: one `read` system call for the
 * file (more only after a short read), so it runs to the end while this thread is busy with synchronous
 * work (the incremental build's walk) instead of waiting for a callback between chunks, as `readFile` does
 * every 512 KB. Resolves to undefined if the file cannot be read; never rejects.
 */
export function readAhead(file: string): Promise<Buffer | undefined> {
  let fd: number;
  let size: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return Promise.resolve(undefined);
  }
  try {
    size = fstatSync(fd).size;
  } catch {
    close(fd, () => undefined);
    return Promise.resolve(undefined);
  }
  // Not zero-filled: every byte is overwritten or cut off, and the pages are touched by the read itself,
  // on the pool's thread.
  const buf = Buffer.allocUnsafeSlow(size);
  return new Promise((resolve) => {
    const finish = (result: Buffer | undefined) => close(fd, () => resolve(result));
    const from = (at: number): void => {
      if (at === size) return finish(buf);
      read(fd, buf, at, size - at, at, (err, n) => (err ? finish(undefined) : n === 0 ? finish(buf.subarray(0, at)) : from(at + n)));
    };
    from(0);
  });
}
