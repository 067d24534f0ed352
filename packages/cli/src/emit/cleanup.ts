import { readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_DIR } from '@objpack/format';
import { TEMP_MARK } from './atomic-write.js';

/**
 * Removes, after the new manifest is in place, every package file under `_objpack/` the new build does not
 * reference (old shared packages, packages of deleted pages) and temporary files left by killed builds.
 * Returns the removed site-relative paths.
 */
export async function removeStale(outDir: string, keep: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (rel: string): Promise<boolean> => {
    let entries;
    try {
      entries = await readdir(path.join(outDir, rel), { withFileTypes: true });
    } catch {
      return false;
    }
    let empty = true;
    for (const e of entries) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (await walk(child)) await rmdir(path.join(outDir, child)).catch(() => undefined);
        else empty = false;
      } else if ((e.name.endsWith('.objp') && !keep.has(child)) || e.name.includes(TEMP_MARK)) {
        await rm(path.join(outDir, child), { force: true });
        removed.push(child);
      } else {
        empty = false;
      }
    }
    return empty && rel !== PACKAGE_DIR;
  };
  await walk(PACKAGE_DIR);
  return removed;
}

/** Removes temporary files a killed build left in the given directories (site-relative). */
export async function removeTempFiles(outDir: string, dirs: Iterable<string>): Promise<void> {
  for (const dir of dirs) {
    let names: string[];
    try {
      names = await readdir(path.join(outDir, dir));
    } catch {
      continue;
    }
    for (const n of names)
      if (n.startsWith('.') && n.includes(TEMP_MARK)) await rm(path.join(outDir, dir, n), { force: true });
  }
}
