import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { BuildCache, CACHE_FILE } from './build-cache.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
const outDir = async () => {
  const d = await mkdtemp(path.join(tmpdir(), 'objpack-cache-'));
  dirs.push(d);
  return d;
};

const stat = { bytes: 10, mtimeMs: 1700000000000.5, ino: 42 };
const digest = {
  size: 10,
  mtimeMs: 1700000000000.5,
  ino: 42,
  whole: 'w',
  sendBytes: 10,
  send: 'w',
  changed: false,
  type: 'text/css',
};

/** A cache holding one record of each kind, a warning with `→` and a non-ASCII file name among them. */
async function saved(dir: string): Promise<void> {
  const cache = BuildCache.empty();
  cache.setDigest('/site/caf\u00e9.css', digest);
  cache.setPackage('/_objpack/pages/index.html.objp', { key: 'k', bytes: 99, digest: 'sha256-x', buildId: 'b1' });
  cache.discover.set('closure:a', {
    diagnostics: [{ message: 'index.html:3: "x.css" \u2192 /x.css does not exist in the site' }],
  });
  await cache.save(dir);
}

describe('the build cache file', () => {
  test(
    'what a build saves, the next one loads: digests (while size, mtime and inode match), package records, ' +
      'parse results',
    async () => {
      const dir = await outDir();
      await saved(dir);
      const next = await BuildCache.load(dir);
      expect(next.digest('/site/caf\u00e9.css', stat)).toEqual(digest);
      expect(next.digest('/site/caf\u00e9.css', { ...stat, mtimeMs: stat.mtimeMs + 1 })).toBeUndefined();
      expect(next.package('/_objpack/pages/index.html.objp')).toEqual({
        key: 'k',
        bytes: 99,
        digest: 'sha256-x',
        buildId: 'b1',
      });
      expect(next.discover.warm).toBe(true);
      expect(next.discover.get('closure:a')).toEqual({
        diagnostics: [{ message: 'index.html:3: "x.css" \u2192 /x.css does not exist in the site' }],
      });
    },
  );

  test('a corrupt, truncated or JSON cache file is ignored: the build starts cold instead of failing', async () => {
    const dir = await outDir();
    await saved(dir);
    const file = path.join(dir, CACHE_FILE);
    const bytes = await readFile(file);
    for (const bad of [
      bytes.subarray(0, bytes.length >> 1),
      Buffer.from('not a cache'),
      Buffer.from(JSON.stringify({ version: 3, digests: {}, packages: {}, discover: {} })),
    ]) {
      await writeFile(file, bad);
      const cache = await BuildCache.load(dir);
      expect(cache.discover.warm).toBe(false);
      expect(cache.package('/_objpack/pages/index.html.objp')).toBeUndefined();
    }
  });

  test('a cache of a newer serialiser (another Node) is ignored', async () => {
    const dir = await outDir();
    await saved(dir);
    const file = path.join(dir, CACHE_FILE);
    const bytes = Buffer.from(await readFile(file));
    // The header is 0xFF and the serialiser's format version: a later one than this Node writes.
    expect(bytes[0]).toBe(0xff);
    bytes[1] = 0x7f;
    await writeFile(file, bytes);
    expect((await BuildCache.load(dir)).package('/_objpack/pages/index.html.objp')).toBeUndefined();
  });

  test(
    'a JSON cache next to it means an objpack from before the ' +
      'v8 format built since: the v8 cache is stale and ignored',
    async () => {
      // This objpack saved the v8 cache and removed the JSON one; an older objpack then rebuilt the site (cold,
      // re-encoding every package with its build id) and wrote .cache.json, leaving .cache.v8 as it was. Its
      // records would keep packages whose index names another build than the manifest would say.
      const dir = await outDir();
      await saved(dir);
      await writeFile(path.join(dir, '_objpack/.cache.json'), '{"version":2,"digests":{},"packages":{},"discover":{}}');
      const cache = await BuildCache.load(dir);
      expect(cache.package('/_objpack/pages/index.html.objp')).toBeUndefined();
      expect(cache.discover.warm).toBe(false);
    },
  );

  test('saving removes the JSON cache of builds before the v8 format', async () => {
    const dir = await outDir();
    await mkdir(path.join(dir, '_objpack'));
    await writeFile(path.join(dir, '_objpack/.cache.json'), '{"version":2,"digests":{},"packages":{},"discover":{}}');
    await saved(dir);
    expect(existsSync(path.join(dir, '_objpack/.cache.json'))).toBe(false);
    expect(existsSync(path.join(dir, CACHE_FILE))).toBe(true);
  });
});
