import { readFile } from 'node:fs/promises';
import { ByteLru } from './byte-lru.js';
import type { ServeLogEvent } from './options.js';
import type { FileEntry } from './site-index.js';
import { ServeErrorCode } from './errors.js';

/** Counters of the disk-to-memory prefetch (thesis ch. 2). Counted whether prefetch is on or off. */
export interface PrefetchStats {
  enabled: boolean;
  /** Requests for disk-backed files answered from the prefetch cache. */
  hits: number;
  /** Requests for disk-backed files read from disk. */
  misses: number;
  /** Files loaded ahead of demand, and their bytes. */
  loads: number;
  loadedBytes: number;
  /** Bytes held now. */
  cachedBytes: number;
}

/**
 * When a page is served, reads the disk-backed files of its closure into a byte-bounded LRU before the
 * browser asks for them. Files the start-up index already holds in memory need no prefetch.
 */
export class Prefetcher {
  readonly #cache: ByteLru<Buffer>;
  readonly #loading = new Set<string>();
  readonly #stats: Omit<PrefetchStats, 'cachedBytes'>;

  constructor(
    maxBytes: number,
    readonly maxFileBytes: number,
    readonly onLog: (e: ServeLogEvent) => void,
  ) {
    this.#cache = new ByteLru(maxBytes);
    this.#stats = { enabled: maxBytes > 0, hits: 0, misses: 0, loads: 0, loadedBytes: 0 };
  }

  get stats(): PrefetchStats {
    return { ...this.#stats, cachedBytes: this.#cache.bytes };
  }

  /** Starts loading the files that are not in memory yet; returns at once. */
  warm(entries: Iterable<FileEntry>): void {
    if (!this.#stats.enabled) return;
    for (const e of entries) {
      if (e.body || e.size > this.maxFileBytes || e.size > this.#cache.maxBytes) continue;
      const key = `${e.file}:${e.etag}`;
      if (this.#loading.has(key) || this.#cache.has(key)) continue;
      this.#loading.add(key);
      readFile(e.file)
        .then((buf) => {
          if (buf.length !== e.size) return; // changed on disk since the index; reload() will fix it
          this.#cache.set(key, buf);
          this.#stats.loads++;
          this.#stats.loadedBytes += buf.length;
        })
        .catch((error) =>
          this.onLog({
            level: 'debug',
            code: ServeErrorCode.READ,
            message: `prefetch of ${e.urlPath} failed`,
            path: e.urlPath,
            error,
          }),
        )
        .finally(() => this.#loading.delete(key));
    }
  }

  /** The body of a disk-backed file if prefetched; counts a hit or a miss. */
  take(e: FileEntry): Buffer | undefined {
    const buf = this.#stats.enabled ? this.#cache.get(`${e.file}:${e.etag}`) : undefined;
    if (buf) this.#stats.hits++;
    else this.#stats.misses++;
    return buf;
  }

  clear(): void {
    this.#cache.clear();
  }
}
