/**
 * A list of pushed chunks read from the front, after tar-stream's BufferList: `take(n)` returns a
 * zero-copy view when the bytes sit in one chunk, copies only when they straddle chunks, and returns null
 * while fewer than `n` bytes have arrived (so nothing is ever allocated for bytes not yet received).
 */
export class ByteQueue {
  private chunks: Uint8Array[] = [];
  private head = 0; // read position inside chunks[0]
  length = 0;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** Exactly `n` bytes from the front, or null if fewer have arrived. */
  take(n: number): Uint8Array | null {
    if (n > this.length) return null;
    const first = this.chunks[0];
    if (first && first.length - this.head >= n) return this.advance(first, n);
    const out = new Uint8Array(n);
    let o = 0;
    while (o < n) {
      const part = this.takeSome(n - o)!;
      out.set(part, o);
      o += part.length;
    }
    return out;
  }

  /** Up to `max` bytes from the front as one zero-copy view, or null when empty. */
  takeSome(max: number): Uint8Array | null {
    const first = this.chunks[0];
    if (!first || max <= 0) return null;
    return this.advance(first, Math.min(max, first.length - this.head));
  }

  private advance(first: Uint8Array, n: number): Uint8Array {
    const view = first.subarray(this.head, this.head + n);
    this.head += n;
    this.length -= n;
    if (this.head === first.length) {
      this.chunks.shift();
      this.head = 0;
    }
    return view;
  }
}
