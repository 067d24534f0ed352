/**
 * An emulated memory-bound server (002 §4.3): loopback has no slow disk and no small RAM, so the server
 * child (server-child.mjs) runs every request through this model before the real server sees it.
 *
 * - RAM is one byte budget shared by the file cache and the server's connections, as in Apache 1.3 where
 *   each connection is a process: 002 Fig. 9 measured ≈ 378 KB per active connection (HTTP/1.0) and
 *   ≈ 81 KB per mostly idle one (HTTP/1.1). Each connection's share is taken from the cache, so idle
 *   persistent connections evict files — the paper's explanation of why HTTP/1.1 collapses.
 * - The cache is a demand-filled LRU (the OS buffer cache); a miss costs one disk access,
 *   `seekMs + bytes / bytesPerMs`, served first-come first-served by one disk. A file still being read
 *   when asked for again waits for that read instead of starting another.
 * The model is pure (time comes from `now`), so tests drive it with a fake clock.
 */

/**
 * @typedef {object} MemoryModelOptions
 * @property {number} memoryBytes RAM for the file cache and the connections together
 * @property {number} idleConnBytes memory of an open connection with no request in flight
 * @property {number} activeConnBytes memory of a connection serving a request
 * @property {number} seekMs fixed cost of one disk access (seek + rotation)
 * @property {number} bytesPerMs disk transfer rate
 * @property {() => number} [now] clock in ms (default performance.now)
 */

/**
 * @typedef {{
 *   hits: number, misses: number, hitBytes: number, missBytes: number, evictions: number, diskBusyMs: number,
 *   waitMs: number, minCacheBytes: number
 * }} MemoryModelStats
 */

export class MemoryModel {
  /** @param {MemoryModelOptions} o */
  constructor(o) {
    this.o = o;
    this.now = o.now ?? (() => performance.now());
    /** @type {Map<string, { size: number, readyAt: number }>} insertion order = LRU order */
    this.cache = new Map();
    this.cachedBytes = 0;
    this.open = 0;
    this.active = 0;
    this.diskFreeAt = 0;
    this.stats = this.#zero();
  }

  /** @returns {MemoryModelStats} */
  #zero() {
    return {
      hits: 0,
      misses: 0,
      hitBytes: 0,
      missBytes: 0,
      evictions: 0,
      diskBusyMs: 0,
      waitMs: 0,
      minCacheBytes: this.capacity(),
    };
  }

  /** Bytes left for the file cache after the connections took theirs. */
  capacity() {
    const idle = Math.max(0, this.open - this.active);
    return Math.max(0, this.o.memoryBytes - idle * this.o.idleConnBytes - this.active * this.o.activeConnBytes);
  }

  connectionOpened() {
    this.open++;
    this.#shrink();
  }
  connectionClosed() {
    this.open = Math.max(0, this.open - 1);
  }
  requestStarted() {
    this.active++;
    this.#shrink();
  }
  requestFinished() {
    this.active = Math.max(0, this.active - 1);
  }

  /**
   * A request for `key` (`size` bytes): how long it waits for the disk, in ms (0 on a hit).
   * @param {string} key @param {number} size
   */
  read(key, size) {
    const now = this.now();
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      const wait = Math.max(0, hit.readyAt - now);
      this.stats.hits++;
      this.stats.hitBytes += size;
      this.stats.waitMs += wait;
      return wait;
    }
    const service = this.o.seekMs + size / this.o.bytesPerMs;
    const start = Math.max(now, this.diskFreeAt);
    this.diskFreeAt = start + service;
    this.stats.misses++;
    this.stats.missBytes += size;
    this.stats.diskBusyMs += service;
    const wait = this.diskFreeAt - now;
    this.stats.waitMs += wait;
    if (size <= this.capacity()) {
      this.cache.set(key, { size, readyAt: this.diskFreeAt });
      this.cachedBytes += size;
      this.#shrink();
    }
    return wait;
  }

  /**
   * Fill the cache with `entries` in order while they fit (a steady-state start: the most popular files
   * first, as after a long run), then zero the counters.
   * @param {Iterable<[string, number]>} entries
   */
  warm(entries) {
    const cap = this.capacity();
    for (const [key, size] of entries) {
      if (this.cache.has(key) || this.cachedBytes + size > cap) continue;
      this.cache.set(key, { size, readyAt: 0 });
      this.cachedBytes += size;
    }
    this.resetStats();
  }

  /** Empty the cache and idle the disk (connections stay counted). */
  clear() {
    this.cache.clear();
    this.cachedBytes = 0;
    this.diskFreeAt = 0;
    this.resetStats();
  }

  resetStats() {
    this.stats = this.#zero();
  }

  /** Evict least recently used files until the cache fits its share of memory. */
  #shrink() {
    const cap = this.capacity();
    if (cap < this.stats.minCacheBytes) this.stats.minCacheBytes = cap;
    for (const [key, e] of this.cache) {
      if (this.cachedBytes <= cap) break;
      this.cache.delete(key);
      this.cachedBytes -= e.size;
      this.stats.evictions++;
    }
  }
}
