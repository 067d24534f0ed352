/**
 * Trace-driven model of the thesis' hit-ratio test: a byte-bounded LRU that caches files on demand (as
 * Apache's mod_cache does), replaying page requests serially, with and without loading a page's embedded
 * objects into the cache when its HTML is requested. Reported next to the server's measured counters,
 * and labelled as a simulation.
 */

/**
 * @param {{ sessions: { pages: string[] }[], byUrl: Map<string, { url: string, size: number, closure: string[] }>,
 *   objects: { url: string, size: number }[], cacheBytes: number }} o
 */
export function simulateHitRatio({ sessions, byUrl, objects, cacheBytes }) {
  const size = new Map(objects.map((x) => [x.url, x.size]));
  for (const p of byUrl.values()) size.set(p.url, p.size);
  const once = (/** @type {boolean} */ prefetch) => {
    /** @type {Map<string, number>} */
    const lru = new Map();
    let bytes = 0,
      hits = 0,
      requests = 0,
      hitBytes = 0,
      reqBytes = 0;
    const put = (/** @type {string} */ u) => {
      const s = size.get(u) ?? 0;
      if (s > cacheBytes) return;
      if (lru.has(u)) {
        lru.delete(u);
        lru.set(u, s);
        return;
      }
      lru.set(u, s);
      bytes += s;
      for (const [k, v] of lru) {
        if (bytes <= cacheBytes) break;
        lru.delete(k);
        bytes -= v;
      }
    };
    const get = (/** @type {string} */ u) => {
      const s = size.get(u) ?? 0;
      requests++;
      reqBytes += s;
      if (lru.has(u)) {
        hits++;
        hitBytes += s;
      }
      put(u);
    };
    for (const s of sessions)
      for (const url of s.pages) {
        const p = byUrl.get(url);
        if (!p) continue;
        get(p.url);
        if (prefetch) for (const u of p.closure) put(u);
        for (const u of p.closure) get(u);
      }
    return { requests, hits, hitRatio: hits / requests, byteHitRatio: hitBytes / reqBytes };
  };
  return { without: once(false), with: once(true) };
}
