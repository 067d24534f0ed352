import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Decoder } from './decoder.js';
import { encodePackage } from './encoder.js';
import { nodeSha256 } from './node.js';

// Bounded memory: a multi-GB object goes through encodePackage → Decoder with flat RSS, the way
// tar-stream proves it with a 10 GiB entry. 512 MiB by default; OBJPACK_BIG=1 runs the full 3 GiB.
const MiB = 1024 * 1024;
const SIZE = process.env.OBJPACK_BIG === '1' ? 3 * 1024 * MiB : 512 * MiB;

describe(
  `bounded memory (${SIZE / MiB} MiB ` + `object${process.env.OBJPACK_BIG === '1' ? '' : '; OBJPACK_BIG=1 for 3 GiB'})`,
  () => {
    it('streams through encode and verified decode with flat RSS', { timeout: 120_000 }, async () => {
      // One reused 1 MiB chunk: the only big buffer this test owns.
      const chunk = new Uint8Array(MiB).map((_, i) => (i * 31 + (i >> 10)) & 0xff);
      const chunks = SIZE / MiB;
      const h = createHash('sha256');
      for (let i = 0; i < chunks; i++) h.update(chunk);
      const digest = new Uint8Array(h.digest());
      const page = new TextEncoder().encode('<!doctype html><video src=/big.bin>');

      const received = new Map<string, number>();
      const ended: string[] = [];
      const decoder = new Decoder(
        {
          onObjectData: (e, b) => received.set(e.name, (received.get(e.name) ?? 0) + b.length),
          onObjectEnd: (e) => ended.push(e.name),
        },
        { hash: nodeSha256 },
      );
      const source = function* () {
        for (let i = 0; i < chunks; i++) yield chunk;
      };
      const input = {
        buildId: 'memory-test',
        objects: [
          { name: '/index.html', contentType: 'text/html', body: page },
          { name: '/big.bin', contentType: 'application/octet-stream', body: source, size: SIZE, digest },
          { name: '/after.txt', contentType: 'text/plain', body: new Uint8Array([1, 2, 3]) },
        ],
      };

      let pushed = 0;
      let pushes = 0;
      let samples = 0;
      let baseline = 0;
      let peakRss = 0;
      let peakBuffers = 0;
      for await (const bytes of encodePackage(input, { hash: nodeSha256 })) {
        decoder.push(bytes);
        pushed += bytes.length;
        pushes++;
        if (pushed >= 64 * MiB && baseline === 0) baseline = process.memoryUsage.rss();
        if (baseline > 0 && pushes % 32 === 0) {
          samples++;
          peakRss = Math.max(peakRss, process.memoryUsage.rss() - baseline);
          peakBuffers = Math.max(peakBuffers, process.memoryUsage().arrayBuffers);
        }
      }
      decoder.end();
      console.info(
        `bounded memory: ${SIZE / MiB} MiB object, peak RSS growth ${(peakRss / MiB).toFixed(1)} MiB, peak ` +
          `arrayBuffers ${(peakBuffers / MiB).toFixed(1)} MiB`,
      );

      expect(ended).toEqual(['/index.html', '/big.bin', '/after.txt']);
      expect(received.get('/big.bin')).toBe(SIZE);
      expect(pushed).toBe(decoder.packageIndex!.headerBytes + decoder.packageIndex!.dataBytes);
      expect(samples).toBeGreaterThan(10);
      expect(peakBuffers).toBeGreaterThanOrEqual(MiB);
      expect(peakRss).toBeLessThan(100 * MiB);
      expect(peakBuffers).toBeLessThan(64 * MiB);
    });
  },
);
