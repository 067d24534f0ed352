import { describe, expect, test } from 'vitest';
import { build } from '../build.js';
import { DEEP, fakeWorkerAssets, makeSite } from '../test-utils/site.js';

describe('build summary', () => {
  test("a page's first-load bytes are its page package and the shared packages it names, as written", async () => {
    const root = await makeSite(DEEP);
    const { manifest, summary } = await build({ root, workerAssets: await fakeWorkerAssets() });
    for (const p of summary.perPage) {
      const entry = manifest.pages[p.url]!;
      const bytes = [entry.package, ...entry.shared].reduce((s, u) => s + manifest.packages[u]!.bytes, 0);
      expect(manifest.packages[entry.package]!.bytes).toBeGreaterThan(0);
      expect(p.firstLoadBytes, p.url).toBe(bytes);
    }
  });
});
