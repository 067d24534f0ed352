/**
 * @objpack/eleventy inside a real Eleventy 3 build (installed from npm with the fixture's lockfile): its
 * output equals `objpack build` run by hand on the same Eleventy output, the worker controls the second
 * page in Chromium, `--watch` builds are left alone, and objpack's errors fail the build with their code.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { installFixture, integration, objpackBuild, run } from '../../test-utils/framework-fixture.js';
import { expectSameBuild, expectUnderBase } from '../../test-utils/same-build.js';
import { expectWorkerControlsSecondPage } from '../../test-utils/worker-check.js';

const SITE = fileURLToPath(new URL('../fixtures/eleventy-site', import.meta.url));
const BIN = path.join(SITE, 'node_modules/.bin/eleventy');
const eleventy = (args: string[], env: Record<string, string> = {}) => run(BIN, args, { cwd: SITE, env });
const out = (name: string) => path.join(SITE, name);

describe('@objpack/eleventy in an Eleventy 3 build', () => {
  beforeAll(async () => {
    await installFixture(SITE, { '@objpack/eleventy': integration('eleventy') });
    for (const d of [
      '_site-objpack',
      '_site-plain',
      '_site-sub-objpack',
      '_site-sub-plain',
      '_site-watch',
      '_site-bad',
    ])
      await rm(out(d), { recursive: true, force: true });
  });

  test('root base: `eleventy` with the plugin = `objpack build` by hand; the worker controls page 2', async () => {
    const built = await eleventy(['--output=_site-objpack']);
    expect(built.stdout + built.stderr).toMatch(
      /\[objpack\] 3 pages, 3 packages \(0 shared\), 0 warnings → _site-objpack; report: \.objpack\/report\.html/,
    );
    await eleventy(['--output=_site-plain'], { OBJPACK: 'off' });
    expect(existsSync(out('_site-plain/_objpack'))).toBe(false);
    await objpackBuild('_site-plain', [], SITE);
    const manifest = await expectSameBuild(out('_site-objpack'), out('_site-plain'));
    expect(Object.keys(manifest.pages as object).sort()).toEqual(['/', '/about/', '/posts/first/']);
    await expectWorkerControlsSecondPage(out('_site-objpack'), '/', '/about/');
  });

  test("sub-path base: Eleventy's pathPrefix reaches objpack, as `objpack build --base` by hand", async () => {
    await eleventy(['--output=_site-sub-objpack', '--pathprefix=/sub/']);
    await eleventy(['--output=_site-sub-plain', '--pathprefix=/sub/'], { OBJPACK: 'off' });
    await objpackBuild('_site-sub-plain', ['--base', '/sub/'], SITE);
    const manifest = await expectSameBuild(out('_site-sub-objpack'), out('_site-sub-plain'));
    expect(expectUnderBase(manifest, '/sub/')).toEqual(['/sub/', '/sub/about/', '/sub/posts/first/']);
  });

  test('a --watch build is left alone: the site is still changing', async () => {
    const child = spawn(BIN, ['--watch', '--output=_site-watch'], {
      cwd: SITE,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let log = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no first build within 60 s:\n${log}`)), 60_000);
        const seen = (chunk: Buffer) => {
          log += chunk.toString();
          if (/Watching/.test(log)) resolve(clearTimeout(timer));
        };
        child.stdout.on('data', seen);
        child.stderr.on('data', seen);
      });
    } finally {
      child.kill();
    }
    expect(log).toMatch(/Wrote 3 files/);
    expect(log).not.toContain('[objpack]');
    expect(existsSync(out('_site-watch/_objpack'))).toBe(false);
  });

  test("objpack's errors fail `eleventy` with their code", async () => {
    const failed = eleventy(['--output=_site-bad'], {
      OBJPACK_OPTIONS: JSON.stringify({ exclude: 'drafts/', outDir: 'x' }),
    });
    await expect(failed).rejects.toMatchObject({
      stderr: expect.stringContaining('OBJPACK_E_CONFIG: @objpack/eleventy options: unknown option(s) outDir'),
    });
  });
});
