import { isUtf8 } from 'node:buffer';

/**
 * Whether a byte stream is valid UTF-8, chunk by chunk (`buffer.isUtf8` takes whole buffers only): a
 * sequence cut by a chunk boundary is carried over to the next chunk, so the answer is the same as for
 * the whole file at any split.
 */
export class Utf8Check {
  private carry: Uint8Array | undefined;
  private ok = true;

  push(chunk: Uint8Array): void {
    if (!this.ok) return;
    let rest = chunk;
    if (this.carry) {
      // Complete the cut sequence with the chunk's first bytes and check it alone (no copy of the chunk).
      const want = sequenceLength(this.carry[0]!) - this.carry.length;
      const joined = Buffer.concat([this.carry, chunk.subarray(0, want)]);
      if (joined.length < sequenceLength(this.carry[0]!)) {
        this.carry = joined;
        return;
      }
      this.carry = undefined;
      this.ok = isUtf8(joined);
      if (!this.ok) return;
      rest = chunk.subarray(want);
    }
    const cut = incompleteTail(rest);
    this.ok = isUtf8(rest.subarray(0, cut));
    // A copy: a view would keep the whole (1 MB) chunk alive.
    this.carry = cut < rest.length ? Uint8Array.from(rest.subarray(cut)) : undefined;
  }

  /** The verdict; a sequence still open at the end is invalid. */
  end(): boolean {
    return this.ok && this.carry === undefined;
  }
}

/** Bytes of the sequence a lead byte starts (invalid leads included: isUtf8 refuses them later). */
function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/** Where a multi-byte sequence that the data ends inside begins (the data's length if none). */
function incompleteTail(data: Uint8Array): number {
  for (let i = data.length - 1; i >= Math.max(0, data.length - 3); i--) {
    const b = data[i]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    return data.length - i < sequenceLength(b) ? i : data.length;
  }
  return data.length;
}
