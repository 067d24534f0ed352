import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildManifest, RouteTable } from '@objpack/format';
import { expect } from 'vitest';
import { inspectPackage } from '../inspect/inspect-package.js';
import { STATE_FILE, STATE_ROWS_FILE } from '../incremental/build-state.js';
import { listFiles, verifyOutput } from './verify-output.js';

/** Files only a build reads back; they legitimately differ between two ways of reaching the same output. */
const PRIVATE = new Set(['_objpack/.cache.v8', STATE_FILE, STATE_ROWS_FILE, '_objpack/.cache-updates.json']);

/**
 * The output files and their bytes. `current`: only the packages the manifest names, page packages under
 * their slot (the name without the build id: builds that reach the same output by other ways name them for
 * other build ids), so the previous generation's files a build keeps are left out.
 */
async function outputs(root: string, current = false): Promise<Map<string, Buffer>> {
  let files = (await listFiles(root)).filter((f) => !PRIVATE.has(f));
  const named = new Set(Object.values(readManifest(root).packages).map((p) => p.file));
  if (current) files = files.filter((f) => !f.endsWith('.objp') || named.has(f));
  const key = (f: string) => (current ? f.replace(/\.[0-9a-f]{16}\.objp$/, '.objp') : f);
  return new Map(await Promise.all(files.map(async (f) => [key(f), await readFile(path.join(root, f))] as const)));
}
/** Maps a slot key of {@link outputs} to the file it stands for in `root` (the manifest's name for a page package). */
const filesOf = (root: string) => {
  const bySlot = new Map(
    Object.values(readManifest(root).packages).map((p) => [p.file.replace(/\.[0-9a-f]{16}\.objp$/, '.objp'), p.file]),
  );
  return (key: string) => bySlot.get(key) ?? key;
};
/** The build manifest of the output in `root`. */
export const readManifest = (root: string) =>
  JSON.parse(readFileSync(path.join(root, 'objpack-manifest.json'), 'utf8')) as BuildManifest;

/** Byte-for-byte equality of everything but the build's private files. */
export async function expectSameBytes(a: string, b: string): Promise<void> {
  const [x, y] = [await outputs(a), await outputs(b)];
  expect([...x.keys()]).toEqual([...y.keys()]);
  for (const [f, bytes] of x) expect(bytes.equals(y.get(f)!), f).toBe(true);
}

/** Equality up to build ids: what a full build writes vs what an incremental build kept or patched. */
export async function expectSameAsFullBuild(incremental: string, full: string): Promise<void> {
  const [x, y] = [await outputs(incremental, true), await outputs(full, true)];
  const [fileIn, fileFull] = [filesOf(incremental), filesOf(full)];
  expect([...x.keys()].sort()).toEqual([...y.keys()].sort());
  const ids = (root: string) => {
    const m = JSON.parse(readFileSync(path.join(root, 'objpack-manifest.json'), 'utf8')) as BuildManifest;
    return [m.buildId, ...Object.values(m.packages).flatMap((p) => (p.buildId ? [p.buildId] : []))];
  };
  const scrub = (text: string, root: string) => ids(root).reduce((t, id) => t.split(id).join('<id>'), text);
  for (const [f, bytes] of x) {
    const other = y.get(f)!;
    if (f.endsWith('.objp')) {
      const [p, q] = [
        await inspectPackage(path.join(incremental, fileIn(f))),
        await inspectPackage(path.join(full, fileFull(f))),
      ];
      expect({ ...p, file: '', buildId: '' }, f).toEqual({ ...q, file: '', buildId: '' });
    } else if (f === 'objpack-manifest.json') {
      const norm = (b: Buffer) => {
        const m = JSON.parse(b.toString('utf8')) as Omit<BuildManifest, 'buildId'> & { buildId?: string };
        delete m.buildId;
        // A page package's file digest covers the build id in its index (the packages are compared above),
        // and its name carries that id.
        const slot = (u: string) => u.replace(/\.[0-9a-f]{16}\.objp$/, '.objp');
        m.packages = Object.fromEntries(
          Object.entries(m.packages).map(([u, p]) => {
            delete p.buildId;
            return [slot(u), p.kind === 'page' ? { ...p, file: slot(p.file), digest: '' } : p];
          }),
        );
        for (const p of Object.values(m.pages)) p.package = slot(p.package);
        return m;
      };
      expect(norm(bytes)).toEqual(norm(other));
    } else if (f === '_objpack/routes.json') {
      const norm = (b: Buffer) => {
        const r = JSON.parse(b.toString('utf8')) as Omit<RouteTable, 'buildId'> & { buildId?: string };
        delete r.buildId;
        delete r.packageBuilds;
        r.packages = r.packages.map((u) => u.replace(/\.[0-9a-f]{16}\.objp$/, '.objp'));
        return r;
      };
      expect(norm(bytes)).toEqual(norm(other));
    } else if (f === 'objpack-report.html') {
      expect(scrub(bytes.toString('utf8'), incremental), f).toBe(scrub(other.toString('utf8'), full));
    } else {
      expect(bytes.equals(other), f).toBe(true);
    }
  }
  await verifyOutput(incremental);
}
