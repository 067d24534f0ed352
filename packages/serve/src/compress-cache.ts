import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { ByteLru } from './byte-lru.js';
import type { FileEntry } from './site-index.js';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Largest body compressed on the fly; bigger text streams uncompressed rather than pinning memory. */
export const MAX_ON_THE_FLY = 4 * 1024 * 1024;
/** Bodies below this gain less than the header bytes compression costs. */
export const MIN_COMPRESS = 512;

/**
 * Compresses text once per (file version, coding) and keeps the result in the shared byte-bounded cache.
 * Concurrent first requests share one compression. A result that is not smaller is remembered as "no".
 */
export class CompressCache {
  readonly #pending = new Map<string, Promise<Buffer | null>>();
  readonly #useless = new Set<string>();

  constructor(readonly cache: ByteLru<Buffer>) {}

  /** Whether the entry is worth an attempt. */
  eligible(e: FileEntry): boolean {
    return e.compressible && e.size >= MIN_COMPRESS && e.size <= MAX_ON_THE_FLY;
  }

  /** Forgets everything (after a reload, old file versions are unreachable). */
  clear(): void {
    this.cache.clear();
    this.#useless.clear();
  }

  peek(e: FileEntry, coding: 'br' | 'gzip'): Buffer | undefined {
    return this.cache.get(`${coding}:${e.file}:${e.etag}`);
  }

  async get(e: FileEntry, coding: 'br' | 'gzip', read: () => Promise<Buffer>): Promise<Buffer | null> {
    const key = `${coding}:${e.file}:${e.etag}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    if (this.#useless.has(key)) return null;
    let p = this.#pending.get(key);
    if (!p) {
      p = (async () => {
        const src = await read();
        const out =
          coding === 'br'
            ? await brotli(src, {
                params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: src.length },
              })
            : await gz(src, { level: 6 });
        if (out.length >= src.length) {
          this.#useless.add(key);
          return null;
        }
        this.cache.set(key, out);
        return out;
      })().finally(() => this.#pending.delete(key));
      this.#pending.set(key, p);
    }
    return p;
  }
}
