import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildManifest } from '@objpack/format';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveBase } from './base-option.js';
import { build } from './build.js';
import { loadConfig } from './config.js';
import { ErrorCode } from './errors.js';
import { fakeWorkerAssets, makeSite, SMALL_SITE } from './test-utils/site.js';

const BIN = fileURLToPath(new URL('../bin/objpack.js', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../dist/cli/main.js', import.meta.url)));
const temps: string[] = [];
afterEach(async () => {
  for (const d of temps.splice(0)) await rm(d, { recursive: true, force: true });
});
const site = async (files = SMALL_SITE) => {
  const root = await makeSite(files);
  temps.push(root);
  return root;
};

describe('resolveBase', () => {
  it('takes --base, else the path of --origin, spelt one way', () => {
    expect(resolveBase({})).toBeUndefined();
    expect(resolveBase({ origin: 'https://example.com' })).toBeUndefined();
    expect(resolveBase({ origin: 'https://user.github.io/repo' })).toBe('/repo/');
    expect(resolveBase({ base: '/repo' })).toBe('/repo/');
    expect(resolveBase({ base: '/' })).toBe('/');
    expect(resolveBase({ base: '/a/b/', origin: 'https://example.com' })).toBe('/a/b/');
    expect(resolveBase({ base: '/my docs/', origin: 'https://example.com/my%20docs/' })).toBe('/my%20docs/');
    expect(resolveBase({ base: '/caf%c3%a9', origin: 'https://example.com/café/' })).toBe('/caf%C3%A9/');
  });

  it('refuses a base that is no path, or one that disagrees with --origin (OBJPACK_E_BAD_BASE)', () => {
    for (const base of ['repo/', 'https://user.github.io/repo/', '/repo/?v=1', '/repo/#x', '/a/../b/', '/a%2Fb/']) {
      expect(() => resolveBase({ base }), base).toThrow(
        expect.objectContaining({ code: ErrorCode.BAD_BASE, exitCode: 2 }),
      );
    }
    expect(() => resolveBase({ base: '/docs/', origin: 'https://user.github.io/repo/' })).toThrow(
      expect.objectContaining({ code: ErrorCode.BAD_BASE }),
    );
    expect(() => resolveBase({ base: '/', origin: 'https://user.github.io/repo/' })).toThrow(
      expect.objectContaining({ code: ErrorCode.BAD_BASE }),
    );
  });
});

describe('build with a base', () => {
  it('puts the pages and their objects under the base and records it in the manifest', async () => {
    const root = await site({
      'index.html':
        '<link rel="stylesheet" href="/repo/css/site.css"><img src="img/logo.png"><a href="/repo/about/">About</a>',
      'about/index.html': '<link rel="stylesheet" href="/repo/css/site.css">',
      'css/site.css': 'body{background:url(../img/logo.png)}',
      'img/logo.png': new Uint8Array(100).fill(1),
    });
    const r = await build({ root, base: '/repo', workerAssets: await fakeWorkerAssets(), report: false });
    const manifest = JSON.parse(readFileSync(path.join(root, 'objpack-manifest.json'), 'utf8')) as BuildManifest;
    expect(manifest.base).toBe('/repo/');
    expect(Object.keys(manifest.pages).sort()).toEqual(['/repo/', '/repo/about/']);
    expect(manifest.pages['/repo/']!.closure).toEqual(['/repo/', '/repo/css/site.css', '/repo/img/logo.png']);
    expect(r.diagnostics.filter((d) => d.code === 'OBJPACK_W_MISSING_REF')).toEqual([]);
  });

  it('a manifest of a build at the root records no base', async () => {
    const root = await site();
    await build({ root, workerAssets: await fakeWorkerAssets(), report: false });
    expect(JSON.parse(readFileSync(path.join(root, 'objpack-manifest.json'), 'utf8'))).not.toHaveProperty('base');
  });

  it('a bad base writes nothing', async () => {
    const root = await site();
    const before = readdirSync(root, { recursive: true }).sort();
    await expect(build({ root, base: 'repo/', workerAssets: await fakeWorkerAssets() })).rejects.toMatchObject({
      code: ErrorCode.BAD_BASE,
    });
    await expect(
      build({ root, base: '/docs/', origin: 'https://x.github.io/repo/', workerAssets: await fakeWorkerAssets() }),
    ).rejects.toMatchObject({ code: ErrorCode.BAD_BASE });
    expect(readdirSync(root, { recursive: true }).sort()).toEqual(before);
  });

  it('reads `base` from the config file', async () => {
    const dir = await site({ 'objpack.config.json': JSON.stringify({ base: '/repo/' }) });
    expect((await loadConfig(dir)).config.base).toBe('/repo/');
    await writeFile(path.join(dir, 'objpack.config.json'), JSON.stringify({ bsae: '/repo/' }));
    await expect(loadConfig(dir)).rejects.toMatchObject({ code: ErrorCode.CONFIG });
  });

  it.skipIf(!built)(
    'objpack build --base: a bad one exits 2 with its code and writes nothing; --json says so too',
    async () => {
      const root = await site();
      const before = readdirSync(root, { recursive: true }).sort();
      const run = (...args: string[]) =>
        spawnSync(process.execPath, [BIN, 'build', root, '--no-sw', ...args], {
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1' },
        });
      const bad = run('--base', 'repo/');
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/OBJPACK_E_BAD_BASE: --base "repo\/" is not a URL path: it does not start with \//);
      const both = run('--base', '/docs/', '--origin', 'https://user.github.io/repo/', '--json');
      expect(both.status).toBe(2);
      expect(JSON.parse(both.stdout)).toMatchObject({ ok: false, exitCode: 2, error: { code: ErrorCode.BAD_BASE } });
      expect(readdirSync(root, { recursive: true }).sort()).toEqual(before);
      const good = run('--base', '/repo', '--json');
      expect(good.status).toBe(0);
      expect(JSON.parse(readFileSync(path.join(root, 'objpack-manifest.json'), 'utf8'))).toMatchObject({
        base: '/repo/',
      });
    },
  );
});
