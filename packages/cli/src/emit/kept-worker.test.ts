import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build } from '../build.js';
import { WarningCode } from '../errors.js';
import { fakeWorkerAssets, makeSite, writeFiles } from '../test-utils/site.js';
import { REGISTER_PATH, REGISTER_TAG } from '../inject/inject.js';

const warningOf = (r: Awaited<ReturnType<typeof build>>) =>
  r.diagnostics.filter((d) => d.code === WarningCode.REGISTER_WITHOUT_SW);

describe('--no-sw over pages that load the registration script', () => {
  test(
    'in place, after an injected build: the worker files stay ' +
      'and one warning counts the pages (also from the cache)',
    async () => {
      const root = await makeSite({
        'index.html': '<!doctype html><title>a</title>',
        'b.html': '<!doctype html><title>b</title>',
        'c.html': '<!doctype html><title>c</title>',
      });
      await build({ root, workerAssets: await fakeWorkerAssets() });
      expect(await readFile(path.join(root, 'index.html'), 'utf8')).toContain(REGISTER_TAG);
      const worker = await readFile(path.join(root, 'objpack-sw.js'), 'utf8');
      for (const cache of [true, false]) {
        const r = await build({ root, serviceWorker: false, cache });
        const [w, ...more] = warningOf(r);
        expect(more).toEqual([]);
        expect(w?.message).toMatch(/^3 pages \(b\.html, …\) still load \/objpack-register\.js with --no-sw: .* kept/);
        expect(await readFile(path.join(root, 'objpack-sw.js'), 'utf8')).toBe(worker);
        expect(existsSync(path.join(root, REGISTER_PATH))).toBe(true);
      }
    },
  );

  test("--out from an injected site: the site's worker files go along, so no page loads a missing script", async () => {
    const root = await makeSite({ 'index.html': '<!doctype html><title>a</title>' });
    await build({ root, workerAssets: await fakeWorkerAssets() });
    const out = path.join(tmpdir(), `objpack-kept-${process.pid}`);
    await rm(out, { recursive: true, force: true });
    const r = await build({ root, out, serviceWorker: false });
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain(REGISTER_TAG);
    expect(await readFile(path.join(out, 'objpack-register.js'), 'utf8')).toBe(
      await readFile(path.join(root, 'objpack-register.js'), 'utf8'),
    );
    expect(existsSync(path.join(out, 'objpack-sw.js'))).toBe(true);
    expect(warningOf(r)).toHaveLength(1);
  });

  test('a tag with no script anywhere is named as a missing file; pages without the tag get no warning', async () => {
    const root = await makeSite({
      'index.html': `<!doctype html><title>a</title>${REGISTER_TAG}`,
      'b.html': '<!doctype html><title>b</title>',
    });
    const [w] = warningOf(await build({ root, serviceWorker: false }));
    expect(w?.message).toMatch(
      /^1 page \(index\.html\) still loads \/objpack-register\.js with --no-sw, and the site has no/,
    );
    await writeFiles(root, { 'index.html': '<!doctype html><title>a</title>' });
    expect(warningOf(await build({ root, serviceWorker: false }))).toEqual([]);
  });
});
