import { EXTRACT_VERSION } from './page-extract.js';

/** What a file's metadata says about its content: equal signatures mean "unchanged" without reading it. */
export interface StatLike {
  bytes: number;
  mtimeMs: number;
  ino?: number;
}

/**
 * Size, mtime and inode: a rewrite in place keeps the inode but moves the mtime, an atomic replace (rename)
 * changes the inode even when a coarse mtime does not move. When the signature differs the content hash
 * decides, so touching a file costs a read and a hash, never a re-parse.
 */
export function statSignature(f: StatLike): string {
  return `${f.bytes}:${f.mtimeMs}:${f.ino ?? 0}`;
}

/** DiscoverCache key mapping a file's signature to the content hash its parse results are stored under. */
export function statKey(rel: string, f: StatLike): string {
  return `stat${EXTRACT_VERSION}:${rel}:${statSignature(f)}`;
}
