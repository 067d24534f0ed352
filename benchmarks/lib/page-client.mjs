/**
 * Fetch one page's objects the ways the papers compare, with undici:
 * - `http10`     a new connection per object, `Connection: close` (HTTP/1.0 without keep-alive)
 * - `keepalive`  HTTP/1.1 persistent connections, `connections` of them (1 or 6), no pipelining
 * - `pipelined`  HTTP/1.1 on one connection, every request sent at once
 * - `package`    one request for the page's object package, decoded progressively with `Decoder`
 * With `closeWhenDone` (default) the client closes its connections the moment the page's last object has
 * arrived (paper 001: the client knows the page's objects from its tags); without it the connections
 * stay open until the server's holding time closes them.
 */
import { Client, Pool } from 'undici';
import { selfCpuMs } from './cpu.mjs';

/**
 * @typedef {'http10' | 'keepalive' | 'pipelined' | 'package'} FetchMode
 * @typedef {object} PageFetch
 * @property {string} origin e.g. http://127.0.0.1:8080
 * @property {string[]} paths object paths (for `package`: the objects the package must deliver)
 * @property {FetchMode} mode
 * @property {string} [packagePath] URL path of the package (mode `package`)
 * @property {any} [Decoder] the Decoder class of the format package (mode `package`)
 * @property {number} [connections] keep-alive connections (default 1)
 * @property {number} [parallel] concurrent connections in `http10` mode (default 1: the papers' clients)
 * @property {boolean} [closeWhenDone] default true
 * @property {boolean} [htmlFirst] fetch paths[0] (the page) before the rest, as a browser must to learn
 *   the embedded objects (modes other than `package`)
 * @property {import('undici').Dispatcher | null} [dispatcher] reuse this open connection (keepalive/pipelined/package)
 * @property {Record<string, string>} [headers]
 * @typedef {object} PageResult
 * @property {number} ms request of the first object to the last byte of the last object
 * @property {number} firstByteMs request to the first response byte
 * @property {number} readMs first to last byte (000's client response time, from the first completed read)
 * @property {number} bytes body bytes received (package mode: object bytes delivered)
 * @property {number} objects objects completely received
 * @property {number} connections connections opened
 * @property {number} cpuMs this process's CPU during the fetch
 * @property {import('undici').Dispatcher | null} dispatcher still-open dispatcher (closeWhenDone: false)
 */

// Hold idle connections until the server closes them (a browser's behaviour for the 001 experiment).
const HOLD = { keepAliveTimeout: 600_000, keepAliveMaxTimeout: 600_000, keepAliveTimeoutThreshold: 0 };

/**
 * @param {PageFetch} f
 * @returns {Promise<PageResult>}
 */
export async function fetchPage(f) {
  const { origin, paths, mode, closeWhenDone = true, headers = {} } = f;
  const cpu0 = selfCpuMs();
  const t0 = performance.now();
  let firstByte = 0,
    lastByte = 0,
    bytes = 0,
    objects = 0,
    connections = 0;
  /** @type {import('undici').Dispatcher | null} */
  let dispatcher = null;
  const mark = () => {
    const now = performance.now();
    if (!firstByte) firstByte = now;
    lastByte = now;
  };
  /** @param {import('undici').Dispatcher} d @param {string} path @param {boolean} [reset] */
  const get = async (d, path, reset = false) => {
    // undici treats every GET as `blocking` (no further requests until its headers arrive) unless told
    // otherwise, which would quietly turn `pipelined` into one-at-a-time keep-alive.
    const res = await d.request({ path, method: 'GET', headers, reset, blocking: mode !== 'pipelined' });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new Error(`GET ${path}: ${res.statusCode}`);
    }
    for await (const chunk of res.body) {
      bytes += chunk.length;
      mark();
    }
    objects++;
  };
  const track = (/** @type {import('undici').Dispatcher} */ d) => {
    d.on('connect', () => {
      connections++;
    });
    return d;
  };

  if (mode === 'http10') {
    const queue = paths.slice();
    const worker = async () => {
      for (let p = queue.shift(); p !== undefined; p = queue.shift()) await one(p);
    };
    const one = async (/** @type {string} */ p) => {
      const c = track(new Client(origin, { pipelining: 1 }));
      try {
        await get(c, p, true);
      } finally {
        await c.destroy();
      }
    };
    if (f.htmlFirst && queue.length) await one(/** @type {string} */ (queue.shift()));
    await Promise.all(Array.from({ length: Math.max(1, f.parallel ?? 1) }, worker));
  } else if (mode === 'keepalive' || mode === 'pipelined') {
    const n = mode === 'pipelined' ? 1 : Math.max(1, f.connections ?? 1);
    dispatcher =
      f.dispatcher ??
      track(
        n === 1
          ? new Client(origin, { pipelining: mode === 'pipelined' ? Math.max(64, paths.length) : 1, ...HOLD })
          : new Pool(origin, { connections: n, pipelining: 1, ...HOLD }),
      );
    const d = dispatcher;
    if (n === 1 && mode === 'keepalive') for (const p of paths) await get(d, p);
    else if (f.htmlFirst && paths.length) {
      await get(d, /** @type {string} */ (paths[0]));
      await Promise.all(paths.slice(1).map((p) => get(d, p)));
    } else await Promise.all(paths.map((p) => get(d, p)));
  } else if (mode === 'package') {
    if (!f.packagePath || !f.Decoder) throw new Error('package mode needs packagePath and Decoder');
    dispatcher = f.dispatcher ?? track(new Client(origin, { pipelining: 1, ...HOLD }));
    let delivered = 0;
    const decoder = new f.Decoder(
      {
        onObjectData: (/** @type {unknown} */ _e, /** @type {Uint8Array} */ b) => {
          delivered += b.length;
        },
        onObjectEnd: () => {
          objects++;
        },
      },
      { verify: false },
    );
    const res = await dispatcher.request({
      path: f.packagePath,
      method: 'GET',
      headers: { accept: 'application/vnd.objpack', ...headers },
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new Error(`GET ${f.packagePath}: ${res.statusCode}`);
    }
    for await (const chunk of res.body) {
      mark();
      decoder.push(chunk);
    }
    decoder.end();
    bytes = delivered;
    if (objects !== paths.length) throw new Error(`package delivered ${objects} objects, expected ${paths.length}`);
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  const end = performance.now();
  if (closeWhenDone && dispatcher) {
    await dispatcher.destroy();
    dispatcher = null;
  }
  return {
    ms: end - t0,
    firstByteMs: firstByte - t0,
    readMs: lastByte - firstByte,
    bytes,
    objects,
    connections,
    cpuMs: selfCpuMs() - cpu0,
    dispatcher,
  };
}
