/** A least-recently-used map bounded by the total byte length of its values (Map keeps insertion order). */
export class ByteLru<V extends { byteLength: number }> {
  readonly #map = new Map<string, V>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }

  has(key: string): boolean {
    return this.#map.has(key);
  }

  /** Stores `value` unless it alone exceeds the budget; evicts the least recently used to make room. */
  set(key: string, value: V): boolean {
    if (value.byteLength > this.maxBytes) return false;
    this.delete(key);
    this.#map.set(key, value);
    this.#bytes += value.byteLength;
    for (const [k, v] of this.#map) {
      if (this.#bytes <= this.maxBytes) break;
      this.#map.delete(k);
      this.#bytes -= v.byteLength;
    }
    return true;
  }

  delete(key: string): void {
    const v = this.#map.get(key);
    if (v === undefined) return;
    this.#map.delete(key);
    this.#bytes -= v.byteLength;
  }

  clear(): void {
    this.#map.clear();
    this.#bytes = 0;
  }
}
