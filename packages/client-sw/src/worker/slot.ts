import type { ObjectEntry } from '@objpack/format';
import { concat } from './object-response.js';

interface Listener {
  data(bytes: Uint8Array): void;
  end(): void;
  fail(err: unknown): void;
}

/** One object of an in-flight package: its bytes so far, and a promise of the verified whole. */
export class Slot {
  readonly chunks: Uint8Array[] = [];
  state: 'waiting' | 'receiving' | 'done' | 'failed' = 'waiting';
  /** `performance.now()` when the last byte was verified (for the worker's per-object cost). */
  doneAt = 0;
  /** `performance.now()` when the last byte arrived (before verification). */
  receivedAt = 0;
  readonly done: Promise<Uint8Array>;
  readonly listeners = new Set<Listener>();
  private settle!: { resolve(b: Uint8Array): void; reject(e: unknown): void };

  /** Filled from a held copy in Cache Storage: the delta package left it out. */
  borrowed = false;
  /** The navigation's HTML: verified at once, on this thread, so the page gets its last bytes first. */
  urgent = false;

  constructor(public entry: ObjectEntry) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    // Nobody may ever ask for this object; its failure must not become an unhandled rejection.
    this.done.catch(() => {});
  }

  data(bytes: Uint8Array): void {
    this.state = 'receiving';
    this.chunks.push(bytes);
    this.each((l) => l.data(bytes));
  }

  /** All bytes are in: one buffer of them (verification comes next). */
  assemble(): Uint8Array {
    this.receivedAt = performance.now();
    return concat(this.chunks, this.entry.size);
  }

  /** The bytes were verified: the object is done. */
  end(bytes: Uint8Array): Uint8Array {
    this.state = 'done';
    this.doneAt = performance.now();
    this.settle.resolve(bytes);
    this.each((l) => l.end());
    return bytes;
  }

  fail(err: unknown): void {
    if (this.state === 'done' || this.state === 'failed') return;
    this.state = 'failed';
    this.settle.reject(err);
    this.each((l) => l.fail(err));
  }

  /**
   * The object's bytes as a stream that starts with what has already arrived and follows the package. The
   * last chunk is held back until the digest is verified, so a corrupt object never completes a response.
   * On failure the stream ends cleanly with whatever `onFail` returns (the caller decides how the page
   * recovers; `committed` says whether any byte already reached it).
   */
  stream(onFail: (err: unknown, committed: boolean) => Uint8Array | undefined): ReadableStream<Uint8Array> {
    let listener: Listener | undefined;
    // The reader may go away (tab closed, navigation cancelled): from then on nothing is enqueued, and the
    // package run that feeds this slot goes on for the other readers and Cache Storage.
    let open = true;
    const detach = () => {
      open = false;
      if (listener) this.listeners.delete(listener);
    };
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        let held: Uint8Array | undefined;
        let committed = false;
        const guarded = (f: () => void) => {
          if (!open) return;
          try {
            f();
          } catch {
            detach();
          }
        };
        const push = (b: Uint8Array) =>
          guarded(() => {
            if (held) {
              controller.enqueue(held);
              committed = true;
            }
            held = b;
          });
        const end = () =>
          guarded(() => {
            if (held) controller.enqueue(held);
            controller.close();
            detach();
          });
        const fail = (err: unknown) =>
          guarded(() => {
            const tail = onFail(err, committed);
            if (tail) controller.enqueue(tail);
            controller.close();
            detach();
          });
        for (const c of this.chunks) push(c);
        if (this.state === 'done') return end();
        if (this.state === 'failed') return fail(undefined);
        listener = { data: push, end, fail };
        this.listeners.add(listener);
      },
      cancel: detach,
    });
  }

  /** Calls every listener; one that throws (a reader gone wrong) never stops the others or the package run. */
  private each(call: (l: Listener) => void): void {
    for (const l of [...this.listeners]) {
      try {
        call(l);
      } catch {
        this.listeners.delete(l);
      }
    }
  }
}
