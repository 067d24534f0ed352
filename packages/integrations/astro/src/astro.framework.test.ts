/**
 * @objpack/astro inside a real Astro 5 build (installed from npm with the fixture's lockfile): its output
 * equals `objpack build` run by hand on the same Astro output, the worker controls the second page in
 * Chromium, and Astro's prefetch and an integration after objpack's are warned about.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { installFixture, integration, objpackBuild, run } from '../../test-utils/framework-fixture.js';
import { expectSameBuild, expectUnderBase } from '../../test-utils/same-build.js';
import { expectWorkerControlsSecondPage } from '../../test-utils/worker-check.js';

const SITE = fileURLToPath(new URL('../fixtures/astro-site', import.meta.url));
const astro = (args: string[], env: Record<string, string> = {}) =>
  run(path.join(SITE, 'node_modules/.bin/astro'), ['build', ...args], { cwd: SITE, env });
const out = (name: string) => path.join(SITE, name);

describe('@objpack/astro in an Astro 5 build', () => {
  beforeAll(async () => {
    await installFixture(SITE, { '@objpack/astro': integration('astro') });
    for (const d of ['dist-objpack', 'dist-plain', 'dist-sub-objpack', 'dist-sub-plain', 'dist-checks'])
      await rm(out(d), { recursive: true, force: true });
  });

  test('root base: `astro build` = `objpack build` by hand; the worker controls the next page', async () => {
    const built = await astro(['--outDir', 'dist-objpack']);
    expect(built.stdout + built.stderr).toMatch(
      /\[@objpack\/astro\] 3 pages, 3 packages \(0 shared\), 0 warnings → dist-objpack; report: \.objpack\/report\./,
    );
    await astro(['--outDir', 'dist-plain'], { OBJPACK: 'off' });
    expect(existsSync(out('dist-plain/_objpack'))).toBe(false);
    // Astro's `site` is the origin objpack gets from it; by hand it is given as a flag.
    await objpackBuild('dist-plain', ['--origin', 'https://fixture.example'], SITE);
    const manifest = await expectSameBuild(out('dist-objpack'), out('dist-plain'));
    expect(Object.keys(manifest.pages as object).sort()).toEqual(['/', '/about/', '/blog/first/']);
    await expectWorkerControlsSecondPage(out('dist-objpack'), '/', '/about/');
  });

  test("sub-path base: Astro's `base` reaches objpack, as `objpack build --base` by hand", async () => {
    await astro(['--base', '/sub/', '--outDir', 'dist-sub-objpack']);
    await astro(['--base', '/sub/', '--outDir', 'dist-sub-plain'], { OBJPACK: 'off' });
    await objpackBuild('dist-sub-plain', ['--base', '/sub/', '--origin', 'https://fixture.example'], SITE);
    const manifest = await expectSameBuild(out('dist-sub-objpack'), out('dist-sub-plain'));
    expect(expectUnderBase(manifest, '/sub/')).toEqual(['/sub/', '/sub/about/', '/sub/blog/first/']);
  });

  test("Astro's logger warns of Astro's prefetch and of an integration after objpack's", async () => {
    const built = await astro(['--outDir', 'dist-checks'], { CHECKS: '1' });
    const log = built.stdout + built.stderr;
    expect(log).toMatch(/\[@objpack\/astro\] Astro's prefetch is on/);
    expect(log).toMatch(/\[@objpack\/astro\] after-objpack runs after objpack at astro:build:done/);
  });
});
