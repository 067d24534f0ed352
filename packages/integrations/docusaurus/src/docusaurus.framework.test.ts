/**
 * @objpack/docusaurus inside a real Docusaurus build of two locales (installed from npm with the fixture's
 * lockfile): objpack runs once, after the last locale, over the whole output (one worker, one manifest);
 * its output equals `objpack build` run by hand on the same Docusaurus output; the worker controls the
 * second page in Chromium. `--no-minify` only shortens webpack's part: objpack reads what it writes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { installFixture, integration, linkPackage, objpackBuild, run } from '../../test-utils/framework-fixture.js';
import { expectSameBuild, expectUnderBase } from '../../test-utils/same-build.js';
import { expectWorkerControlsSecondPage } from '../../test-utils/worker-check.js';

const SITE = fileURLToPath(new URL('../fixtures/docusaurus-site', import.meta.url));
const docusaurus = (args: string[], env: Record<string, string> = {}) =>
  run(path.join(SITE, 'node_modules/.bin/docusaurus'), ['build', '--no-minify', ...args], { cwd: SITE, env });
const out = (name: string) => path.join(SITE, name);
const NOOP = fileURLToPath(new URL('../fixtures/noop-plugin', import.meta.url));
const version = (dir: string) =>
  (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;

/** The same Docusaurus build with '@objpack/docusaurus' resolved to a plugin that does nothing. */
async function withoutObjpack(args: string[], env: Record<string, string> = {}): Promise<void> {
  linkPackage(SITE, '@objpack/docusaurus', NOOP);
  try {
    await docusaurus(args, env);
  } finally {
    linkPackage(SITE, '@objpack/docusaurus', integration('docusaurus'));
  }
}

describe('@objpack/docusaurus in a Docusaurus 3 build of two locales', () => {
  beforeAll(async () => {
    await installFixture(SITE, { '@objpack/docusaurus': integration('docusaurus') });
    // Docusaurus bundles each plugin's package version: the stand-in must have objpack's.
    expect(version(NOOP)).toBe(version(integration('docusaurus')));
    for (const d of ['build-objpack', 'build-plain', 'build-sub-objpack', 'build-sub-plain'])
      await rm(out(d), { recursive: true, force: true });
  });

  test('root base: one run after the last locale, one worker and manifest, = by hand; worker on page 2', async () => {
    const built = await docusaurus(['--out-dir', 'build-objpack']);
    const runs = (built.stdout + built.stderr).match(/\[objpack\] \d+ pages.*/g) ?? [];
    expect(runs).toEqual([expect.stringMatching(/ → build-objpack; report: \.objpack\/report\.html$/)]);
    // One worker and one manifest, at the top, for every locale's pages.
    for (const f of ['objpack-manifest.json', 'objpack-sw.js', '_objpack/routes.json']) {
      expect(existsSync(out(`build-objpack/${f}`)), f).toBe(true);
      expect(existsSync(out(`build-objpack/fr/${f}`)), `fr/${f}`).toBe(false);
    }
    await withoutObjpack(['--out-dir', 'build-plain']);
    expect(existsSync(out('build-plain/_objpack'))).toBe(false);
    await objpackBuild('build-plain', ['--origin', 'https://fixture.example'], SITE);
    const manifest = await expectSameBuild(out('build-objpack'), out('build-plain'));
    const pages = Object.keys(manifest.pages as object);
    for (const p of ['/', '/about/', '/docs/intro/', '/fr/', '/fr/about/', '/fr/docs/intro/'])
      expect(pages).toContain(p);
    await expectWorkerControlsSecondPage(out('build-objpack'), '/', '/about/');
  });

  test("sub-path base: Docusaurus's baseUrl reaches objpack, as --base by hand (one locale, by --locale)", async () => {
    const built = await docusaurus(['--locale', 'en', '--out-dir', 'build-sub-objpack'], { BASE: '/sub/' });
    expect((built.stdout + built.stderr).match(/\[objpack\] \d+ pages/g)).toHaveLength(1);
    await withoutObjpack(['--locale', 'en', '--out-dir', 'build-sub-plain'], { BASE: '/sub/' });
    await objpackBuild('build-sub-plain', ['--base', '/sub/', '--origin', 'https://fixture.example'], SITE);
    const manifest = await expectSameBuild(out('build-sub-objpack'), out('build-sub-plain'));
    const pages = expectUnderBase(manifest, '/sub/');
    for (const p of ['/sub/', '/sub/about/', '/sub/docs/intro/']) expect(pages).toContain(p);
  });
});
