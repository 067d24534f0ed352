import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build, type BuildOptions } from '../build.js';
import { fakeWorkerAssets, makeSite, SMALL_SITE } from '../test-utils/site.js';
import { listFiles } from '../test-utils/verify-output.js';

const project = () => mkdtemp(path.join(tmpdir(), 'objpack-project-'));
// One set of worker files: new ones would change the build's fingerprint, and no build would be patched.
const assets = fakeWorkerAssets();
const opts = async (root: string, extra: Partial<BuildOptions>): Promise<BuildOptions> => ({
  root,
  workerAssets: await assets,
  ...extra,
});

describe('the build report', () => {
  test('goes to .objpack/report.html in the project, not into the site it would be published with', async () => {
    const [root, dir] = [await makeSite(SMALL_SITE), await project()];
    const r = await build(await opts(root, { projectDir: dir }));
    const file = path.join(dir, '.objpack/report.html');
    expect(r.report).toBe(file);
    expect(await readFile(file, 'utf8')).toMatch(/<svg[^>]*>.*\/img\/missing\.png/s);
    // Not committed either.
    expect(await readFile(path.join(dir, '.objpack/.gitignore'), 'utf8')).toMatch(/^\*$/m);
    expect((await listFiles(root)).filter((f) => f.endsWith('.html')).sort()).toEqual([
      'about/index.html',
      'blog.html',
      'index.html',
    ]);
    expect(r.written.some((f) => f.includes('report'))).toBe(false);
    // With --out too: nothing of the report in either directory.
    const out = path.join(await project(), 'deploy');
    await build(await opts(root, { projectDir: dir, out }));
    expect((await listFiles(out)).filter((f) => f.includes('report'))).toEqual([]);
  });

  test('an incremental build writes it to the same place', async () => {
    const [root, dir] = [await makeSite(SMALL_SITE), await project()];
    await build(await opts(root, { projectDir: dir }));
    await writeFile(
      path.join(root, 'blog.html'),
      (await readFile(path.join(root, 'blog.html'), 'utf8')).replace('Blog', 'Blog, edited'),
    );
    const before = await readFile(path.join(dir, '.objpack/report.html'), 'utf8');
    const r = await build(await opts(root, { projectDir: dir }));
    expect(r.patched).toBe(true);
    expect(r.report).toBe(path.join(dir, '.objpack/report.html'));
    expect(await readFile(r.report!, 'utf8')).not.toBe(before);
    expect(existsSync(path.join(root, 'objpack-report.html'))).toBe(false);
  });

  test("an earlier build's report in the output is removed; a page of the user's by that name is not", async () => {
    const [root, dir] = [await makeSite(SMALL_SITE), await project()];
    // Where the report went before: in the output, published with the site.
    const inOutput = await build(
      await opts(root, { projectDir: dir, reportFile: path.join(root, 'objpack-report.html') }),
    );
    expect(inOutput.written).toContain('objpack-report.html');
    const r = await build(await opts(root, { projectDir: dir }));
    expect(r.removed).toContain('objpack-report.html');
    expect(existsSync(path.join(root, 'objpack-report.html'))).toBe(false);
    const own = '<!doctype html><title>My report</title>';
    await writeFile(path.join(root, 'objpack-report.html'), own);
    await build(await opts(root, { projectDir: dir, cache: false }));
    expect(await readFile(path.join(root, 'objpack-report.html'), 'utf8')).toBe(own);
  });

  test('a report asked for in the site is written there and is never one of its pages', async () => {
    const [root, dir] = [await makeSite(SMALL_SITE), await project()];
    const reportFile = 'site-report/build.html';
    const site = path.relative(dir, root);
    const r = await build(await opts(root, { projectDir: dir, reportFile: path.join(site, reportFile) }));
    expect(r.report).toBe(path.join(root, reportFile));
    expect(r.written).toContain(reportFile);
    const again = await build(
      await opts(root, { projectDir: dir, reportFile: path.join(site, reportFile), cache: false }),
    );
    expect(Object.keys(again.manifest.pages).sort()).toEqual(['/', '/about/', '/blog.html']);
  });

  test('report: false writes none', async () => {
    const [root, dir] = [await makeSite(SMALL_SITE), await project()];
    const r = await build(await opts(root, { projectDir: dir, report: false }));
    expect(r.report).toBeUndefined();
    expect(existsSync(path.join(dir, '.objpack'))).toBe(false);
  });
});
