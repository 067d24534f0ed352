import { isUtf8 } from 'node:buffer';
import type { Dirent } from 'node:fs';
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime';
import { WarningCode, warn } from '../diagnostics/warnings.js';
import { DiscoverCodes, DiscoverError } from './diagnostic-codes.js';
import { parseOrigin } from './site-origin.js';
import type { Diagnostic, DiscoverOptions, SiteFile } from './types.js';

// By extension: a walk of 30,000 files asks about a dozen extensions, once each.
const typeByExtension = new Map<string, string>();

/** Content type of a site file by its name; unknown extensions are served as bytes. */
export function contentTypeOf(rel: string): string {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return typeOf(rel);
  const ext = name.slice(dot + 1).toLowerCase();
  let type = typeByExtension.get(ext);
  if (type === undefined) typeByExtension.set(ext, (type = typeOf(rel)));
  return type;
}

function typeOf(rel: string): string {
  const type = mime.getType(rel) ?? 'application/octet-stream';
  return type.startsWith('text/') ||
    type === 'application/javascript' ||
    type === 'application/json' ||
    type === 'image/svg+xml'
    ? `${type}; charset=utf-8`
    : type;
}

/** True for names that are never served: dotfiles and dot-directories (.git, .env, .DS_Store…). */
export function isHidden(name: string): boolean {
  return name.startsWith('.');
}

/** Resolves and checks the site root; throws DiscoverError with a stable code if it cannot be used. */
export async function resolveRoot(root: string): Promise<string> {
  const abs = path.resolve(root);
  let real: string;
  try {
    real = await realpath(abs);
  } catch (cause) {
    throw new DiscoverError(DiscoverCodes.ROOT_NOT_FOUND, `Site directory not found: ${abs}`, { cause });
  }
  const st = await stat(real);
  if (!st.isDirectory()) throw new DiscoverError(DiscoverCodes.ROOT_NOT_DIRECTORY, `Not a directory: ${abs}`);
  return real;
}

/**
 * Lists every servable file under the root by decoded URL path. Dotfiles, excluded paths, symlinks that
 * leave the root, special files and names that are not UTF-8 are skipped, each with a warning (except
 * dotfiles and exclusions, which are skipped silently by design).
 */
export async function walkFiles(
  root: string,
  options: DiscoverOptions,
  diagnostics: Diagnostic[],
): Promise<{ root: string; files: Map<string, SiteFile> }> {
  const { root: realRoot, walked } = await walkFlat(root, options, diagnostics);
  return { root: realRoot, files: walked.toMap() };
}

/**
 * The walk's result as flat lists in the order of the sorted URL paths: an incremental build compares the
 * whole list with the last one and needs a {@link SiteFile} only for the few files that changed (30,000 of
 * them, with their content types, were a fifth of its walk).
 */
export class WalkedFiles {
  constructor(
    /** URL paths (with the origin's base path), sorted as `Array.prototype.sort` sorts strings. */
    readonly paths: readonly string[],
    private readonly files: readonly string[],
    private readonly rels: readonly string[],
    /** Per file, in the same order: size, mtime (ms), inode. */
    readonly stats: Float64Array,
  ) {}

  /** The file at position `i` of {@link paths}. */
  at(i: number): SiteFile {
    const rel = this.rels[i]!;
    return {
      path: this.paths[i]!,
      file: this.files[i]!,
      rel,
      bytes: this.stats[3 * i]!,
      mtimeMs: this.stats[3 * i + 1]!,
      ino: this.stats[3 * i + 2]!,
      contentType: contentTypeOf(rel),
    };
  }

  toMap(): Map<string, SiteFile> {
    const map = new Map<string, SiteFile>();
    for (let i = 0; i < this.paths.length; i++) map.set(this.paths[i]!, this.at(i));
    return map;
  }
}

/** {@link walkFiles} without a {@link SiteFile} per file. */
export async function walkFlat(
  root: string,
  options: DiscoverOptions,
  diagnostics: Diagnostic[],
): Promise<{ root: string; walked: WalkedFiles }> {
  const realRoot = await resolveRoot(root);
  const { basePath } = parseOrigin(options.origin, options.base);
  // Exclusions are site-relative ('out', 'out/'); absolute paths inside the root are accepted too, and
  // one outside it is a URL path ('/drafts/': a user thinks of the site in URLs, and it can name nothing else).
  const exclude = new Set(
    (options.exclude ?? [])
      .map((e) => {
        const rel = path.isAbsolute(e) ? path.relative(realRoot, e) : e;
        return rel.startsWith('..') || path.isAbsolute(rel) ? e : rel;
      })
      .map((e) => e.replace(/\\/g, '/').replace(/^\.?\/+|\/+$/g, ''))
      .filter((e) => e !== '' && !e.startsWith('..')),
  );
  // In walk order; sorted at the end. A link to a file already listed under another name is its own entry.
  const urlPaths: string[] = [];
  const absPaths: string[] = [];
  const relPaths: string[] = [];
  const numbers: number[] = [];
  const seenDirs = new Set<string>([realRoot]);
  const loops = new Set<string>();
  const insideRoot = (p: string) => p === realRoot || p.startsWith(realRoot + path.sep);

  // Synchronous calls: on a warm page cache a stat is a few microseconds, and a promise per file for
  // tens of thousands of files costs more than the system calls themselves.
  function visit(dirAbs: string, dirRel: string): void {
    let entries: Array<Dirent<string> | Dirent<Buffer>>;
    try {
      entries = readdirSync(dirAbs, { withFileTypes: true });
      // A name that is not UTF-8 decodes with U+FFFD: only then is the directory listed again as bytes
      // (names as Buffers cost the 30,000-file walk of an incremental rebuild a tenth of its time).
      if (entries.some((e) => e.name.includes('\uFFFD')))
        entries = readdirSync(dirAbs, { withFileTypes: true, encoding: 'buffer' });
    } catch (err) {
      diagnostics.push(
        warn(
          WarningCode.UNREADABLE,
          { path: `${dirRel || '.'}/`, reason: (err as Error).message },
          { file: dirRel || '.' },
        ),
      );
      return;
    }
    const subdirs: Array<[string, string]> = [];
    for (const entry of entries) {
      if (typeof entry.name !== 'string' && !isUtf8(entry.name)) {
        diagnostics.push(
          warn(
            WarningCode.NON_UTF8_NAME,
            { dir: dirRel || '.', name: entry.name.toString('latin1') },
            { file: dirRel || '.' },
          ),
        );
        continue;
      }
      const name = typeof entry.name === 'string' ? entry.name : entry.name.toString('utf8');
      if (isHidden(name)) continue;
      const rel = dirRel ? `${dirRel}/${name}` : name;
      if (exclude.has(rel)) continue;
      const abs = dirAbs.endsWith(path.sep) ? dirAbs + name : dirAbs + path.sep + name;
      if (entry.isDirectory()) subdirs.push([abs, rel]);
      else if (entry.isFile()) addFile(abs, rel);
      else if (entry.isSymbolicLink()) followLink(abs, rel);
      else diagnostics.push(warn(WarningCode.NOT_A_FILE, { path: rel }, { file: rel }));
    }
    for (const [abs, rel] of subdirs) visit(abs, rel);
  }

  function addFile(abs: string, rel: string): void {
    try {
      const st = statSync(abs);
      if (!st.isFile()) return;
      urlPaths.push(basePath + rel);
      absPaths.push(abs);
      relPaths.push(rel);
      numbers.push(st.size, st.mtimeMs, st.ino);
    } catch (err) {
      diagnostics.push(
        (err as NodeJS.ErrnoException).code === 'ENOENT'
          ? warn(WarningCode.FILE_VANISHED, { path: rel }, { file: rel })
          : warn(WarningCode.UNREADABLE, { path: rel, reason: (err as Error).message }, { file: rel }),
      );
    }
  }

  function followLink(abs: string, rel: string): void {
    let target: string;
    try {
      target = realpathSync(abs);
    } catch {
      diagnostics.push(warn(WarningCode.MISSING_REF, { at: rel, what: 'the target of this symlink' }, { file: rel }));
      return;
    }
    if (!insideRoot(target)) {
      diagnostics.push(warn(WarningCode.SYMLINK_ESCAPES_ROOT, { link: rel }, { file: rel }));
      return;
    }
    let st: ReturnType<typeof lstatSync> | undefined;
    try {
      st = lstatSync(target);
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) {
      // A link to a directory that contains it would list the same files under ever longer names.
      const at = path.dirname(abs);
      if (at === target || at.startsWith(target + path.sep)) {
        // Once per link, though a directory listed under two names lists the link twice.
        if (loops.has(abs)) return;
        loops.add(abs);
        // Named where it is, not by the name a directory listed twice gives it.
        const named = (p: string) => path.relative(realRoot, p).split(path.sep).join('/') || '.';
        const link = named(abs);
        diagnostics.push(warn(WarningCode.SYMLINK_LOOP, { link, target: named(target) }, { file: link }));
        return;
      }
      if (seenDirs.has(target)) return;
      seenDirs.add(target);
      visit(target, rel);
    } else if (st?.isFile()) {
      addFile(target, rel);
    }
  }

  visit(realRoot, '');
  // Directory listing order differs between file systems; a stable order keeps builds reproducible.
  // (The default sort compares UTF-16 code units, as `<` does, without a call per comparison.)
  const paths = [...urlPaths].sort();
  const at = new Map<string, number>();
  urlPaths.forEach((p, i) => at.set(p, i));
  const files: string[] = new Array<string>(paths.length);
  const rels: string[] = new Array<string>(paths.length);
  const stats = new Float64Array(paths.length * 3);
  paths.forEach((p, k) => {
    const i = at.get(p)!;
    files[k] = absPaths[i]!;
    rels[k] = relPaths[i]!;
    stats[3 * k] = numbers[3 * i]!;
    stats[3 * k + 1] = numbers[3 * i + 1]!;
    stats[3 * k + 2] = numbers[3 * i + 2]!;
  });
  return { root: realRoot, walked: new WalkedFiles(paths, files, rels, stats) };
}
