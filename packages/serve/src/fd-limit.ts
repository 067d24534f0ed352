import { readFileSync } from 'node:fs';

/**
 * The open-file limit assumed where it cannot be read (not Linux): 1024, the most common soft
 * `RLIMIT_NOFILE`. Too low a guess only refuses connections early; too high a one runs out of descriptors.
 */
export const ASSUMED_FILE_LIMIT = 1024;

/** Where the limit came from: read from `/proc/self/limits`, or assumed. */
export interface FileLimit {
  files: number;
  source: 'rlimit' | 'assumed';
}

/**
 * The process's soft `RLIMIT_NOFILE` (Node has no getrlimit; Linux shows it in `/proc/self/limits`, after
 * Node raised the soft limit to the hard one at start-up). `Infinity` for `unlimited`.
 */
export function fileLimit(readLimits: () => string = () => readFileSync('/proc/self/limits', 'utf8')): FileLimit {
  let text: string;
  try {
    text = readLimits();
  } catch {
    return { files: ASSUMED_FILE_LIMIT, source: 'assumed' };
  }
  const soft = /^Max open files\s+(\d+|unlimited)\s/m.exec(text)?.[1];
  if (soft === undefined) return { files: ASSUMED_FILE_LIMIT, source: 'assumed' };
  return { files: soft === 'unlimited' ? Infinity : Number(soft), source: 'rlimit' };
}

/**
 * Descriptors kept for everything but connections and the files they send: stdio, the listener, libuv's
 * own, prefetch reads, the index's reads on reload, a `--watch` build in the same process.
 */
export const reservedFiles = (files: number): number => Math.min(1024, Math.max(64, Math.floor(files / 10)));

/**
 * The default connection cap for `files` descriptors. An admitted HTTP/1 connection holds its socket and,
 * while it streams a file from disk, one file; a connection over the cap holds only its socket until it is
 * answered 503 (or dropped at accept once as many again are waiting, see {@link acceptLimit}). So a third
 * of what the reserve leaves goes to each: admitted sockets, their files, refused sockets. At least 1.
 */
export function defaultMaxConnections(files: number): number {
  if (files === Infinity) return Infinity;
  return Math.max(1, Math.floor((files - reservedFiles(files)) / 3));
}

/**
 * Connections the listener accepts at all (Node's `server.maxConnections`): the cap and as many again (at
 * least 64) to answer 503 with `Retry-After`; beyond that a new connection is closed at accept, so a flood
 * never takes the descriptors that files being sent need.
 */
export const acceptLimit = (maxConnections: number): number => maxConnections + Math.max(maxConnections, 64);
