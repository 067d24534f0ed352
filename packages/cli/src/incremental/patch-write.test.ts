/**
 * The patch's write step fails as the full build's writer does: a package it cannot write is
 * OBJPACK_E_WRITE naming the file, and the published manifest and route table stay as they were.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE, ROUTES_FILE } from '@objpack/format';
import { afterAll, expect, test } from 'vitest';
import { build, type BuildResult } from '../build.js';
import { ErrorCode, ObjpackError } from '../errors.js';
import { patchBuild } from './patch-build.js';
import { settle } from '../pipeline/settle.js';
import { fakeWorkerAssets, makeSite, SMALL_SITE } from '../test-utils/site.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test('a package the patch cannot write is OBJPACK_E_WRITE and the switch files stay as they were', async () => {
  const assets = await fakeWorkerAssets();
  const run = (root: string): Promise<BuildResult> =>
    build({ root, cache: true, workerAssets: assets, concurrency: 1 });
  const site = await makeSite(SMALL_SITE, 'objpack-patch-write-');
  dirs.push(site);
  expect((await run(site)).patched).toBe(false);
  const page = path.join(site, 'about/index.html');
  const original = readFileSync(page, 'utf8');
  // The same page content gives the same build id: the first patch tells the package's name under it.
  writeFileSync(page, original + '<p>edited</p>\n');
  const patched = await run(site);
  expect(patched.patched).toBe(true);
  const pkg = patched.written[0]!;
  expect(pkg).toMatch(/^_objpack\/.*\.[0-9a-f]{16}\.objp$/);
  writeFileSync(page, original);
  expect((await run(site)).patched).toBe(true);

  writeFileSync(page, original + '<p>edited</p>\n');
  const before = [MANIFEST_FILE, ROUTES_FILE].map((f) => readFileSync(path.join(site, f)));
  // A directory where the package goes: its rename fails, as on a full disk or a read-only folder.
  rmSync(path.join(site, pkg), { force: true });
  mkdirSync(path.join(site, pkg));
  // patchBuild itself: were the patch to decline, build() would run the pipeline, whose writer fails alike.
  const failed = await patchBuild(await settle({ root: site, workerAssets: assets, concurrency: 1 })).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(failed).toBeInstanceOf(ObjpackError);
  expect((failed as ObjpackError).code).toBe(ErrorCode.WRITE);
  expect((failed as ObjpackError).file).toBe(path.join(site, pkg));
  expect([MANIFEST_FILE, ROUTES_FILE].map((f) => readFileSync(path.join(site, f)))).toEqual(before);
});
