import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Decoder, type PackageIndex } from '@objpack/format';
import type { BuildOptions } from '../build.js';
import { fakeWorkerAssets, makeSite, writeFiles } from './site.js';

/** Build options for `root` with stand-in worker assets. */
export const opts = async (root: string, extra: Partial<BuildOptions> = {}): Promise<BuildOptions> => ({
  root,
  workerAssets: await fakeWorkerAssets(),
  ...extra,
});
/**
 * A project directory holding `files` and a built site in `dist/`, with the build running from the project
 * (`npx objpack build dist/`).
 */
export const inProject = async (
  files: Record<string, string>,
  run: (project: string, root: string) => Promise<void>,
): Promise<void> => {
  const project = await makeSite(files);
  const root = path.join(project, 'dist');
  await writeFiles(root, {
    'index.html': '<!doctype html><title>a</title>',
    'b.html': '<!doctype html><title>b</title>',
  });
  const cwd = process.cwd();
  process.chdir(project);
  try {
    await run(project, root);
  } finally {
    process.chdir(cwd);
  }
};
/** How many times `sub` occurs in `s`. */
export const count = (s: string, sub: string) => s.split(sub).length - 1;
/** The index entries of a package file. */
export const decodeAll = async (file: string): Promise<PackageIndex['entries']> => {
  let index: PackageIndex | undefined;
  const d = new Decoder({ onIndex: (i) => void (index = i) });
  d.push(await readFile(file));
  d.end();
  return index!.entries;
};
