import { readFile, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { COPIED_FILE } from './output-files.js';

/** What the last `--out` build copied into `outDir` (nothing when it wrote none, or the record is unreadable). */
export async function readCopied(outDir: string): Promise<string[]> {
  try {
    const list: unknown = JSON.parse(await readFile(path.join(outDir, COPIED_FILE), 'utf8'));
    // The record is read back from disk: only plain site-relative paths may ever be removed.
    return Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string' && isPlainRel(r)) : [];
  } catch {
    return [];
  }
}

export async function writeCopied(outDir: string, rels: Iterable<string>): Promise<void> {
  await writeFileAtomic(path.join(outDir, COPIED_FILE), JSON.stringify([...new Set(rels)].sort()));
}

/**
 * Removes the files an earlier build copied that the site no longer has (a deleted page would otherwise be
 * deployed from the copy as it was), then the directories that leaves empty. Returns them site-relative.
 */
export async function removeUncopied(
  outDir: string,
  previous: readonly string[],
  current: ReadonlySet<string>,
): Promise<string[]> {
  const removed: string[] = [];
  const dirs = new Set<string>();
  for (const rel of previous) {
    if (current.has(rel)) continue;
    await rm(path.join(outDir, rel), { force: true });
    removed.push(rel);
    for (let d = path.posix.dirname(rel); d !== '.'; d = path.posix.dirname(d)) dirs.add(d);
  }
  // Deepest first; rmdir fails on a directory that still holds anything, which then stays.
  for (const d of [...dirs].sort((a, b) => b.split('/').length - a.split('/').length))
    await rmdir(path.join(outDir, d)).catch(() => undefined);
  return removed;
}

function isPlainRel(rel: string): boolean {
  return (
    rel !== '' &&
    !path.posix.isAbsolute(rel) &&
    !rel.includes('\\') &&
    !rel.includes('\0') &&
    rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..')
  );
}
