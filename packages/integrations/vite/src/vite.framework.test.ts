/**
 * @objpack/vite inside a real Vite build (installed from npm with the fixture's lockfile): the plugin's
 * output equals `objpack build` run by hand on the same Vite output, and the worker it wrote controls the
 * second page in Chromium.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { installFixture, integration, objpackBuild, run } from '../../test-utils/framework-fixture.js';
import { expectSameBuild, expectUnderBase } from '../../test-utils/same-build.js';
import { expectWorkerControlsSecondPage } from '../../test-utils/worker-check.js';

const APP = fileURLToPath(new URL('../fixtures/vite-app', import.meta.url));
const vite = (args: string[], env: Record<string, string> = {}) =>
  run(path.join(APP, 'node_modules/.bin/vite'), args, { cwd: APP, env });
const out = (name: string) => path.join(APP, name);

describe('@objpack/vite in a Vite 7 build', () => {
  beforeAll(async () => {
    await installFixture(APP, { '@objpack/vite': integration('vite') });
    for (const d of ['dist-objpack', 'dist-plain', 'dist-sub-objpack', 'dist-sub-plain', 'dist-ssr', 'dist-bad'])
      await rm(out(d), { recursive: true, force: true });
  });

  test('root base: `vite build` with the plugin = `objpack build` by hand; the worker controls page 2', async () => {
    const built = await vite(['build', '--outDir', 'dist-objpack']);
    expect(built.stdout + built.stderr).toMatch(
      /\[objpack\] 3 pages, 3 packages \(0 shared\), 0 warnings → dist-objpack; report: \.objpack\/report\.html/,
    );
    await vite(['build', '--outDir', 'dist-plain'], { OBJPACK: 'off' });
    expect(existsSync(out('dist-plain/_objpack'))).toBe(false);
    await objpackBuild('dist-plain', [], APP);
    const manifest = await expectSameBuild(out('dist-objpack'), out('dist-plain'));
    expect(Object.keys(manifest.pages as object).sort()).toEqual(['/', '/about.html', '/contact/']);
    await expectWorkerControlsSecondPage(out('dist-objpack'), '/', '/about.html');
  });

  test("sub-path base: Vite's `base` reaches objpack, as `objpack build --base` by hand", async () => {
    await vite(['build', '--base', '/sub/', '--outDir', 'dist-sub-objpack']);
    await vite(['build', '--base', '/sub/', '--outDir', 'dist-sub-plain'], { OBJPACK: 'off' });
    await objpackBuild('dist-sub-plain', ['--base', '/sub/'], APP);
    const manifest = await expectSameBuild(out('dist-sub-objpack'), out('dist-sub-plain'));
    expect(expectUnderBase(manifest, '/sub/')).toEqual(['/sub/', '/sub/about.html', '/sub/contact/']);
  });

  test('an SSR build is no site: the plugin leaves it alone', async () => {
    const built = await vite(['build', '--ssr', 'src/shared.js', '--outDir', 'dist-ssr']);
    expect(built.stdout + built.stderr).not.toContain('[objpack]');
    expect(existsSync(out('dist-ssr/_objpack'))).toBe(false);
  });

  test("objpack's errors fail `vite build` with their code", async () => {
    const failed = vite(['build', '--outDir', 'dist-bad'], {
      OBJPACK_OPTIONS: JSON.stringify({ targets: ['heroku'] }),
    });
    await expect(failed).rejects.toMatchObject({
      stderr: expect.stringContaining('OBJPACK_E_CONFIG: @objpack/vite options: targets must be a list of'),
    });
    expect(existsSync(out('dist-bad/_objpack'))).toBe(false);
  });
});
