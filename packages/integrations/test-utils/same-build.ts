import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { inspectPackage } from 'objpack';
import { expect } from 'vitest';

async function packageFiles(dir: string, rel = '_objpack'): Promise<string[]> {
  const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? packageFiles(dir, `${rel}/${e.name}`)
        : Promise.resolve(e.name.endsWith('.objp') ? [`${rel}/${e.name}`] : []),
    ),
  );
  return nested.flat().sort();
}

const json = async (file: string): Promise<unknown> => JSON.parse(await readFile(file, 'utf8'));

/**
 * Two objpack outputs of the same framework output are the same build: the same manifest (pages, closures,
 * packages, digests, build id; it holds no timestamps), the same route table, and the same packages,
 * object by object. Returns the manifest.
 */
export async function expectSameBuild(integrated: string, byHand: string): Promise<Record<string, unknown>> {
  const manifest = (await json(path.join(integrated, 'objpack-manifest.json'))) as Record<string, unknown>;
  expect(manifest).toEqual(await json(path.join(byHand, 'objpack-manifest.json')));
  expect(await json(path.join(integrated, '_objpack/routes.json'))).toEqual(
    await json(path.join(byHand, '_objpack/routes.json')),
  );
  const files = await packageFiles(integrated);
  expect(files).toEqual(await packageFiles(byHand));
  for (const f of files) {
    const [a, b] = [await inspectPackage(path.join(integrated, f)), await inspectPackage(path.join(byHand, f))];
    expect({ ...a, file: '' }, f).toEqual({ ...b, file: '' });
  }
  return manifest;
}

/** The build put the site under `base`: the manifest records it and every page's URL starts with it. */
export function expectUnderBase(manifest: Record<string, unknown>, base: string): string[] {
  expect(manifest.base).toBe(base);
  const pages = Object.keys(manifest.pages as object).sort();
  expect(pages.filter((p) => !p.startsWith(base))).toEqual([]);
  return pages;
}
