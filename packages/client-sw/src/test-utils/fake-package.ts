// A package run in Node: fetch and Cache Storage faked, the network's chunks under the test's control.
import { Decoder, encodePackageSync, type EncoderInput, type PackageIndex } from '@objpack/format';
import { vi } from 'vitest';
import { resolveOptions, type ObjpackEvent } from '../options.js';
import type { RunSpec } from '../worker/run-spec.js';
import { Store } from '../worker/store.js';

export const ORIGIN = 'https://site.example';
export const PAGE_PACKAGE = '/_objpack/pages/index.html.objp';
export const SHARED_PACKAGE = '/_objpack/shared/0123456789abcdef.objp';

/** What a `cache.put` received, read at the moment of the put. */
export interface PutRecord {
  bytes: Uint8Array;
  headers: Record<string, string>;
}

/** Cache Storage as the worker uses it: every put is read at once, so a later change to its source shows. */
export class FakeCaches {
  readonly stores = new Map<string, Map<string, PutRecord>>();
  open = async (name: string) => {
    const store = this.stores.get(name) ?? this.stores.set(name, new Map()).get(name)!;
    return {
      put: async (key: string, res: Response) => {
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k] = v));
        store.set(key, { bytes: new Uint8Array(await res.arrayBuffer()), headers });
      },
    };
  };
  match = async (key: string, { cacheName }: { cacheName: string }) => {
    const hit = this.stores.get(cacheName)?.get(key);
    return hit && new Response(hit.bytes as Uint8Array<ArrayBuffer>, { headers: hit.headers });
  };
  /** The put for `path` in `cacheName`, if any. */
  get(cacheName: string, path: string): PutRecord | undefined {
    return this.stores.get(cacheName)?.get(new URL(path, ORIGIN).href);
  }
}

/**
 * Network chunks: each in a buffer of its own, as fetch hands them over, at an odd offset between junk
 * bytes, so code that reads a chunk's `.buffer` instead of its view sees the junk.
 */
export function chunksAt(pkg: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const ends = [...new Set(cuts.filter((c) => c > 0 && c < pkg.length))].sort((a, b) => a - b);
  ends.push(pkg.length);
  let at = 0;
  return ends.map((end) => {
    const buf = new Uint8Array(end - at + 6).fill(0xee);
    buf.set(pkg.subarray(at, end), 3);
    at = end;
    return buf.subarray(3, buf.length - 3);
  });
}

/** Cuts every `size` bytes. */
export const evenCuts = (length: number, size: number): number[] =>
  Array.from({ length: Math.ceil(length / size) }, (_, i) => i * size);

/** A pull-driven body: one chunk per read, and `delivered` once the last one was taken. */
export function networkBody(chunks: readonly Uint8Array[]): {
  body: ReadableStream<Uint8Array>;
  delivered: Promise<void>;
} {
  let i = 0;
  let done!: () => void;
  const delivered = new Promise<void>((r) => (done = r));
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (i < chunks.length) c.enqueue(chunks[i++]!);
      if (i === chunks.length) {
        c.close();
        done();
      }
    },
  });
  return { body, delivered };
}

/** A gate the test opens: Cache Storage writes wait for it (the worker's "quiet" wait). */
export function writeGate(): { quiet: () => Promise<void>; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  return { quiet: () => gate, open };
}

/** A run's spec with a fresh Store, events collected in `events`. */
export function runSpec(kind: 'page' | 'shared', events: ObjpackEvent[], extra: Partial<RunSpec> = {}): RunSpec {
  return {
    path: kind === 'page' ? PAGE_PACKAGE : SHARED_PACKAGE,
    kind,
    origin: ORIGIN,
    options: resolveOptions({ packageStallMs: 0, onEvent: (e) => events.push(e) }, ORIGIN),
    store: new Store('objpack-v1', ORIGIN),
    cacheFor: (index: PackageIndex) => `objpack-v1-build-${index.buildId}`,
    ...extra,
  };
}

/** Replaces `caches` and `fetch`; `answer` gives each package request its body. */
export function fakeWorkerGlobals(
  answer: (url: string) => ReadableStream<Uint8Array> | Promise<ReadableStream<Uint8Array>>,
): { caches: FakeCaches; fetched: string[] } {
  const cs = new FakeCaches();
  const fetched: string[] = [];
  vi.stubGlobal('caches', cs);
  vi.stubGlobal('fetch', async (url: string) => {
    fetched.push(new URL(url).pathname);
    return new Response(await answer(url), { status: 200 });
  });
  return { caches: cs, fetched };
}

/** The package's bytes and where each object's body starts and ends in them. */
export function encoded(input: EncoderInput): { pkg: Uint8Array; index: PackageIndex; boundaries: number[] } {
  const pkg = encodePackageSync(input);
  let index: PackageIndex | undefined;
  const d = new Decoder({ onIndex: (i) => (index = i) });
  d.push(pkg);
  d.end();
  const boundaries = index!.entries.flatMap((e) => [
    index!.headerBytes + e.offset,
    index!.headerBytes + e.offset + e.size,
  ]);
  return { pkg, index: index!, boundaries };
}

/** Offsets around each of `points` (±`radius`), inside the package. */
export function around(points: readonly number[], radius: number, length: number): number[] {
  const out = new Set<number>();
  for (const p of points) for (let d = -radius; d <= radius; d++) if (p + d >= 0 && p + d <= length) out.add(p + d);
  return [...out].sort((a, b) => a - b);
}
