import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { contentTypeFor, isCompressible } from './content-type.js';
import type { ServeLogEvent } from './options.js';
import { ServeErrorCode } from './errors.js';

/** One servable file, with everything a response needs decided at start-up (sirv's production mode). */
export interface FileEntry {
  /** URL path, decoded: `/guide/index.html`. */
  urlPath: string;
  /** Absolute file path (inside the real root). */
  file: string;
  size: number;
  mtimeMs: number;
  /** Strong validator (nginx's mtime-size spelling); the file is never served with other bytes under it. */
  etag: string;
  contentType: string;
  compressible: boolean;
  /** Headers of a full 200 response, Content-Length included. */
  headers: Record<string, string>;
  /** The body, when the file is small enough and the memory budget allows. */
  body: Buffer | undefined;
  /** Precompressed siblings (`x.js.br`, `x.js.gz`) no older than the file. */
  br: FileEntry | undefined;
  gzip: FileEntry | undefined;
  /** SHA-256, computed on first need (dynamic/delta packages). */
  digest: Uint8Array | undefined;
  /** Response heads merged with a caller's constant extra headers, built once per extra object. */
  heads: Map<Readonly<Record<string, string>> | null, ResponseHead> | undefined;
}

/** Headers of a full 200 both as an object (to derive 206/304 heads) and as `writeHead`'s flat array. */
export interface ResponseHead {
  obj: Readonly<Record<string, string>>;
  flat: readonly string[];
}

/**
 * The head for `e` plus `extra`, cached on the entry. `extra` must be a long-lived constant (one per page,
 * per package kind): the cache is keyed by its identity, so the hot path allocates nothing.
 */
export function headFor(e: FileEntry, extra: Readonly<Record<string, string>> | null): ResponseHead {
  e.heads ??= new Map();
  let head = e.heads.get(extra);
  if (!head) {
    const obj = extra ? { ...e.headers, ...extra } : e.headers;
    head = { obj, flat: Object.entries(obj).flat() };
    e.heads.set(extra, head);
  }
  return head;
}

/** What a URL path resolves to. */
export type Route = { entry: FileEntry } | { redirect: string };

export interface SiteIndex {
  routes: Map<string, Route>;
  /** File entries by their own URL path (no aliases). */
  files: Map<string, FileEntry>;
  /** Bytes of bodies held in memory. */
  memoryBytes: number;
  /** Increases with every reload: keys caches of derived bytes. */
  generation: number;
}

export interface IndexOptions {
  /** The decoded URL path the root directory is served at ('/', '/repo/'): every file's URL path starts with it. */
  base?: string;
  memoryBytes: number;
  maxMemoryFileBytes: number;
  /** Cache-Control for a URL path. */
  cacheControl: (urlPath: string, contentType: string) => string;
  onLog: (e: ServeLogEvent) => void;
  /** The index being replaced (`reload()`): bodies and digests of files with unchanged size and mtime are reused. */
  previous?: SiteIndex;
}

/** Names never served: dotfiles and dot-directories (`.git`, `.env`), except `/.well-known/`. */
const hidden = (name: string, depth: number) => name.startsWith('.') && !(depth === 0 && name === '.well-known');

async function readBody(file: string, size: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await fh.read(buf, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at === size ? buf : buf.subarray(0, at);
  } finally {
    await fh.close();
  }
}

/**
 * Walks the root once and builds the route table. Symlinks are followed only when their target stays
 * inside the real root (and each real directory is visited once, so link loops end); anything else is
 * skipped and reported with SERVE_SKIPPED.
 */
let generations = 0;

export async function buildSiteIndex(rootReal: string, o: IndexOptions): Promise<SiteIndex> {
  const files = new Map<string, FileEntry>();
  const visited = new Set<string>();
  const inside = (p: string) => p === rootReal || p.startsWith(rootReal.endsWith(sep) ? rootReal : rootReal + sep);
  const found: Array<{ urlPath: string; file: string; size: number; mtimeMs: number }> = [];

  async function walk(dirReal: string, urlDir: string, depth: number): Promise<void> {
    if (visited.has(dirReal)) return;
    visited.add(dirReal);
    let dirents;
    try {
      dirents = await readdir(dirReal, { withFileTypes: true });
    } catch (error) {
      o.onLog({
        level: 'warn',
        code: ServeErrorCode.SKIPPED,
        message: `cannot read directory ${urlDir}`,
        path: urlDir,
        error,
      });
      return;
    }
    for (const d of dirents) {
      if (hidden(d.name, depth) || d.name.includes('\\')) continue;
      let full = join(dirReal, d.name);
      const urlPath = urlDir + d.name;
      if (d.isSymbolicLink()) {
        try {
          full = await realpath(full);
        } catch {
          o.onLog({ level: 'warn', code: ServeErrorCode.SKIPPED, message: `broken symlink ${urlPath}`, path: urlPath });
          continue;
        }
        if (!inside(full)) {
          o.onLog({
            level: 'warn',
            code: ServeErrorCode.SKIPPED,
            message: `symlink ${urlPath} leaves the site root`,
            path: urlPath,
          });
          continue;
        }
      }
      let st;
      try {
        st = await stat(full);
      } catch {
        continue;
      }
      if (st.isDirectory()) await walk(full, `${urlPath}/`, depth + 1);
      else if (st.isFile()) found.push({ urlPath, file: full, size: st.size, mtimeMs: st.mtimeMs });
    }
  }
  await walk(rootReal, o.base ?? '/', 0);

  let memory = 0;
  const small = found.filter((f) => f.size <= o.maxMemoryFileBytes).sort((a, b) => a.size - b.size);
  const keep = new Set<string>();
  for (const f of small) {
    if (memory + f.size > o.memoryBytes) break;
    memory += f.size;
    keep.add(f.urlPath);
  }
  const bodies = new Map<string, Buffer>();
  const digests = new Map<string, Uint8Array>();
  const same = (f: (typeof found)[number]) => {
    const old = o.previous?.files.get(f.urlPath);
    return old && old.file === f.file && old.size === f.size && old.mtimeMs === f.mtimeMs ? old : undefined;
  };
  for (const f of found) {
    const old = same(f);
    // A rebuild under --watch touches a few files: the rest keep the bytes already read and hashed.
    if (old?.body && keep.has(f.urlPath)) bodies.set(f.urlPath, old.body);
    if (old?.digest) digests.set(f.urlPath, old.digest);
  }
  const queue = found.filter((f) => keep.has(f.urlPath) && !bodies.has(f.urlPath));
  const workers = Array.from({ length: 16 }, async () => {
    for (let f = queue.pop(); f; f = queue.pop()) {
      try {
        bodies.set(f.urlPath, await readBody(f.file, f.size));
      } catch (error) {
        o.onLog({
          level: 'warn',
          code: ServeErrorCode.READ,
          message: `cannot read ${f.urlPath}`,
          path: f.urlPath,
          error,
        });
      }
    }
  });
  await Promise.all(workers);

  for (const f of found) {
    const contentType = contentTypeFor(f.urlPath);
    const compressible = isCompressible(contentType) && !f.urlPath.endsWith('.objp');
    const etag = `"${Math.floor(f.mtimeMs).toString(16)}-${f.size.toString(16)}"`;
    const headers: Record<string, string> = {
      'content-type': contentType,
      'content-length': String(f.size),
      etag,
      'last-modified': new Date(f.mtimeMs).toUTCString(),
      'cache-control': o.cacheControl(f.urlPath, contentType),
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    };
    if (compressible) headers.vary = 'Accept-Encoding';
    const body = bodies.get(f.urlPath);
    files.set(f.urlPath, {
      urlPath: f.urlPath,
      file: f.file,
      size: f.size,
      mtimeMs: f.mtimeMs,
      etag,
      contentType,
      compressible,
      headers,
      body: body && body.length === f.size ? body : undefined,
      br: undefined,
      gzip: undefined,
      digest: digests.get(f.urlPath),
      heads: undefined,
    });
  }
  for (const e of files.values()) {
    if (!e.compressible) continue;
    const br = files.get(`${e.urlPath}.br`);
    const gz = files.get(`${e.urlPath}.gz`);
    if (br && br.mtimeMs >= e.mtimeMs) e.br = br;
    if (gz && gz.mtimeMs >= e.mtimeMs) e.gzip = gz;
  }
  return { routes: buildRoutes(files), files, memoryBytes: memory, generation: ++generations };
}

/** Aliases decided once: `/dir/` → its index.html, `/dir` → redirect, `/about` → `/about.html`. */
function buildRoutes(files: Map<string, FileEntry>): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const [p, entry] of files) routes.set(p, { entry });
  for (const [p, entry] of files) {
    if (p.endsWith('/index.html')) {
      const dir = p.slice(0, -'index.html'.length);
      if (!routes.has(dir)) routes.set(dir, { entry });
      if (dir !== '/' && !routes.has(dir.slice(0, -1))) routes.set(dir.slice(0, -1), { redirect: dir });
    }
  }
  for (const [p, entry] of files) {
    if (p.endsWith('.html') && !p.endsWith('/index.html')) {
      const clean = p.slice(0, -'.html'.length);
      if (!routes.has(clean)) routes.set(clean, { entry });
    }
  }
  return routes;
}
