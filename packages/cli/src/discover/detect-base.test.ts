import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../build.js';
import { fakeWorkerAssets, makeSite } from '../test-utils/site.js';
import { detectBase } from './detect-base.js';
import { DiscoverCodes } from './diagnostic-codes.js';
import { discoverSite } from './discover-site.js';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/closure/', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/objpack.js', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url)));
const temps: string[] = [];
afterEach(async () => {
  for (const d of temps.splice(0)) await rm(d, { recursive: true, force: true });
});
const detect = async (files: Record<string, string>) => {
  const root = await makeSite(files);
  temps.push(root);
  return detectBase(await discoverSite(root, { concurrency: 1 }));
};
const page = (refs: string) => `<!doctype html><title>x</title>${refs}`;

describe('detectBase', () => {
  it("finds /repo/ in the real generators' output built for it, nothing in the same sites built for /", async () => {
    for (const g of ['vitepress', 'astro', 'docusaurus', 'hugo']) {
      expect(detectBase(await discoverSite(`${FIXTURES}gen-${g}-base/site`, { concurrency: 1 })), g).toBe('/repo/');
      expect(detectBase(await discoverSite(`${FIXTURES}gen-${g}/site`, { concurrency: 1 })), g).toBeUndefined();
    }
  });

  it('takes the shortest prefix the references resolve under, spelt as a base option', async () => {
    const site = (b: string) => ({
      'index.html': page(`<link rel="stylesheet" href="${b}a.css"><a href="${b}guide/">g</a>`),
      'guide/index.html': page(`<img src="${b}img/x.png"><a href="${b}">home</a>`),
      'a.css': '',
      'img/x.png': 'x',
    });
    expect(await detect(site('/repo/'))).toBe('/repo/');
    expect(await detect(site('/a/b/'))).toBe('/a/b/');
    expect(await detect(site('/caf%C3%A9/'))).toBe('/caf%C3%A9/');
  });

  it('says nothing unless every page agrees and the prefix is no directory of the site', async () => {
    const ok = { 'a.css': '', 'index.html': page('<link rel="stylesheet" href="/repo/a.css">') };
    // A page with no root-absolute reference, or one outside the prefix.
    expect(await detect({ ...ok, 'b.html': page('<img src="a.css">') })).toBeUndefined();
    expect(await detect({ ...ok, 'b.html': page('<a href="/other/">o</a><img src="/repo/a.css">') })).toBeUndefined();
    // The prefix is a directory of the site: the references are the site's own root paths.
    expect(await detect({ ...ok, 'repo/a.css': '' })).toBeUndefined();
    // Cut off, the references name no file.
    expect(await detect({ 'index.html': page('<link rel="stylesheet" href="/repo/missing.css">') })).toBeUndefined();
    // A <base href> decides how the page resolves.
    expect(await detect({ ...ok, 'b.html': page('<base href="/repo/"><img src="/repo/a.css">') })).toBeUndefined();
  });
});

describe('a build with no base given', () => {
  it('puts a site built for /repo/ under /repo/, says so once, and --base / says otherwise', async () => {
    const root = await makeSite({
      'index.html': page('<link rel="stylesheet" href="/repo/a.css"><a href="/repo/about/">about</a>'),
      'about/index.html': page('<link rel="stylesheet" href="/repo/a.css">'),
      'a.css': 'body{}',
    });
    temps.push(root);
    const workerAssets = await fakeWorkerAssets();
    const r = await build({ root, workerAssets });
    expect(r.manifest.base).toBe('/repo/');
    expect(Object.keys(r.manifest.pages).sort()).toEqual(['/repo/', '/repo/about/']);
    expect(r.diagnostics.filter((d) => d.severity === 'info')).toEqual([
      expect.objectContaining({ code: DiscoverCodes.BASE_DETECTED }),
    ]);
    expect(r.diagnostics.filter((d) => d.code === 'OBJPACK_W_MISSING_REF')).toEqual([]);
    expect(r.summary.warnings).toBe(0);
    expect(readFileSync(path.join(root, 'index.html'), 'utf8')).toContain(
      '<script src="/repo/objpack-register.js" defer fetchpriority="high">',
    );
    const atRoot = await build({ root, base: '/', workerAssets });
    expect(atRoot.manifest.base).toBeUndefined();
    expect(atRoot.diagnostics.some((d) => d.code === DiscoverCodes.BASE_DETECTED)).toBe(false);
  });

  it.skipIf(!built)('objpack build prints the base it found in one line, with how to override it', async () => {
    const root = await makeSite({ 'index.html': page('<link rel="stylesheet" href="/docs/a.css">'), 'a.css': '' });
    temps.push(root);
    const r = spawnSync(process.execPath, [BIN, 'build', root, '--no-sw'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.status).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.includes(DiscoverCodes.BASE_DETECTED));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('/docs/');
    expect(lines[0]).toContain('--base /');
  });
});
