/**
 * withObjpack in a real VitePress build (installed from npm with the fixture's lockfile): objpack runs in
 * buildEnd after the user's own hook, its output equals `objpack build` run by hand on the same VitePress
 * output, and the worker controls the second page in Chromium.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { installFixture, integration, objpackBuild, run } from '../../test-utils/framework-fixture.js';
import { expectSameBuild, expectUnderBase } from '../../test-utils/same-build.js';
import { expectWorkerControlsSecondPage } from '../../test-utils/worker-check.js';

const SITE = fileURLToPath(new URL('../fixtures/vitepress-site', import.meta.url));
const DOCS = path.join(SITE, 'docs');
const vitepress = (env: Record<string, string>, args: string[] = []) =>
  run(path.join(SITE, 'node_modules/.bin/vitepress'), ['build', 'docs', ...args], { cwd: SITE, env });
const out = (name: string) => path.join(DOCS, '.vitepress', name);

describe('withObjpack in a VitePress 1 build', () => {
  beforeAll(async () => {
    await installFixture(SITE, { '@objpack/vite': integration('vite') });
    for (const d of ['dist-objpack', 'dist-plain', 'dist-sub-objpack', 'dist-sub-plain'])
      await rm(out(d), { recursive: true, force: true });
  });

  test("root base: after the user's buildEnd, = `objpack build` by hand; the worker controls page 2", async () => {
    const built = await vitepress({ OUT_DIR: '.vitepress/dist-objpack' });
    const log = built.stdout + built.stderr;
    expect(log).toMatch(
      new RegExp(
        'user buildEnd ran\n(.*\n)?\\[objpack\\] 4 pages, \\d+ packages \\(\\d+ shared\\), 0 warnings → ' +
          '\\.vitepress/dist-objpack; report: \\.objpack/report\\.html',
      ),
    );
    await vitepress({ OUT_DIR: '.vitepress/dist-plain', OBJPACK: 'off' });
    expect(existsSync(out('dist-plain/_objpack'))).toBe(false);
    await objpackBuild(out('dist-plain'), [], DOCS);
    const manifest = await expectSameBuild(out('dist-objpack'), out('dist-plain'));
    expect(Object.keys(manifest.pages as object).sort()).toEqual(['/', '/404.html', '/about.html', '/guide.html']);
    await expectWorkerControlsSecondPage(out('dist-objpack'), '/', '/guide.html');
  });

  test("sub-path base: VitePress's `base` reaches objpack, as `objpack build --base` by hand", async () => {
    await vitepress({ OUT_DIR: '.vitepress/dist-sub-objpack' }, ['--base', '/sub/']);
    await vitepress({ OUT_DIR: '.vitepress/dist-sub-plain', OBJPACK: 'off' }, ['--base', '/sub/']);
    await objpackBuild(out('dist-sub-plain'), ['--base', '/sub/'], DOCS);
    const manifest = await expectSameBuild(out('dist-sub-objpack'), out('dist-sub-plain'));
    expect(expectUnderBase(manifest, '/sub/')).toEqual([
      '/sub/',
      '/sub/404.html',
      '/sub/about.html',
      '/sub/guide.html',
    ]);
  });
});
