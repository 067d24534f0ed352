/**
 * A list of pushed chunks read from the front, after tar-stream's BufferList: `take(n)` returns a
 * zero-copy view when the bytes sit in one chunk, copies only when they straddle chunks, and returns null
 * while fewer than `n` bytes have arrived (so nothing is ever allocated for bytes not yet received).
 */
export class ByteQueue {
  private chunks: Uint8Array[] = [];
  // Index of the front chunk in `chunks`. Consumed chunks are dropped in batches, not with shift(): an
  // index that arrived in 1-byte pushes would otherwise cost O(n²) to take.
  private first = 0;
  private head = 0; // read position inside chunks[first]
  length = 0;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** Exactly `n` bytes from the front, or null if fewer have arrived. */
  take(n: number): Uint8Array | null {
    if (n > this.length) return null;
    const front = this.chunks[this.first];
    if (front && front.length - this.head >= n) return this.advance(front, n);
    const out = new Uint8Array(n);
    let o = 0;
    while (o < n) {
      const part = this.takeSome(n - o)!;
      out.set(part, o);
      o += part.length;
    }
    return out;
  }

  /** The byte `i` places from the front (undefined if fewer have arrived); walks chunks, so keep `i` small. */
  peek(i: number): number | undefined {
    if (i >= this.length) return undefined;
    let at = this.head + i;
    for (let c = this.first; ; c++) {
      const chunk = this.chunks[c]!;
      if (at < chunk.length) return chunk[at];
      at -= chunk.length;
    }
  }

  /** Up to `max` bytes from the front as one zero-copy view, or null when empty. */
  takeSome(max: number): Uint8Array | null {
    const front = this.chunks[this.first];
    if (!front || max <= 0) return null;
    return this.advance(front, Math.min(max, front.length - this.head));
  }

  private advance(front: Uint8Array, n: number): Uint8Array {
    const view = front.subarray(this.head, this.head + n);
    this.head += n;
    this.length -= n;
    if (this.head === front.length) {
      this.head = 0;
      this.first++;
      if (this.first === this.chunks.length) {
        this.chunks = [];
        this.first = 0;
      } else if (this.first >= 1024 && this.first * 2 >= this.chunks.length) {
        this.chunks = this.chunks.slice(this.first);
        this.first = 0;
      }
    }
    return view;
  }
}
