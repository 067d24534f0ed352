import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** A running directory-tree watcher. */
export interface TreeWatcher {
  /** Resolves once every directory that existed at the start is watched. */
  readonly ready: Promise<void>;
  /** Directories watched now (for tests and diagnostics). */
  readonly size: number;
  /** Whether `relPath` was a file of the tree when last seen (listed at the start or after an event naming it). */
  has(relPath: string): boolean;
  close(): void;
}

/**
 * Watches a directory tree with one non-recursive `fs.watch` per directory, adding directories as they
 * appear and dropping them as they go. A directory watch reports every create, write, delete and rename of
 * its children by name, so a file replaced by rename — editors' atomic save, and the build's own atomic
 * writer — is seen every time. Node 20's `recursive: true` on Linux watches each file's inode instead and
 * goes blind to a path after its first replacement (it also costs one inotify watch per file).
 *
 * `onChange` gets the changed path relative to `root`, before {@link TreeWatcher.has} takes the change in;
 * `skipDir` (relative path) keeps whole subtrees out.
 */
export function watchTree(
  rootDir: string,
  onChange: (relPath: string) => void,
  skipDir: (relPath: string) => boolean = () => false,
): TreeWatcher {
  const root = path.resolve(rootDir);
  const watchers = new Map<string, FSWatcher>();
  const files = new Set<string>();
  let closed = false;
  const recheck = (child: string) => {
    const rel = path.relative(root, child);
    lstat(child).then(
      (s) => (s.isDirectory() ? files.delete(rel) : files.add(rel)),
      () => files.delete(rel),
    );
  };

  const drop = (dir: string) => {
    for (const [d, w] of watchers) {
      if (d === dir || d.startsWith(dir + path.sep)) {
        w.close();
        watchers.delete(d);
      }
    }
  };

  async function add(dir: string): Promise<void> {
    const rel = path.relative(root, dir);
    if (closed || watchers.has(dir) || (rel !== '' && skipDir(rel))) return;
    try {
      // lstat: a symlinked directory could lead outside the site or into a loop; the server skips those too.
      if (!(await lstat(dir)).isDirectory()) return;
    } catch {
      return;
    }
    if (closed || watchers.has(dir)) return;
    let w: FSWatcher;
    try {
      w = watch(dir, (event, name) => {
        if (closed) return;
        const child = name ? path.join(dir, String(name)) : dir;
        onChange(path.relative(root, child));
        if (name) recheck(child);
        if (event === 'rename' && name) {
          // A child appeared (maybe a new directory to watch) or vanished (a watched one to drop).
          if (watchers.has(child)) lstat(child).catch(() => drop(child));
          else void add(child);
        }
      });
    } catch {
      return; // vanished between lstat and watch, or out of watches: the parent still reports it
    }
    w.on('error', () => drop(dir));
    watchers.set(dir, w);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) if (!e.isDirectory()) files.add(path.relative(root, path.join(dir, e.name)));
    await Promise.all(entries.filter((e) => e.isDirectory()).map((e) => add(path.join(dir, e.name))));
  }

  const ready = add(root);
  return {
    ready,
    get size() {
      return watchers.size;
    },
    has: (relPath) => files.has(relPath),
    close() {
      closed = true;
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
