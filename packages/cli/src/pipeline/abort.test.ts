import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build, type BuildProgress } from '../build.js';
import { ErrorCode, ObjpackError } from '../errors.js';
import { fakeWorkerAssets, makeSite, SMALL_SITE, writeFiles } from '../test-utils/site.js';
import { listFiles, verifyOutput } from '../test-utils/verify-output.js';

/** Every file of `root` with its content digest and mtime: equal snapshots mean nothing was touched. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const files = await listFiles(root);
  const sig = async (rel: string) => {
    const file = path.join(root, rel);
    const digest = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
    return `${digest} ${(await stat(file)).mtimeMs}`;
  };
  return Object.fromEntries(await Promise.all(files.map(async (rel) => [rel, await sig(rel)] as const)));
}

/** A site built once, then a stylesheet edited: the next build runs the whole pipeline (not the patch). */
async function builtThenEdited() {
  const root = await makeSite(SMALL_SITE);
  const workerAssets = await fakeWorkerAssets();
  const first = await build({ root, workerAssets });
  await writeFiles(root, { 'css/base.css': 'body{padding:0}' });
  return { root, workerAssets, first };
}

/** Builds with a signal aborted at the first progress event `at` accepts; resolves with what it threw. */
async function abortedBuild(
  root: string,
  workerAssets: Awaited<ReturnType<typeof fakeWorkerAssets>>,
  at: (p: BuildProgress) => boolean,
): Promise<unknown> {
  const ctrl = new AbortController();
  const onProgress = (p: BuildProgress) => {
    if (at(p)) ctrl.abort();
  };
  return build({ root, workerAssets, signal: ctrl.signal, onProgress }).then(
    () => undefined,
    (err: unknown) => err,
  );
}

const expectAborted = (err: unknown) => {
  expect(err).toBeInstanceOf(ObjpackError);
  expect((err as ObjpackError).code).toBe(ErrorCode.ABORTED);
};

describe('a build aborted through its signal', () => {
  test.each([
    ['discovery, after the first page', (p: BuildProgress) => p.phase === 'discover' && p.done === 1],
    ['page preparation, after the first page', (p: BuildProgress) => p.phase === 'hash' && p.done === 1],
    ['planning', (p: BuildProgress) => p.phase === 'plan'],
  ])('in %s throws OBJPACK_E_ABORTED and leaves every file as it was', async (_stage, at) => {
    const { root, workerAssets } = await builtThenEdited();
    const before = await snapshot(root);
    expectAborted(await abortedBuild(root, workerAssets, at));
    expect(await snapshot(root)).toEqual(before);
    // Nothing is left half done: the next build completes and its output verifies.
    const next = await build({ root, workerAssets });
    expect((await verifyOutput(root)).buildId).toBe(next.buildId);
  });

  test(
    'between two written files leaves the previous output ' + 'whole: its manifest and route table, their packages',
    async () => {
      const { root, workerAssets, first } = await builtThenEdited();
      const manifest = await readFile(path.join(root, 'objpack-manifest.json'));
      const routes = await readFile(path.join(root, '_objpack/routes.json'));
      const before = await snapshot(root);
      let written = 0;
      expectAborted(await abortedBuild(root, workerAssets, (p) => p.phase === 'write' && (written = p.done) === 2));
      expect(written).toBe(2);
      expect(await readFile(path.join(root, 'objpack-manifest.json'))).toEqual(manifest);
      expect(await readFile(path.join(root, '_objpack/routes.json'))).toEqual(routes);
      // Every package the published manifest and route table name is the previous build's, and verifies.
      expect((await verifyOutput(root)).buildId).toBe(first.buildId);
      const after = await snapshot(root);
      const named = Object.values(first.manifest.packages).map((p) => p.file);
      expect(named.length).toBeGreaterThan(0);
      for (const rel of named) expect(after[rel], rel).toBe(before[rel]);
      const next = await build({ root, workerAssets });
      expect((await verifyOutput(root)).buildId).toBe(next.buildId);
      expect((await listFiles(root)).filter((f) => f.includes('.objpack-tmp-'))).toEqual([]);
    },
  );

  test('in an incremental patch, before it writes, leaves every file as it was', async () => {
    const root = await makeSite(SMALL_SITE);
    const workerAssets = await fakeWorkerAssets();
    await build({ root, workerAssets });
    await writeFiles(root, { 'blog.html': (SMALL_SITE['blog.html'] as string).replace('Blog', 'Blog 2') });
    const before = await snapshot(root);
    expectAborted(await abortedBuild(root, workerAssets, (p) => p.phase === 'discover'));
    expect(await snapshot(root)).toEqual(before);
    expect((await build({ root, workerAssets })).patched).toBe(true);
  });
});
