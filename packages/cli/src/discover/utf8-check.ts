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
    const data = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const cut = incompleteTail(data);
    this.ok = isUtf8(data.subarray(0, cut));
    this.carry = cut < data.length ? data.slice(cut) : undefined;
  }

  /** The verdict; a sequence still open at the end is invalid. */
  end(): boolean {
    return this.ok && this.carry === undefined;
  }
}

/** Where a multi-byte sequence that the data ends inside begins (the data's length if none). */
function incompleteTail(data: Uint8Array): number {
  for (let i = data.length - 1; i >= Math.max(0, data.length - 3); i--) {
    const b = data[i]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return data.length - i < need ? i : data.length;
  }
  return data.length;
}
