import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import mime from 'mime';

/** A GitHub Pages-like host on 127.0.0.1: project sites under their base paths, nothing else. */
export interface PagesHost {
  origin: string;
  /** Every request's path (with its query) since the last call. */
  take(): string[];
  close(): Promise<void>;
}

/**
 * Serves each directory of `sites` (base path → directory) under its base only, as GitHub Pages serves
 * project sites (`user.github.io/repo/`): a path above or beside every base is 404, `/repo` is a 301 to
 * `/repo/`, a directory is its `index.html` (`/repo/guide` → 301 `/repo/guide/`), `/repo/about` is
 * `about.html`, dotfiles are never served. It sends `no-cache` and no objpack header: the host knows
 * nothing of objpack (GitHub Pages reads no `_headers`).
 */
export async function pagesHost(sites: Record<string, string>): Promise<PagesHost> {
  let seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://host.invalid');
    let p: string;
    try {
      p = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const base = Object.keys(sites).find(
      (b) => p.startsWith(decodeURIComponent(b)) || `${p}/` === decodeURIComponent(b),
    );
    const notFound = () => res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>404</title>');
    if (!base || p.split('/').some((s) => s.startsWith('.'))) return notFound();
    const root = sites[base]!;
    if (`${p}/` === decodeURIComponent(base)) return void res.writeHead(301, { location: base }).end();
    const rel = p.slice(decodeURIComponent(base).length);
    const file = (r: string) => {
      const full = path.join(root, r);
      return statSync(full, { throwIfNoEntry: false });
    };
    let target = rel;
    const st = file(rel);
    if (st?.isDirectory()) {
      if (rel !== '' && !rel.endsWith('/'))
        return void res.writeHead(301, { location: `${url.pathname}/${url.search}` }).end();
      target = `${rel}index.html`;
    } else if (!st && file(`${rel}.html`)?.isFile()) target = `${rel}.html`;
    const found = file(target);
    if (!found?.isFile()) return notFound();
    res.writeHead(200, {
      'content-type': mime.getType(target) ?? 'application/octet-stream',
      'content-length': found.size,
      'cache-control': 'no-cache',
    });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(path.join(root, target))
      .on('error', () => res.destroy())
      .pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    take: () => [seen, (seen = [])][0]!,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
