/**
 * Puts a node:http server (objpack serve, sirv) behind the emulated memory-bound machine of
 * memory-model.mjs: every request first waits for its file to come off the emulated disk (0 on a hit),
 * then the server's own request listeners run unchanged. Connections and in-flight requests are
 * counted on the server itself, so persistent idle connections take their memory from the file cache.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { MemoryModel } from './memory-model.mjs';

/**
 * URL path → size of every regular file under `root`.
 * @param {string} root
 */
export function fileSizes(root) {
  /** @type {Map<string, number>} */
  const sizes = new Map();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath ?? entry.path, entry.name);
    sizes.set(`/${relative(root, file).split(sep).join('/')}`, statSync(file).size);
  }
  return sizes;
}

/**
 * @param {import('node:http').Server} server
 * @param {string} root
 * @param {Omit<import('./memory-model.mjs').MemoryModelOptions, 'now'>} options
 */
export function attachMemoryModel(server, root, options) {
  const sizes = fileSizes(root);
  const model = new MemoryModel(options);
  const listeners =
    /** @type {Array<(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void>} */ (
      server.listeners('request')
    );
  server.removeAllListeners('request');
  server.on('connection', (/** @type {import('node:net').Socket} */ socket) => {
    model.connectionOpened();
    socket.once('close', () => model.connectionClosed());
  });
  server.on('request', (req, res) => {
    model.requestStarted();
    let done = false;
    const finished = () => {
      if (!done) {
        done = true;
        model.requestFinished();
      }
    };
    res.once('finish', finished);
    res.once('close', finished);
    const path = urlPath(req.url ?? '/');
    const size = path === null ? undefined : sizes.get(path);
    const wait = size === undefined ? 0 : model.read(/** @type {string} */ (path), size);
    const handle = () => {
      for (const l of listeners) l.call(server, req, res);
    };
    // Node's timers have 1 ms resolution: shorter disk waits cost up to 1 ms (documented in the README).
    if (wait > 0) setTimeout(handle, wait);
    else handle();
  });
  return {
    model,
    /** Cold cache, idle disk, then the `warm` paths (most popular first) while they fit. @param {string[]} warm */
    reset(warm) {
      model.clear();
      model.warm(
        warm.flatMap((p) => {
          const s = sizes.get(p);
          return s === undefined ? [] : [/** @type {[string, number]} */ ([p, s])];
        }),
      );
    },
  };
}

/** @param {string} url */
function urlPath(url) {
  try {
    return decodeURIComponent(new URL(url, 'http://x').pathname);
  } catch {
    return null;
  }
}
