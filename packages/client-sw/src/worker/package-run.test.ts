/**
 * A package run's bytes, in Node with fetch and Cache Storage faked: what the page is served and what lands
 * in Cache Storage equal the package's objects at every chunk boundary. Object bytes are views into the
 * network's chunks (no copy) and the Cache Storage Response is made only when the write happens, so both
 * are checked after every later chunk arrived and with the writes held back until the transfer is over.
 */
import { digestToSri, type EncoderInput, type ObjectEntry } from '@objpack/format';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ObjpackEvent } from '../options.js';
import {
  around,
  chunksAt,
  encoded,
  evenCuts,
  fakeWorkerGlobals,
  networkBody,
  runSpec,
  writeGate,
} from '../test-utils/fake-package.js';
import { objectResponse } from './object-response.js';
import { PackageRun } from './package-run.js';
import type * as ObjectResponse from './object-response.js';

vi.mock('./object-response.js', async (importOriginal) => {
  const real = await importOriginal<typeof ObjectResponse>();
  return { ...real, objectResponse: vi.fn(real.objectResponse) };
});

afterEach(() => vi.unstubAllGlobals());

const enc = new TextEncoder();
const bytesOf = (n: number, seed: number) => new Uint8Array(n).map((_, i) => (i * seed + (i >> 8)) & 0xff);

/**
 * HTML first, several tiny objects that share a chunk, an empty one, one larger than the run's 16 KiB slices, a partial
 * one.
 */
const input: EncoderInput = {
  buildId: 'b1',
  sharedRefs: [],
  objects: [
    {
      name: '/',
      contentType: 'text/html; charset=utf-8',
      headers: [['content-security-policy', "default-src 'self'"]],
      body: enc.encode(`<!doctype html><title>t</title>${'<p>x</p>'.repeat(20)}`),
    },
    {
      name: '/a.css',
      contentType: 'text/css; charset=utf-8',
      headers: [['x-objpack-test', 'yes']],
      body: enc.encode('p{color:red}'),
    },
    { name: '/t1.txt', contentType: 'text/plain', body: enc.encode('one') },
    { name: '/empty.txt', contentType: 'text/plain', body: new Uint8Array(0) },
    { name: '/t2.txt', contentType: 'text/plain', body: enc.encode('two!') },
    { name: '/t3.bin', contentType: 'application/octet-stream', body: bytesOf(5, 3) },
    { name: '/big.bin', contentType: 'application/octet-stream', body: bytesOf(40_000, 7) },
    { name: '/video.mp4', contentType: 'video/mp4', totalSize: 100_000, body: bytesOf(300, 11) },
    { name: '/data.json', contentType: 'application/json', body: enc.encode('{"msg":"last"}') },
  ],
};
const { pkg, index, boundaries } = encoded(input);
const body = (name: string) => input.objects.find((o) => o.name === name)!.body as Uint8Array;
const whole = index.entries.filter((e) => !e.partial);

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const readAll = async (s: ReadableStream<Uint8Array>) => {
  const parts: Uint8Array[] = [];
  for (const r = s.getReader(); ;) {
    const { done, value } = await r.read();
    if (done) return concat(parts);
    parts.push(value.slice());
  }
};
const headersOf = (e: ObjectEntry) => ({
  ...Object.fromEntries(e.headers),
  'content-type': e.contentType,
  'content-length': String(e.totalSize),
  'x-objpack-digest': digestToSri(e.digest),
  'x-objpack-build': 'b1',
});

/**
 * Runs the page package delivered in `chunks` with Cache Storage writes held until every chunk has been
 * read and every object served; returns what would fail the page, or [] when every byte is right.
 */
async function runSplit(chunks: Uint8Array[]): Promise<string[]> {
  const wrong: string[] = [];
  vi.mocked(objectResponse).mockClear();
  const net = networkBody(chunks);
  const { caches } = fakeWorkerGlobals(() => net.body);
  const gate = writeGate();
  const events: ObjpackEvent[] = [];
  const run = new PackageRun(runSpec('page', events, { quiet: gate.quiet }));
  if (
    !(await run.index.then(
      () => true,
      () => false,
    ))
  )
    return [`no index: ${JSON.stringify(events)}`];
  // What the page is served: the verified bytes (subresources, at request time) and the stream (the HTML).
  const done = whole.map((e) => run.slots.get(e.name)!.done);
  const early = index.entries.map((e) => readAll(run.slots.get(e.name)!.stream(() => undefined)));
  const atCompletion = await Promise.all(done.map((p) => p.then((b) => b.slice())));
  await net.delivered;
  // Long after: the whole package is in, later chunks have arrived, nothing has been written yet.
  await new Promise((r) => setTimeout(r, 0));
  if (vi.mocked(objectResponse).mock.calls.length > 0) wrong.push('a Cache Storage Response was made before the write');
  const late = index.entries.map((e) => readAll(run.slots.get(e.name)!.stream(() => undefined)));
  gate.open();
  if (!(await run.finished))
    wrong.push(
      `run failed: ${JSON.stringify(events.filter((e) => e.type === 'fallback' || e.type === 'cache-error'))}`,
    );
  const servedNow = await Promise.all(done);
  const [earlyStreams, lateStreams] = [await Promise.all(early), await Promise.all(late)];
  const same = (a: Uint8Array | undefined, b: Uint8Array) => a !== undefined && Buffer.from(a).equals(Buffer.from(b));
  whole.forEach((e, i) => {
    if (!same(atCompletion[i], body(e.name))) wrong.push(`${e.name}: served bytes differ when it completed`);
    if (!same(servedNow[i], body(e.name))) wrong.push(`${e.name}: served bytes changed after it completed`);
    const put = caches.get('objpack-v1-build-b1', e.name);
    if (!same(put?.bytes, body(e.name))) wrong.push(`${e.name}: Cache Storage bytes differ`);
    else if (JSON.stringify(put!.headers) !== JSON.stringify(Object.fromEntries(Object.entries(headersOf(e)).sort())))
      wrong.push(`${e.name}: headers ${JSON.stringify(put!.headers)}`);
  });
  index.entries.forEach((e, i) => {
    if (!same(earlyStreams[i], body(e.name))) wrong.push(`${e.name}: stream opened before its bytes differs`);
    if (!same(lateStreams[i], body(e.name))) wrong.push(`${e.name}: stream opened after its bytes differs`);
  });
  if (caches.get('objpack-v1-build-b1', '/video.mp4')) wrong.push('a partial entry went into Cache Storage');
  if (!caches.get('objpack-v1-build-b1', '/_objpack/pages/index.html.objp')) wrong.push('no record');
  return wrong;
}

describe('PackageRun bytes', () => {
  it('the sample package has what the splits below need', () => {
    // Several objects inside one 16 KiB slice, one spanning slices, empty and partial entries.
    expect(index.entries.map((e) => e.size)).toEqual(input.objects.map((o) => (o.body as Uint8Array).length));
    expect(index.entries.find((e) => e.name === '/big.bin')!.size).toBeGreaterThan(16 * 1024);
    expect(pkg.subarray(boundaries[12]!, boundaries[13]!)).toEqual(body('/big.bin'));
  });

  it(
    'keeps an object that arrived in one chunk as a view ' + 'into that chunk (so the checks below cover views)',
    async () => {
      const chunks = chunksAt(pkg, [index.headerBytes]);
      const net = networkBody(chunks);
      fakeWorkerGlobals(() => net.body);
      const run = new PackageRun(runSpec('page', [], { quiet: writeGate().quiet }));
      await run.index;
      const css = await run.slots.get('/a.css')!.done;
      expect(css.buffer).toBe(chunks[1]!.buffer);
      run.abort();
    },
  );

  it(
    'serves and stores every object byte for byte, cut once at every offset through the index and small ' +
      'objects and around every body boundary',
    async () => {
      const bigStart = index.headerBytes + index.entries.find((e) => e.name === '/big.bin')!.offset;
      const cuts = new Set([
        ...Array.from({ length: bigStart + 4 }, (_, i) => i),
        ...around([...boundaries, 16 * 1024, 32 * 1024, pkg.length], 3, pkg.length),
      ]);
      for (const cut of cuts) expect(await runSplit(chunksAt(pkg, [cut])), `cut at ${cut}`).toEqual([]);
    },
  );

  it('serves and stores every object byte for byte in chunks of 1 byte to the whole package', async () => {
    for (const size of [1, 2, 3, 5, 64, 1000, 4096, 16 * 1024, 16 * 1024 + 1, 40_000, pkg.length]) {
      expect(await runSplit(chunksAt(pkg, evenCuts(pkg.length, size))), `${size}-byte chunks`).toEqual([]);
    }
  });

  it('serves and stores every object byte for byte with two cuts around each pair of boundaries', async () => {
    // An object that starts in one chunk, fills the next and ends in a third; a chunk holding several objects.
    const points = around(boundaries, 1, pkg.length);
    for (const a of points) {
      for (const b of points)
        if (b > a) expect(await runSplit(chunksAt(pkg, [a, b])), `cuts at ${a}, ${b}`).toEqual([]);
    }
  });
});
