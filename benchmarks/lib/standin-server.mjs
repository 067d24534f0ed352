/**
 * STAND-IN for @objpack/serve while it is being written: a minimal node:http static server with the same
 * option shape (root, host, port, holdMs, maxConnections). Results taken with it are labelled
 * `node-standin`, never `objpack`.
 */
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.objp': 'application/vnd.objpack',
};

/**
 * @param {{ root: string, host?: string, port?: number, holdMs?: number, maxConnections?: number }} options
 */
export async function serveStandin({ root, host = '127.0.0.1', port = 0, holdMs = 5000, maxConnections }) {
  const server = http.createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (path.includes('..')) {
      res.writeHead(400).end();
      return;
    }
    try {
      const body = await readFile(join(root, path.endsWith('/') ? `${path}index.html` : path));
      res.writeHead(200, {
        'content-type': /** @type {Record<string,string>} */ (TYPES)[extname(path)] ?? 'application/octet-stream',
        'content-length': body.length,
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-length': 0 }).end();
    }
  });
  server.keepAliveTimeout = holdMs;
  if (maxConnections) server.maxConnections = maxConnections;
  await new Promise((r) => server.listen(port, host, () => r(undefined)));
  const addr = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    port: addr.port,
    url: `http://${host}:${addr.port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r(undefined));
      }),
  };
}
