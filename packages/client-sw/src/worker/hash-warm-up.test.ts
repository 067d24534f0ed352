/**
 * The TypeScript SHA-256 warm-up a page package's fetch starts (object-digest.ts warmHash): it runs once per
 * worker, for a page package, in a later task while the package is on its way, and it changes no result:
 * digests are still checked and a mismatching object is refused and goes to the network.
 */
import type { EncoderInput } from '@objpack/format';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ObjpackEvent } from '../options.js';
import {
  chunksAt,
  encoded,
  fakeWorkerGlobals,
  type FakeCaches,
  networkBody,
  runSpec,
} from '../test-utils/fake-package.js';
import type { Binding } from './binding.js';
import type * as Format from '@objpack/format';

const order = vi.hoisted((): string[] => []);
vi.mock('@objpack/format', async (importOriginal) => {
  const real = await importOriginal<typeof Format>();
  const sha256 = (b: Uint8Array) => (order.push(isWarmUp([b]) ? 'warm-up' : 'hash'), real.sha256(b));
  return { ...real, sha256: vi.fn(sha256) };
});

const enc = new TextEncoder();
const input: EncoderInput = {
  buildId: 'b1',
  sharedRefs: [],
  objects: [
    {
      name: '/',
      contentType: 'text/html; charset=utf-8',
      body: enc.encode('<!doctype html><title>t</title><link rel=stylesheet href=/a.css>'),
    },
    { name: '/a.css', contentType: 'text/css', body: enc.encode('p{color:red}') },
  ],
};
const { pkg: good, index } = encoded(input);
/** The package with one body byte of `name` flipped: its index (and CRC) still promise the original. */
const flipped = (name: string) => {
  // The data field ends with the HTML's last byte, then the stylesheet.
  const bad = good.slice();
  bad[bad.length - 1 - (name === '/a.css' ? 0 : (input.objects[1]!.body as Uint8Array).length)]! ^= 1;
  return bad;
};

function isWarmUp(args: unknown[]): boolean {
  const b = args[0] as Uint8Array;
  return b.length === 8192 && b.every((x) => x === 0);
}

/** Fresh modules for each test: the warm-up is once per worker (module state). */
async function load() {
  vi.resetModules();
  const format = await import('@objpack/format');
  const { PackageRun } = await import('./package-run.js');
  // subresource.ts is typed for the WebWorker lib, which the tests' DOM lib lacks: loaded by a name tsc does not
  // follow.
  const at = './subresource.js';
  const { subresource } = (await import(/* @vite-ignore */ at)) as {
    subresource: (w: unknown, event: unknown) => Promise<Response>;
  };
  vi.mocked(format.sha256).mockClear();
  return { sha256: vi.mocked(format.sha256), PackageRun, subresource };
}

/** Bodies the fake network answers with, after `delayMs`. */
let answer: { pkg: Uint8Array; delayMs: number };
let caches: FakeCaches;
beforeEach(() => {
  order.length = 0;
  answer = { pkg: good, delayMs: 30 };
  ({ caches } = fakeWorkerGlobals(async () => {
    order.push('fetch');
    await new Promise((r) => setTimeout(r, answer.delayMs));
    order.push('response');
    // The index first: a stream opened once it is in follows the body's bytes.
    return networkBody(chunksAt(answer.pkg, [index.headerBytes])).body;
  }));
});
afterEach(() => vi.unstubAllGlobals());

describe('hash warm-up', () => {
  it('runs once, for the first page package, in a task of its own while the package is on its way', async () => {
    const { sha256, PackageRun } = await load();
    const first = new PackageRun(runSpec('page', []));
    expect(sha256).not.toHaveBeenCalled();
    expect(await first.finished).toBe(true);
    // Then the HTML's own hash.
    expect(order).toEqual(['fetch', 'warm-up', 'response', 'hash']);
    const second = new PackageRun(runSpec('page', []));
    await second.finished;
    expect(sha256.mock.calls.filter(isWarmUp)).toHaveLength(1);
  });

  it('does not run for shared packages', async () => {
    const { sha256, PackageRun } = await load();
    expect(await new PackageRun(runSpec('shared', [])).finished).toBe(true);
    expect(await new PackageRun(runSpec('shared', [])).finished).toBe(true);
    // Shared packages have no HTML to hash on this thread: no TypeScript SHA-256 at all.
    expect(sha256).not.toHaveBeenCalled();
    expect(await new PackageRun(runSpec('page', [])).finished).toBe(true);
    expect(sha256.mock.calls.filter(isWarmUp)).toHaveLength(1);
  });

  for (const delayMs of [30, 0]) {
    const when = delayMs ? 'before the package arrives' : 'as the package arrives';
    it(`with the warm-up ${when}, the HTML is still hashed and a matching page is served`, async () => {
      const { sha256, PackageRun } = await load();
      answer = { pkg: good, delayMs };
      const run = new PackageRun(runSpec('page', []));
      expect(await run.finished).toBe(true);
      expect(sha256.mock.calls.filter(isWarmUp)).toHaveLength(1);
      expect(
        sha256.mock.calls.filter((c) => Buffer.from(c[0]).equals(Buffer.from(input.objects[0]!.body as Uint8Array))),
      ).toHaveLength(1);
      expect(Buffer.from(await run.slots.get('/')!.done).toString()).toBe(
        Buffer.from(input.objects[0]!.body as Uint8Array).toString(),
      );
    });

    for (const name of ['/', '/a.css']) {
      it(
        `with the warm-up ${when}, ${name} that does not match its digest is refused, stored nowhere, and the ` +
          `network answers`,
        async () => {
          const { sha256, PackageRun, subresource } = await load();
          answer = { pkg: flipped(name), delayMs };
          const events: ObjpackEvent[] = [];
          const run = new PackageRun(runSpec('page', events));
          await run.index;
          const slot = run.slots.get(name)!;
          // The navigation's stream: its last chunk waits for the digest, so the page gets only the fallback.
          let failed: unknown;
          const streamed = new Response(slot.stream((err) => ((failed = err), enc.encode('refresh')))).text();
          expect(await run.finished).toBe(false);
          expect(sha256.mock.calls.filter(isWarmUp)).toHaveLength(1);
          await expect(slot.done).rejects.toMatchObject({ code: 'OBJP_DIGEST_MISMATCH' });
          expect(await streamed).toBe('refresh');
          expect(failed).toMatchObject({ code: 'OBJP_DIGEST_MISMATCH' });
          expect(events).toContainEqual(
            expect.objectContaining({ type: 'fallback', url: name, code: 'OBJP_DIGEST_MISMATCH' }),
          );
          expect(caches.get('objpack-v1-build-b1', name)).toBeUndefined();

          // A request of the page for it goes to the network.
          const binding: Binding = {
            buildId: 'b1',
            packages: [{ path: run.path, cacheName: 'objpack-v1-build-b1', run }],
            createdAt: Date.now(),
          };
          const network = vi.fn(async () => new Response('from the network'));
          const w = { bindings: new Map([['c1', binding]]), options: run.spec.options, network };
          const event = { request: new Request(`https://site.example${name}`), clientId: 'c1' };
          expect(await (await subresource(w, event)).text()).toBe('from the network');
          expect(network).toHaveBeenCalledTimes(1);
        },
      );
    }
  }
});
