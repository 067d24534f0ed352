/**
 * A Node HTTP server in its own process, so its CPU time (process.cpuUsage) and the client's are
 * measured apart. Started by servers.mjs with a JSON config in argv[2]; answers IPC `stats` / `reset`.
 * Request timing and connection-seconds come from Node's diagnostics channels, so any node:http server
 * (objpack serve, sirv, the stand-in) is measured the same way without knowing its internals.
 */
import dc from 'node:diagnostics_channel';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { attachMemoryModel } from './memory-bound.mjs';

const config = JSON.parse(process.argv[2] ?? '{}');

const stats = { requests: 0, finished: 0, firstStart: 0, lastFinish: 0, connections: 0, closedConnMs: 0, maxOpen: 0 };
/** @type {Map<import('node:net').Socket, number>} */
const open = new Map();
let cpuBase = process.cpuUsage();
/** @type {ReturnType<typeof attachMemoryModel> | null} the emulated memory-bound server, when configured */
let model = null;
/** @type {any} */
let ownBase = null;

/** a − b for every numeric leaf (objpack serve's counters are cumulative since start). */
function diff(/** @type {any} */ a, /** @type {any} */ b) {
  if (typeof a === 'number') return typeof b === 'number' ? a - b : a;
  if (!a || typeof a !== 'object') return a;
  /** @type {Record<string, any>} */
  const out = {};
  for (const [k, v] of Object.entries(a)) out[k] = diff(v, b?.[k]);
  return out;
}

/** A response is over at 'close', which also fires when the client hangs up before 'finish' could. */
function onResponseClose() {
  stats.lastFinish = performance.now();
  stats.finished++;
}
dc.subscribe('http.server.request.start', (msg) => {
  const now = performance.now();
  if (!stats.firstStart) stats.firstStart = now;
  stats.requests++;
  // Not 'http.server.response.finish': an HTTP/1.0 client that has its bytes closes the socket, and a
  // server that ends the response after that (a piped file stream) never emits 'finish' under load.
  /** @type {{ response: import('node:http').ServerResponse }} */ (msg).response.once('close', onResponseClose);
});
dc.subscribe('net.server.socket', (msg) => {
  const socket = /** @type {{ socket: import('node:net').Socket }} */ (msg).socket;
  stats.connections++;
  open.set(socket, performance.now());
  stats.maxOpen = Math.max(stats.maxOpen, open.size);
  socket.once('close', () => {
    const t = open.get(socket);
    if (t !== undefined) stats.closedConnMs += performance.now() - t;
    open.delete(socket);
  });
});

async function start() {
  const { kind, root, options = {} } = config;
  if (kind === 'objpack') {
    const { serve } = await import(pathToFileURL(config.bundle).href);
    const server = await serve({ root, port: 0, host: '127.0.0.1', ...options });
    if (config.memoryModel) model = attachMemoryModel(server.server, root, config.memoryModel);
    const port = server.port ?? server.address?.()?.port ?? Number(new URL(server.url).port);
    return { port, close: () => server.close(), stats: () => server.stats?.() };
  }
  if (kind === 'sirv') {
    const sirv = (await import('sirv')).default;
    const handler = sirv(root, { dev: false, etag: true });
    const server = http.createServer((req, res) =>
      handler(req, res, () => {
        res.statusCode = 404;
        res.end();
      }),
    );
    if (config.memoryModel) model = attachMemoryModel(server, root, config.memoryModel);
    server.keepAliveTimeout = options.holdMs ?? 5000;
    if (options.maxConnections) server.maxConnections = options.maxConnections;
    await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
    return {
      port: /** @type {import('node:net').AddressInfo} */ (server.address()).port,
      close: () => new Promise((r) => server.close(() => r(undefined))),
    };
  }
  const { serveStandin } = await import('./standin-server.mjs');
  return serveStandin({ root, ...options });
}

const server = /** @type {{ port: number, close: () => Promise<unknown>, stats?: () => unknown }} */ (await start());
process.on('message', async (/** @type {any} */ msg) => {
  if (msg.cmd === 'reset') {
    Object.assign(stats, {
      requests: 0,
      finished: 0,
      firstStart: 0,
      lastFinish: 0,
      connections: 0,
      closedConnMs: 0,
      maxOpen: open.size,
    });
    for (const s of open.keys()) open.set(s, performance.now());
    cpuBase = process.cpuUsage();
    ownBase = server.stats?.() ?? null;
    if (model) model.reset(msg.warm ?? []);
    process.send?.({ id: msg.id, ok: true });
  } else if (msg.cmd === 'stats') {
    // A client can hold a response's last byte before this process has seen the write complete and
    // emitted 'finish'; wait (bounded) for in-flight responses so the numbers cover every request.
    for (let waited = 0; stats.finished < stats.requests && waited < 1000; waited += 5) {
      await new Promise((r) => setTimeout(r, 5));
    }
    const cpu = process.cpuUsage(cpuBase);
    const now = performance.now();
    let openMs = 0;
    for (const t of open.values()) openMs += now - t;
    process.send?.({
      id: msg.id,
      cpuMs: (cpu.user + cpu.system) / 1000,
      requests: stats.requests,
      connections: stats.connections,
      responseMs: stats.firstStart && stats.lastFinish ? stats.lastFinish - stats.firstStart : 0,
      connSeconds: (stats.closedConnMs + openMs) / 1000,
      openConnections: open.size,
      maxOpen: stats.maxOpen,
      rssBytes: process.memoryUsage().rss,
      own: server.stats ? diff(server.stats(), ownBase) : undefined,
      memory: model ? { ...model.model.stats, capacityNow: model.model.capacity() } : undefined,
    });
  } else if (msg.cmd === 'close') {
    await server.close();
    process.send?.({ id: msg.id, ok: true });
    process.exit(0);
  }
});
process.send?.({ ready: true, port: server.port });
