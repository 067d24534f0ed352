import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { PACKAGE_DIR } from '@objpack/format';
import type { StatLike } from '../discover/stat-key.js';
import type { DiscoverCache } from '../discover/types.js';
import type { FileDigest } from '../discover/file-digest.js';
import { tempPathFor, writeFileAtomic } from '../emit/atomic-write.js';

export const CACHE_FILE = `${PACKAGE_DIR}/.cache.v8`;
/** Where builds before the v8 format kept it; removed by the next save. */
const OLD_CACHE_FILE = `${PACKAGE_DIR}/.cache.json`;
/** Package records a later build changed without loading this cache (incremental/patch-build.ts). */
export const STALE_FILE = `${PACKAGE_DIR}/.cache-updates.json`;
/**
 * Bump when a record's meaning changes. 2: files over 1 MB are checked for UTF-8 too (`FileDigest.utf8`).
 * 3: v8-serialised (was JSON). 4: page URLs keep `[` `]` (site-origin.ts encodePath), and cached closures
 * carry their page's URL. 5: object URLs escape `|` `^` as Chromium does (resolve-url.ts). 6: one spelling
 * per object URL (`%5Bx%5D.png` as /[x].png). 7: object URLs as the page spells them again (preloads must match).
 * 8: closure items say how a script is requested (`ClosureItem.script`): a preload must be in that mode.
 */
const CACHE_VERSION = 8;

/** What the previous build wrote for a package, so an unchanged package is neither re-encoded nor rewritten. */
export interface CachedPackage {
  /** Content key (see plan `contentKey`), including shared refs. */
  key: string;
  bytes: number;
  digest: string;
  /**
   * Build id in the package's own index ('' for shared packages). Reused packages keep it, so the manifest
   * and route table must name it; a page record without it (an older cache) is re-encoded.
   */
  buildId?: string;
}

interface CacheData {
  version: number;
  /** Absolute file → digest record, valid while size and mtime match. */
  digests: Record<string, FileDigest>;
  packages: Record<string, CachedPackage>;
  discover: Record<string, unknown>;
}

/**
 * The incremental-build cache in `<out>/_objpack/.cache.v8`: file digests keyed by (size, mtime), the
 * content keys of written packages and discovery's parse results keyed by content hash. A missing, corrupt
 * or foreign-version cache (another Node's serialiser included) is simply ignored (a full build is always
 * correct). Why v8's serialiser and not JSON (23 MB for 10,000 pages): one non-ASCII character anywhere
 * (a warning's `→`, a file name) makes JSON.stringify's whole result a two-byte string, and its UTF-8
 * encoding then costs as much again as the stringify; v8 encodes each string on its own, in about half the
 * time (benchmarks/build/README.md).
 */
export class BuildCache {
  private next: CacheData = { version: CACHE_VERSION, digests: {}, packages: {}, discover: {} };
  private constructor(private readonly prev: CacheData) {}

  static empty(): BuildCache {
    return new BuildCache({ version: CACHE_VERSION, digests: {}, packages: {}, discover: {} });
  }

  static async load(outDir: string): Promise<BuildCache> {
    // save() removes the JSON cache: one that is there was written by an objpack from before the v8 format,
    // which rebuilt the site (re-encoding packages with its own build id) and left this file as it was.
    if (existsSync(path.join(outDir, OLD_CACHE_FILE))) return BuildCache.empty();
    try {
      const data = deserialize(await readFile(path.join(outDir, CACHE_FILE))) as CacheData;
      if (data?.version === CACHE_VERSION && data.digests && data.packages && data.discover) {
        const updates = readUpdates(outDir);
        if (updates === 'all') data.packages = {};
        else
          for (const [key, record] of Object.entries(updates)) {
            if (record) data.packages[key] = record;
            else delete data.packages[key];
          }
        return new BuildCache(data);
      }
    } catch {
      // No cache or an unreadable one: build from scratch.
    }
    return BuildCache.empty();
  }

  /** The cached digest of `file` (any key) if its size, mtime and inode still match; `sendBytes` when it matters. */
  digest(file: string, st: StatLike, sendBytes?: number): FileDigest | undefined {
    const d = this.prev.digests[file];
    return d &&
      d.size === st.bytes &&
      d.mtimeMs === st.mtimeMs &&
      (d.ino ?? 0) === (st.ino ?? 0) &&
      (sendBytes === undefined || d.sendBytes === Math.min(sendBytes, st.bytes))
      ? d
      : undefined;
  }
  /** The digest this build recorded for `file`. */
  nextDigest(file: string): FileDigest | undefined {
    return this.next.digests[file];
  }
  setDigest(file: string, d: FileDigest): void {
    this.next.digests[file] = d;
  }

  package(url: string): CachedPackage | undefined {
    return this.prev.packages[url];
  }
  setPackage(url: string, p: CachedPackage): void {
    this.next.packages[url] = p;
  }

  private view: DiscoverCache | undefined;

  /** The view discovery uses; entries it reads again are carried into the next cache. */
  get discover(): DiscoverCache {
    return (this.view ??= {
      warm: Object.keys(this.prev.digests).length > 0,
      get: (hash) => {
        const v = this.prev.discover[hash];
        if (v !== undefined) this.next.discover[hash] = v;
        return v;
      },
      set: (hash, value) => {
        this.next.discover[hash] = value;
      },
    });
  }

  async save(outDir: string): Promise<void> {
    await writeFileAtomic(path.join(outDir, CACHE_FILE), serialize(this.next));
    rmSync(path.join(outDir, STALE_FILE), { force: true });
    rmSync(path.join(outDir, OLD_CACHE_FILE), { force: true });
  }
}

/** Records newer than the cache; null = unknown. 'all' when the file exists but cannot be read (trust none). */
type PackageUpdates = Record<string, CachedPackage | null>;

function readUpdates(outDir: string): PackageUpdates | 'all' {
  let text: string;
  try {
    text = readFileSync(path.join(outDir, STALE_FILE), 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? {} : 'all';
  }
  try {
    const updates = JSON.parse(text) as unknown;
    return updates && typeof updates === 'object' && !Array.isArray(updates) ? (updates as PackageUpdates) : 'all';
  } catch {
    return 'all';
  }
}

/**
 * Records what a build that did not load this cache (incremental/patch-build.ts) did to package files (or
 * `file:<page>` HTML records): `null` before it rewrites one (a build killed mid-write leaves it unknown, so
 * it is re-encoded), the new record once written. The next build that loads the cache applies them.
 */
export function updatePackages(outDir: string, updates: Readonly<PackageUpdates>): void {
  if (Object.keys(updates).length === 0) return;
  const before = readUpdates(outDir);
  if (before === 'all') return;
  const target = path.join(outDir, STALE_FILE);
  mkdirSync(path.dirname(target), { recursive: true });
  const tmp = tempPathFor(target);
  writeFileSync(tmp, JSON.stringify({ ...before, ...updates }));
  renameSync(tmp, target);
}
