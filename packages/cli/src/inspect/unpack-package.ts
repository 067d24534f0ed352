import { lstat, mkdir, open, realpath, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, ObjpackError } from '../errors.js';
import { tempPathFor } from '../emit/atomic-write.js';
import { readPackageEvents } from './inspect-package.js';

/**
 * Maps an object name to a path inside `dir`, or throws OBJPACK_E_UNSAFE_PATH. The query is dropped,
 * directory URLs get `index.html`, and every decoded segment must be a plain name ('..', '.', separators,
 * NUL and drive letters are refused) so nothing can land outside `dir`.
 */
export function safeTarget(dir: string, name: string): string {
  const unsafe = (why: string) =>
    new ObjpackError(ErrorCode.UNSAFE_PATH, `refusing ${JSON.stringify(name)}: ${why}`, name);
  const urlPath = name.split(/[?#]/)[0]!;
  if (!urlPath.startsWith('/')) throw unsafe('not an absolute URL path');
  const segments = urlPath.slice(1).split('/');
  if (urlPath.endsWith('/')) segments[segments.length - 1] = 'index.html';
  const decoded = segments.map((s) => {
    let d: string;
    try {
      d = decodeURIComponent(s);
    } catch {
      throw unsafe('malformed percent-encoding');
    }
    if (d === '' || d === '.' || d === '..' || /[/\\\0]/.test(d) || /^[a-zA-Z]:/.test(d))
      throw unsafe(`bad segment ${JSON.stringify(d)}`);
    return d;
  });
  const target = path.resolve(dir, ...decoded);
  if (!target.startsWith(path.resolve(dir) + path.sep)) throw unsafe('outside the target directory');
  return target;
}

/**
 * Extracts every object of a package into `dir` (created if needed). Each object is written to a
 * temporary file and renamed only after its digest was verified; names that would escape `dir`, also via
 * a symlink already inside it, are refused with OBJPACK_E_UNSAFE_PATH and nothing is written for them.
 * Unless `force`, a file already at one of the targets is refused with OBJPACK_E_TARGET_EXISTS before
 * anything is written.
 */
export async function unpackPackage(
  file: string,
  dir: string,
  options: { force?: boolean } = {},
): Promise<{ files: string[] }> {
  await mkdir(dir, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EEXIST' || err.code === 'ENOTDIR')
      throw new ObjpackError(
        ErrorCode.USAGE,
        `${dir} is a file or lies under one; give a directory to extract into (it is created if missing)`,
        dir,
        { cause: err },
      );
    throw err;
  });
  const realDir = await realpath(dir);
  const files: string[] = [];
  let fh: FileHandle | undefined;
  let tmp = '';
  let target = '';
  try {
    for await (const e of readPackageEvents(file)) {
      if (e.type === 'index') {
        const targets = e.index.entries.map((entry) => safeTarget(realDir, entry.name));
        if (!options.force) await refuseExisting(targets, realDir);
      } else if (e.type === 'start') {
        target = safeTarget(realDir, e.entry.name);
        await mkdir(path.dirname(target), { recursive: true });
        const parent = await realpath(path.dirname(target));
        if (parent !== realDir && !parent.startsWith(realDir + path.sep)) {
          throw new ObjpackError(
            ErrorCode.UNSAFE_PATH,
            `refusing ${e.entry.name}: a symlink leads outside ${realDir}`,
            e.entry.name,
          );
        }
        const existing = await lstat(target).catch(() => undefined);
        if (existing?.isSymbolicLink() || existing?.isDirectory()) {
          throw new ObjpackError(
            ErrorCode.UNSAFE_PATH,
            `refusing ${e.entry.name}: ${target} is a symlink or directory`,
            e.entry.name,
          );
        }
        tmp = tempPathFor(target);
        fh = await open(tmp, 'wx');
      } else if (e.type === 'data') {
        await fh!.write(e.bytes);
      } else {
        await fh!.close();
        fh = undefined;
        await rename(tmp, target);
        tmp = '';
        files.push(path.relative(realDir, target).split(path.sep).join('/'));
      }
    }
  } finally {
    if (fh) await fh.close().catch(() => undefined);
    if (tmp) await rm(tmp, { force: true });
  }
  return { files };
}

async function refuseExisting(targets: string[], realDir: string): Promise<void> {
  for (const target of targets) {
    if (!(await lstat(target).catch(() => undefined))) continue;
    const name = path.relative(realDir, target).split(path.sep).join('/');
    throw new ObjpackError(
      ErrorCode.TARGET_EXISTS,
      `${name} already exists in ${realDir}; pass --force to overwrite`,
      target,
    );
  }
}
