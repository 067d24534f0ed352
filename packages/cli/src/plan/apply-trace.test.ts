import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { build } from '../build.js';
import { WarningCode } from '../errors.js';
import { fakeWorkerAssets, makeSite } from '../test-utils/site.js';

const chromium = process.env.OBJPACK_CHROMIUM ?? '/usr/bin/chromium';
const have = existsSync(chromium);
if (!have) console.warn(`SKIPPED build --trace test: no Chromium at ${chromium} (run node scripts/system-tools.mjs)`);

describe.skipIf(!have)('build --trace', () => {
  test('adds what the browser requested but static analysis missed, with a warning naming the page', async () => {
    const root = await makeSite({
      'index.html':
        '<!doctype html><html><head><title>t</title></head><body><script>const n = "da" + "ta"; fetch("/" + ' +
        'n + ".json");</script></body></html>',
      'data.json': '{"ok":true}',
    });
    const r = await build({ root, trace: true, workerAssets: await fakeWorkerAssets() });
    expect(r.manifest.pages['/']!.closure).toContain('/data.json');
    expect(r.diagnostics).toContainEqual(
      expect.objectContaining({ code: WarningCode.TRACE_MISSED, ref: '/data.json', file: 'index.html' }),
    );
  }, 60_000);

  test(
    'a second build over its own output reports nothing about ' +
      "objpack's own files (the registration script it injected)",
    async () => {
      const root = await makeSite({
        'index.html': '<!doctype html><html><head><title>t</title></head><body><p>x</p></body></html>',
      });
      const workerAssets = await fakeWorkerAssets();
      await build({ root, workerAssets });
      const again = await build({ root, trace: true, workerAssets });
      expect(again.diagnostics.filter((d) => d.code === WarningCode.TRACE_MISSED)).toEqual([]);
      expect(again.manifest.pages['/']!.closure).toEqual(['/']);
    },
    60_000,
  );
});
