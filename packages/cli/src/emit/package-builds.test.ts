import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { decodeStream, type RouteTable } from '@objpack/format';
import { describe, expect, test } from 'vitest';
import { build, type BuildOptions } from '../build.js';
import { fakeWorkerAssets, makeSite, SMALL_SITE, writeFiles } from '../test-utils/site.js';
import { verifyOutput } from '../test-utils/verify-output.js';
import { CACHE_FILE } from '../cache/build-cache.js';

const opts = async (root: string): Promise<BuildOptions> => ({ root, workerAssets: await fakeWorkerAssets() });

/** The build id in a package file's own index, decoded with @objpack/format. */
async function embeddedBuild(root: string, url: string): Promise<string> {
  for await (const ev of decodeStream(
    createReadStream(path.join(root, decodeURIComponent(url.slice(1)))) as AsyncIterable<Uint8Array>,
  )) {
    if (ev.type === 'index') return ev.index.buildId;
  }
  throw new Error(`no index in ${url}`);
}

const readRoutes = async (root: string) =>
  JSON.parse(await readFile(path.join(root, '_objpack/routes.json'), 'utf8')) as RouteTable;
/** The build the route table says a page's package carries. */
const expectedBuild = (t: RouteTable, page: string) => t.packageBuilds?.[String(t.pages[page]![0])] ?? t.buildId;
const editBlog = (root: string) =>
  writeFiles(root, { 'blog.html': (SMALL_SITE['blog.html'] as string).replace('Blog', 'Blog 2') });

describe('build ids of reused page packages', () => {
  test(
    'an incremental rebuild keeps unchanged page packages ' + 'byte for byte and names the build their index carries',
    async () => {
      const root = await makeSite(SMALL_SITE);
      const first = await build(await opts(root));
      expect((await readRoutes(root)).packageBuilds).toBeUndefined();
      const pkgFile = (page: string) => path.join(root, first.manifest.pages[page]!.package.slice(1));
      const before = {
        home: await readFile(pkgFile('/')),
        about: await readFile(pkgFile('/about/')),
        mtime: (await stat(pkgFile('/'))).mtimeMs,
      };
      expect(first.manifest.pages['/']!.package).toBe(`/_objpack/pages/index.html.${first.buildId}.objp`);

      await editBlog(root);
      const second = await build(await opts(root));
      expect(second.buildId).not.toBe(first.buildId);
      // A package is named for the build its index carries: the edited page's is a new file, the kept ones keep theirs.
      expect(second.written.filter((f) => f.endsWith('.objp'))).toEqual([
        `_objpack/pages/blog.html.${second.buildId}.objp`,
      ]);
      expect(second.manifest.pages['/']!.package).toBe(first.manifest.pages['/']!.package);
      // The summary's first-load bytes count the page package under that name.
      const m = second.manifest;
      const home = second.summary.perPage.find((x) => x.url === '/')!;
      expect(home.firstLoadBytes).toBe(
        m.packages[m.pages['/']!.package]!.bytes + m.pages['/']!.shared.reduce((n, u) => n + m.packages[u]!.bytes, 0),
      );
      expect(await readFile(pkgFile('/'))).toEqual(before.home);
      expect(await readFile(pkgFile('/about/'))).toEqual(before.about);
      expect((await stat(pkgFile('/'))).mtimeMs).toBe(before.mtime);

      const routes = await readRoutes(root);
      expect(routes.buildId).toBe(second.buildId);
      for (const page of ['/', '/about/']) {
        expect(await embeddedBuild(root, second.manifest.pages[page]!.package)).toBe(first.buildId);
        expect(expectedBuild(routes, page)).toBe(first.buildId);
        expect(second.manifest.packages[second.manifest.pages[page]!.package]!.buildId).toBe(first.buildId);
      }
      // The edited page's package is new: it carries the new build, which the table does not override.
      expect(await embeddedBuild(root, second.manifest.pages['/blog.html']!.package)).toBe(second.buildId);
      expect(routes.packageBuilds?.[String(routes.pages['/blog.html']![0])]).toBeUndefined();
      expect(second.manifest.packages[second.manifest.pages['/blog.html']!.package]!.buildId).toBeUndefined();
      expect(Object.keys(routes.packageBuilds ?? {})).toHaveLength(2);
      await verifyOutput(root);

      // A third build that changes nothing keeps the same table (the ids come from the cache, not the run).
      const routesText = await readFile(path.join(root, '_objpack/routes.json'), 'utf8');
      const third = await build(await opts(root));
      expect(third.written).toEqual([]);
      expect(await readFile(path.join(root, '_objpack/routes.json'), 'utf8')).toBe(routesText);
    },
  );

  test('a cache record without the embedded build id (older cache) re-encodes that page package', async () => {
    const root = await makeSite(SMALL_SITE);
    await build(await opts(root));
    const cacheFile = path.join(root, CACHE_FILE);
    const cache = deserialize(await readFile(cacheFile)) as { packages: Record<string, { buildId?: string }> };
    for (const rec of Object.values(cache.packages)) delete rec.buildId;
    await writeFile(cacheFile, serialize(cache));

    await editBlog(root);
    const second = await build(await opts(root));
    const id = second.buildId;
    expect(second.written.filter((f) => f.endsWith('.objp')).sort()).toEqual([
      `_objpack/pages/about/index.html.${id}.objp`,
      `_objpack/pages/blog.html.${id}.objp`,
      `_objpack/pages/index.html.${id}.objp`,
    ]);
    expect((await readRoutes(root)).packageBuilds).toBeUndefined();
    for (const page of ['/', '/about/', '/blog.html'])
      expect(await embeddedBuild(root, second.manifest.pages[page]!.package)).toBe(second.buildId);
    await verifyOutput(root);
  });
  test(
    'after an objpack from before the v8 cache built the ' + 'site, the v8 cache it left behind is not trusted',
    async () => {
      const root = await makeSite(SMALL_SITE);
      await build(await opts(root));
      const v8Cache = await readFile(path.join(root, CACHE_FILE));
      // An older objpack: no .cache.v8 for it, so every package is re-encoded with its build id, and its
      // .cache.json is written; the .cache.v8 of the build before stays.
      await editBlog(root);
      const older = await build({ ...(await opts(root)), cache: false });
      await writeFile(path.join(root, CACHE_FILE), v8Cache);
      await writeFile(
        path.join(root, '_objpack/.cache.json'),
        '{"version":2,"digests":{},"packages":{},"discover":{}}',
      );
      const next = await build(await opts(root));
      const routes = await readRoutes(root);
      for (const page of ['/', '/about/', '/blog.html']) {
        expect(await embeddedBuild(root, next.manifest.pages[page]!.package)).toBe(older.buildId);
        expect(expectedBuild(routes, page)).toBe(older.buildId);
      }
      await verifyOutput(root);
    },
  );
});
