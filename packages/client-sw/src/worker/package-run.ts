import { Decoder, digestEquals, digestToSri, FormatError, type ObjectEntry, type PackageIndex } from '@objpack/format';
import { errorCode } from '../errors.js';
import type { ResolvedOptions } from '../options.js';
import { fetchPackage } from './fetch-package.js';
import { htmlEntry } from './html-entry.js';
import { concat, objectResponse } from './object-response.js';
import type { HeldRecord, Store } from './store.js';

const SLICE = 16 * 1024;

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
  readonly done: Promise<Uint8Array>;
  readonly listeners = new Set<Listener>();
  private settle!: { resolve(b: Uint8Array): void; reject(e: unknown): void };

  constructor(readonly entry: ObjectEntry) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    // Nobody may ever ask for this object; its failure must not become an unhandled rejection.
    this.done.catch(() => {});
  }

  data(bytes: Uint8Array): void {
    this.state = 'receiving';
    this.chunks.push(bytes);
    for (const l of this.listeners) l.data(bytes);
  }

  /** All bytes are in: one buffer of them (verification comes next). */
  assemble(): Uint8Array {
    return concat(this.chunks, this.entry.size);
  }

  /** The bytes were verified: the object is done. */
  end(bytes: Uint8Array): Uint8Array {
    this.state = 'done';
    this.doneAt = performance.now();
    this.settle.resolve(bytes);
    for (const l of this.listeners) l.end();
    return bytes;
  }

  fail(err: unknown): void {
    if (this.state === 'done' || this.state === 'failed') return;
    this.state = 'failed';
    this.settle.reject(err);
    for (const l of this.listeners) l.fail(err);
  }

  /**
   * The object's bytes as a stream that starts with what has already arrived and follows the package. The
   * last chunk is held back until the digest is verified, so a corrupt object never completes a response.
   * On failure the stream ends cleanly with whatever `onFail` returns (the caller decides how the page
   * recovers; `committed` says whether any byte already reached it).
   */
  stream(onFail: (err: unknown, committed: boolean) => Uint8Array | undefined): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        let held: Uint8Array | undefined;
        let committed = false;
        const push = (b: Uint8Array) => {
          if (held) {
            controller.enqueue(held);
            committed = true;
          }
          held = b;
        };
        const end = () => {
          if (held) controller.enqueue(held);
          controller.close();
        };
        const fail = (err: unknown) => {
          const tail = onFail(err, committed);
          if (tail) controller.enqueue(tail);
          controller.close();
        };
        for (const c of this.chunks) push(c);
        if (this.state === 'done') return end();
        if (this.state === 'failed') return fail(undefined);
        const l: Listener = {
          data: push,
          end: () => {
            this.listeners.delete(l);
            end();
          },
          fail: (err) => {
            this.listeners.delete(l);
            fail(err);
          },
        };
        this.listeners.add(l);
      },
    });
  }
}

/**
 * SHA-256 with Web Crypto: native, off the decoding loop. The format's incremental TypeScript hash would
 * run synchronously inside push() and hold the navigation's HTML behind the hashing of a whole chunk.
 */
async function verify(bytes: Uint8Array, digest: Uint8Array): Promise<boolean> {
  const got = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return digestEquals(got, digest);
}

export interface RunSpec {
  path: string;
  kind: 'page' | 'shared';
  origin: string;
  options: ResolvedOptions;
  store: Store;
  /** Cache that receives this package's objects, chosen once the index names the build. */
  cacheFor(index: PackageIndex): string;
}

/**
 * One package being fetched and unpacked progressively (paper 000 §3.3): the index creates a slot per
 * object before any body byte arrives, so a request for any object can wait on exactly that object.
 * Each verified object is written to Cache Storage; the package's record is written last.
 */
export class PackageRun {
  readonly index: Promise<PackageIndex>;
  /** true once every object is verified and stored; false on any failure. Never rejects. */
  readonly finished: Promise<boolean>;
  readonly slots = new Map<string, Slot>();
  private readonly ctrl = new AbortController();
  private resolveIndex!: (i: PackageIndex) => void;
  private rejectIndex!: (e: unknown) => void;
  cacheName = '';
  buildId = '';
  /** The index has arrived: `slots` names every object of the package. */
  indexed = false;

  constructor(readonly spec: RunSpec) {
    this.index = new Promise((res, rej) => ((this.resolveIndex = res), (this.rejectIndex = rej)));
    this.index.catch(() => {});
    this.finished = this.run().then(
      (stored) => stored,
      (err) => {
        this.failAll(err);
        spec.options.onEvent({ type: 'fallback', url: spec.path, code: errorCode(err) });
        return false;
      },
    );
  }

  get path(): string {
    return this.spec.path;
  }

  abort(): void {
    this.ctrl.abort();
  }

  private failAll(err: unknown): void {
    this.rejectIndex(err);
    for (const s of this.slots.values()) s.fail(err);
  }

  private async run(): Promise<boolean> {
    const { spec } = this;
    const { response } = await fetchPackage(spec.path, spec.origin, spec.options, this.ctrl.signal, { revalidate: spec.kind === 'page' });
    spec.options.onEvent({ type: 'package-start', url: spec.path });
    let cache: Cache | undefined;
    let puts: Promise<void> = Promise.resolve();
    let storeOk = true;
    const record: HeldRecord = { buildId: '', sharedRefs: [], objects: [] };
    const store = (entry: ObjectEntry, bytes: Uint8Array) => {
      if (entry.partial) return; // a prefix is not the object: only whole objects go into Cache Storage
      const res = objectResponse(entry, bytes, this.buildId);
      const key = spec.store.key(entry.name);
      puts = puts.then(async () => {
        if (!storeOk) return;
        try {
          cache ??= await caches.open(this.cacheName);
          await cache.put(key, res);
          record.objects.push({ name: entry.name, digest: digestToSri(entry.digest) });
          spec.options.onEvent({ type: 'object-cached', url: entry.name });
        } catch (err) {
          // Quota or a broken cache: keep serving from memory, never mark the package as held.
          storeOk = false;
          spec.options.onEvent({ type: 'cache-error', url: entry.name, code: errorCode(err) });
        }
      });
    };
    let fresh = false;
    let corrupt = false;
    const checks: Array<Promise<void>> = [];
    const decoder = new Decoder({
      onIndex: (index) => {
        fresh = true;
        spec.options.onEvent({ type: 'package-index', url: spec.path, detail: String(index.entries.length) });
        for (const e of index.entries) this.slots.set(e.name, new Slot(e));
        this.buildId = index.buildId;
        this.cacheName = spec.cacheFor(index);
        record.buildId = index.buildId;
        record.sharedRefs = [...index.sharedRefs];
        this.indexed = true;
        this.resolveIndex(index);
      },
      onObjectData: (entry, bytes) => this.slots.get(entry.name)!.data(bytes.slice()),
      onObjectEnd: (entry) => {
        const slot = this.slots.get(entry.name)!;
        const bytes = slot.assemble();
        checks.push(
          verify(bytes, entry.digest).then((ok) => {
            if (ok) return store(entry, slot.end(bytes));
            corrupt = true;
            const err = new FormatError('OBJP_DIGEST_MISMATCH', entry.name, entry.name);
            slot.fail(err);
            spec.options.onEvent({ type: 'fallback', url: entry.name, code: err.code });
          }),
        );
      },
    }, { verify: false });
    const reader = response.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        // In slices, yielding once the index is in: the navigation answers with the HTML before the rest
        // of a large first chunk is cut into objects.
        for (let at = 0; at < value.length; at += SLICE) {
          decoder.push(at === 0 && value.length <= SLICE ? value : value.subarray(at, at + SLICE));
          if (fresh) {
            fresh = false;
            await new Promise((r) => setTimeout(r, 0));
          }
        }
      }
      decoder.end();
    } catch (err) {
      reader.cancel().catch(() => {});
      throw err;
    }
    await Promise.all(checks);
    await puts;
    spec.options.onEvent({ type: 'package-end', url: spec.path });
    if (!storeOk || corrupt) return false;
    if (spec.kind === 'page') record.html = htmlEntry(await this.index)?.name;
    return spec.store.markHeld(this.cacheName, spec.path, record).then(() => true, () => false);
  }
}
