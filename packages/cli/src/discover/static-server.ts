/**
 * A minimal static server over a walked site (only files in the map are reachable, so dotfiles and
 * anything outside the root never are). Used to load pages in Chromium for `tracePages` and the
 * browser-oracle tests; not the production server (that is @objpack/serve).
 */
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodePath } from './resolve-url.js';
import type { SiteFile } from './types.js';

export interface RunningSite {
  /** 'http://127.0.0.1:PORT' */
  origin: string;
  close(): Promise<void>;
}

/** Serves `files` on 127.0.0.1 at a free port. */
export async function serveFiles(files: ReadonlyMap<string, SiteFile>): Promise<RunningSite> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = decodePath(url.pathname);
    const file =
      typeof path === 'string'
        ? (files.get(path) ?? (path.endsWith('/') ? files.get(`${path}index.html`) : undefined))
        : undefined;
    if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.bytes, 'cache-control': 'no-store' });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file.file)
      .on('error', () => res.destroy())
      .pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
