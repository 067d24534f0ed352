/**
 * The bytes of every object, in real Chromium: fetch's own network chunks, the HTML streamed to the page
 * from views into them, objects served and written to Cache Storage from the same views (no copy). The
 * Node test next to it (package-run.test.ts) cuts the stream at every boundary; this one checks that the
 * browser itself never reuses or detaches a chunk under the views.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, installWorker, serveSite } from '../test-utils/browser.js';
import { useChromiumSuite } from '../test-utils/chromium-suite.js';
import { testSite } from '../test-utils/site.js';

const bytesOf = (n: number, seed: number) => Buffer.from(new Uint8Array(n).map((_, i) => (i * seed + (i >> 9)) & 0xff));

describe.skipIf(!CHROMIUM)('service worker in Chromium: object bytes', () => {
  const suite = useChromiumSuite();

  it("every object served to the page and stored in Cache Storage is byte for byte the site's file", async () => {
    // Small objects that share a network chunk with the HTML, and large ones that span several chunks.
    const extra = {
      '/a.bin': bytesOf(3, 5),
      '/b.bin': bytesOf(100, 7),
      '/big.bin': bytesOf(300_000, 11),
      '/mid.bin': bytesOf(70_000, 13),
    };
    const spec = testSite(suite.b.register, 1, {
      files: Object.fromEntries(
        Object.entries(extra).map(([k, body]) => [k, { type: 'application/octet-stream', body }]),
      ),
      pages: { '/': { objects: ['/img/home.svg', '/a.bin', '/b.bin', '/big.bin', '/mid.bin'], shared: ['common'] } },
    });
    const site = serveSite(suite.server, suite.b, spec);
    const expected = Object.fromEntries(
      [...spec.pages['/']!.objects, ...spec.shared.common!].map((name) => [
        name,
        createHash('sha256').update(site.files.get(name)!.body).digest('base64'),
      ]),
    );
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/`);
    const digests = (where: 'served' | 'cached') =>
      page.evaluate(
        async ({ names, where }) => {
          const sha = async (b: ArrayBuffer) =>
            btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', b))));
          const out: Record<string, string> = {};
          for (const name of names) {
            const res = where === 'served' ? await fetch(name) : await caches.match(name);
            out[name] = res
              ? `${await sha(await res.arrayBuffer())} ${res.headers.get('x-objpack-digest')}`
              : 'missing';
          }
          return out;
        },
        { names: Object.keys(expected), where },
      );
    const want = Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, `${v} sha256-${v}`]));
    // While the package is still held in memory, then from Cache Storage once written (not waiting for the
    // page's own script: with a wrong byte it may never finish).
    expect(await digests('served')).toEqual(want);
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const ch = new MessageChannel();
          ch.port1.onmessage = resolve;
          navigator.serviceWorker.controller!.postMessage('test:settled', [ch.port2]);
        }),
    );
    // The snippet, a shared script the first (uncontrolled) load put in the HTTP cache, is stored as that copy,
    // the same bytes without objpack's headers: Chromium keeps a code cache only beside a network response
    // (code-cache.ts). Objects that are no script keep the package's copy.
    const register = '/sw-register.js';
    expect(Object.keys(want)).toContain(register);
    const wantCached = { ...want, [register]: `${expected[register]} null` };
    expect(await digests('cached')).toEqual(wantCached);
    // This page's worker still serves what it unpacked.
    expect(await digests('served')).toEqual(want);
    expect(suite.server.take().sort()).toEqual([site.pagePackage['/']!, site.sharedPackage.common!].sort());
  });
});
