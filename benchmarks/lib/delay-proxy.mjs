/**
 * Userspace TCP delay/bandwidth proxy: kernel netem is not available on the benchmark machines, and
 * Chrome's throttling does not shape service-worker fetches. Each direction of each connection is a
 * link with a one-way delay (RTT/2) and an optional bandwidth (serialisation delay), so a request/response
 * ping-pong costs one RTT. `handshakeRtts` holds the client's first bytes back for that many RTTs, the
 * cost of TCP's (and, with 2, TLS's) handshake that a loopback connect() does not pay.
 */
import net from 'node:net';

/**
 * @typedef {object} DelayProxyOptions
 * @property {number} targetPort
 * @property {string} [targetHost] default 127.0.0.1
 * @property {number} [rttMs] round-trip time added, split evenly over both directions (default 0)
 * @property {number} [bandwidthBps] per connection and direction, bits per second (default unlimited)
 * @property {boolean} [sharedLink] `bandwidthBps` is one link per direction that every connection through
 *   the proxy shares, first come first served (a home line or a mobile cell): six HTTP/1.1 connections then
 *   get no more bandwidth than one HTTP/2 connection, and a worker's prefetch competes with the page
 * @property {number} [handshakeRtts] RTTs before the first client byte is forwarded (default 1 when rttMs > 0)
 * @property {number} [port] listen port (default 0)
 * @property {number} [maxConnections] forward at most this many connections at once; later ones wait
 *   (unread, as in a listen backlog) until one closes: paper 001's server with a pool of 20 processes
 */

/**
 * One direction of one connection: FIFO of chunks released at their delivery time.
 * @param {net.Socket} dest
 * @param {number} oneWayMs
 * @param {number} bytesPerMs
 * @param {number} notBefore earliest delivery (handshake)
 * @param {(ms: number) => void} [late]
 * @param {{ freeAt: number }} [wire] when the link is free to serialise the next chunk (shared by every
 *   connection with `sharedLink`)
 */
function createLink(dest, oneWayMs, bytesPerMs, notBefore, late, wire = { freeAt: 0 }) {
  /** @type {{ at: number, chunk: Buffer | null }[]} */
  const queue = [];
  /** @type {NodeJS.Timeout | null} */
  let timer = null;
  const pump = () => {
    timer = null;
    const now = performance.now();
    while (queue.length && queue[0].at <= now + 0.5) {
      const { chunk, at } = /** @type {{ at: number, chunk: Buffer | null }} */ (queue.shift());
      // How late the timer released this chunk: event-loop lag adds straight to the emulated delay.
      late?.(Math.max(0, now - at));
      if (dest.destroyed) return;
      if (chunk === null) dest.end();
      else dest.write(chunk);
    }
    if (queue.length) timer = setTimeout(pump, Math.max(0, queue[0].at - performance.now()));
  };
  return {
    /** @param {Buffer | null} chunk null = end of stream */
    push(chunk) {
      const now = performance.now();
      const start = Math.max(now, wire.freeAt);
      wire.freeAt = chunk && bytesPerMs ? start + chunk.length / bytesPerMs : start;
      const at = Math.max(wire.freeAt + oneWayMs, notBefore, queue.length ? queue[queue.length - 1].at : 0);
      queue.push({ at, chunk });
      if (!timer) timer = setTimeout(pump, Math.max(0, at - now));
    },
    clear() {
      if (timer) clearTimeout(timer);
      queue.length = 0;
    },
  };
}

/**
 * Start the proxy.
 * @param {DelayProxyOptions} options
 * @returns {Promise<{ port: number, connections: () => number, maxQueued: () => number, lateness: () => { chunks:
 * number, p50Ms: number, p90Ms: number, maxMs: number }, close: () => Promise<void> }>}
 */
export async function startDelayProxy(options) {
  const { targetPort, targetHost = '127.0.0.1', rttMs = 0, bandwidthBps = 0, port = 0 } = options;
  const handshakeRtts = options.handshakeRtts ?? (rttMs > 0 ? 1 : 0);
  const oneWay = rttMs / 2;
  const bytesPerMs = bandwidthBps > 0 ? bandwidthBps / 8 / 1000 : 0;
  const sockets = new Set();
  /** The two directions of the shared link (`sharedLink`), else undefined: each connection has its own. */
  const wires = options.sharedLink ? { up: { freeAt: 0 }, down: { freeAt: 0 } } : undefined;
  let total = 0,
    active = 0,
    maxQueued = 0;
  /** Lateness of every delayed chunk, ms (kept as counts per 1 ms bucket: bounded memory). */
  const lateHist = new Map();
  let lateN = 0,
    lateMax = 0;
  const late =
    rttMs > 0 || bandwidthBps > 0
      ? (/** @type {number} */ ms) => {
          lateN++;
          lateMax = Math.max(lateMax, ms);
          const b = Math.floor(ms);
          lateHist.set(b, (lateHist.get(b) ?? 0) + 1);
        }
      : undefined;
  /** The q-quantile of lateness (bucket upper bound, ms). */
  const lateQ = (/** @type {number} */ q) => {
    let seen = 0;
    for (const b of [...lateHist.keys()].sort((x, y) => x - y)) {
      seen += lateHist.get(b);
      if (seen >= q * lateN) return b + 1;
    }
    return 0;
  };
  /** @type {net.Socket[]} */
  const waiting = [];
  const release = () => {
    active--;
    const next = waiting.shift();
    if (next) forward(next);
  };
  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }, (client) => {
    total++;
    client.on('error', () => {});
    if (options.maxConnections && active >= options.maxConnections) {
      waiting.push(client);
      maxQueued = Math.max(maxQueued, waiting.length);
      client.once('close', () => {
        const i = waiting.indexOf(client);
        if (i >= 0) waiting.splice(i, 1);
      });
      return;
    }
    forward(client);
  });
  /** @param {net.Socket} client */
  function forward(client) {
    active++;
    let released = false;
    const done = () => {
      if (!released) {
        released = true;
        release();
      }
    };
    const accepted = performance.now();
    const upstream = net.connect({ host: targetHost, port: targetPort, allowHalfOpen: true });
    sockets.add(client);
    sockets.add(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    const up = createLink(upstream, oneWay, bytesPerMs, accepted + handshakeRtts * rttMs + oneWay, late, wires?.up);
    const down = createLink(client, oneWay, bytesPerMs, 0, late, wires?.down);
    client.on('data', (c) => up.push(c));
    client.on('end', () => up.push(null));
    upstream.on('data', (c) => down.push(c));
    upstream.on('end', () => down.push(null));
    const kill = () => {
      up.clear();
      down.clear();
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', kill);
    upstream.on('error', kill);
    client.on('close', () => {
      sockets.delete(client);
      done();
    });
    upstream.on('close', () => sockets.delete(upstream));
    client.resume();
  }
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  const addr = /** @type {net.AddressInfo} */ (server.address());
  return {
    port: addr.port,
    connections: () => total,
    maxQueued: () => maxQueued,
    /** How late the proxy's timers delivered chunks (ms): p50/p90 are 1 ms bucket bounds. */
    lateness: () => ({ chunks: lateN, p50Ms: lateQ(0.5), p90Ms: lateQ(0.9), maxMs: Math.round(lateMax * 10) / 10 }),
    close: () =>
      new Promise((resolve) => {
        for (const s of [...sockets, ...waiting]) /** @type {net.Socket} */ (s).destroy();
        server.close(() => resolve());
      }),
  };
}
