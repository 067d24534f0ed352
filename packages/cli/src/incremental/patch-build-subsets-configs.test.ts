/**
 * Incremental builds that must not take the fast path: text that brings a new font subset, and host configs
 * the crawl leaves out. Small sites of their own (the 200-page one is in patch-build.test.ts).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build, type BuildResult } from '../build.js';
import type { WorkerAssets } from '../emit/sw-assets.js';
import { fakeWorkerAssets } from '../test-utils/site.js';

const dir = mkdtempSync(path.join(tmpdir(), 'objpack-patch-inputs-'));
let assets: WorkerAssets;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  assets = await fakeWorkerAssets();
});

const run = (root: string, cache = true): Promise<BuildResult> =>
  build({ root, cache, workerAssets: assets, concurrency: 1, reportFile: path.join(root, 'objpack-report.html') });

describe('incremental builds and font subsets', () => {
  const FONT_SITE = new URL('../../../../fixtures/closure/font-subsets/site/', import.meta.url);
  const closureOf = (r: BuildResult, file: string) =>
    r.plan.pages.find((p) => p.file === file)?.closure.map((o) => o.url);

  test('text that brings a new script is not patched: the page gets that unicode-range subset', async () => {
    const site = path.join(dir, 'fonts');
    cpSync(FONT_SITE, site, { recursive: true });
    // A page without the site's fonts: its characters choose nothing.
    writeFileSync(
      path.join(site, 'plain.html'),
      '<!doctype html>\n<html>\n<body>\n<p>No stylesheet</p>\n</body>\n</html>\n',
    );
    const first = await run(site, false);
    expect(closureOf(first, 'index.html')).toEqual([
      '/',
      '/css/site.css',
      '/fonts/latin.woff2',
      '/fonts/heading.woff2',
    ]);
    // ASCII text changes no subset: patched as before; nor does any text on a page without such fonts.
    insertAfterBody(site, 'index.html', '<p>more English</p>\n');
    expect((await run(site)).patched).toBe(true);
    insertAfterBody(site, 'plain.html', '<p>café — ok</p>\n');
    expect((await run(site)).patched).toBe(true);
    insertAfterBody(site, 'index.html', '<p>Ещё</p>\n');
    const r = await run(site);
    expect(r.patched).toBe(false);
    expect(closureOf(r, 'index.html')).toEqual([
      '/',
      '/css/site.css',
      '/fonts/latin.woff2',
      '/fonts/cyrillic.woff2',
      '/fonts/heading.woff2',
    ]);
    // ru.html's closure came from the cache in that build: it still knows its fonts follow its text.
    insertAfterBody(site, 'ru.html', '<p>Ω</p>\n');
    const again = await run(site);
    expect(again.patched).toBe(false);
    expect(closureOf(again, 'ru.html')).toEqual([
      '/ru.html',
      '/css/site.css',
      '/fonts/latin.woff2',
      '/fonts/cyrillic.woff2',
      '/fonts/greek.woff2',
      '/fonts/heading.woff2',
    ]);
    const fresh = path.join(dir, 'fonts-fresh');
    cpSync(site, fresh, { recursive: true });
    const full = await run(fresh, false);
    for (const page of ['index.html', 'ru.html', 'plain.html'])
      expect(closureOf(full, page)).toEqual(closureOf(again, page));
  });

  function insertAfterBody(root: string, rel: string, text: string) {
    writeFileSync(
      path.join(root, rel),
      readFileSync(path.join(root, rel), 'utf8').replace('<body>\n', `<body>\n${text}`),
    );
  }
});

describe('host configs the crawl leaves out', () => {
  test(
    "an edit to a site's netlify.toml or _redirects is seen even when --exclude keeps it out of the crawl: the " +
      'pipeline runs, no page keeps old headers',
    async () => {
      const site = path.join(dir, 'excluded-config');
      const page = (text: string) =>
        `<!doctype html><html><head><title>x</title></head><body><p>${text}</p></body></html>\n`;
      const toml = (value: string) =>
        `[[headers]]\n  for = "/*"\n  [headers.values]\n    X-Frame-Options = "${value}"\n`;
      mkdirSync(site, { recursive: true });
      writeFileSync(path.join(site, 'index.html'), page('home'));
      writeFileSync(path.join(site, 'a.html'), page('a'));
      writeFileSync(path.join(site, 'netlify.toml'), toml('DENY'));
      writeFileSync(path.join(site, '_redirects'), '/old /a.html 301\n');
      const options = { root: site, workerAssets: assets, concurrency: 1, exclude: ['netlify.toml', '_redirects'] };
      const headersOf = (r: BuildResult) => r.manifest.objects['/a.html']?.headers;
      expect(headersOf(await build(options))).toEqual([['x-frame-options', 'DENY']]);
      writeFileSync(path.join(site, 'netlify.toml'), toml('SAMEORIGIN'));
      writeFileSync(path.join(site, 'a.html'), page('a, edited'));
      const r = await build(options);
      expect([r.patched, headersOf(r)]).toEqual([false, [['x-frame-options', 'SAMEORIGIN']]]);
      // The redirects travel in the manifest too.
      writeFileSync(path.join(site, '_redirects'), '/older /a.html 301\n');
      writeFileSync(path.join(site, 'a.html'), page('a, edited again'));
      const again = await build(options);
      expect([again.patched, JSON.stringify(again.manifest.hostRoutes).includes('older')]).toEqual([false, true]);
    },
  );
});
