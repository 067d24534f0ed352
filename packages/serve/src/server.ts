import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createSecureServer, type Http2SecureServer, type ServerHttp2Session } from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { ByteLru } from './byte-lru.js';
import { CompressCache } from './compress-cache.js';
import { ConnectionTracker, type ConnectionStats } from './connections.js';
import type { Context, RequestStats } from './context.js';
import { ServeError, ServeErrorCode } from './errors.js';
import { acceptLimit, type FileLimit } from './fd-limit.js';
import { createHandler } from './handler.js';
import { loadSite, resolveRoot } from './load-site.js';
import { resolveOptions, type ServeOptions } from './options.js';
import { Prefetcher, type PrefetchStats } from './prefetch.js';
import { loadTls } from './tls.js';

/** A snapshot of the server's counters. */
export interface ServerStats extends RequestStats {
  prefetch: PrefetchStats;
  connections: ConnectionStats;
  index: { files: number; memoryBytes: number; pages: number; stalePages: number; generation: number };
}

/** A running server. */
export interface ObjpackServer {
  /** `http://127.0.0.1:PORT`; the site is at `url` plus {@link base} (what the CLI prints as `Local:`). */
  readonly url: string;
  /** The URL path the site is served under now (`/`, `/repo/`): the option, else what the build recorded. */
  readonly base: string;
  readonly port: number;
  readonly host: string;
  readonly protocol: 'http' | 'https';
  /** True when HTTP/2 is offered (TLS only). */
  readonly http2: boolean;
  /** The connection cap in force (`maxConnections`, or the default derived from the open-file limit). */
  readonly maxConnections: number;
  /** The open-file limit the default cap was derived from; undefined when `maxConnections` was given. */
  readonly maxConnectionsFrom: FileLimit | undefined;
  /** The underlying Node server, for tests and embedding. */
  readonly server: HttpServer | Http2SecureServer;
  /** Counters since start (prefetch hits/misses, connections, packages…). */
  stats(): ServerStats;
  /** Re-reads the site (files, manifest, stale pages) and swaps it in; in-flight responses finish on the old one. */
  reload(): Promise<void>;
  /**
   * Graceful shutdown: stop accepting, close idle connections, let in-flight responses finish (their
   * connections then close), and cut whatever is left after `timeoutMs` (default `shutdownTimeoutMs`).
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/** Starts a server for a built site. Resolves once it is listening. */
export async function serve(options: ServeOptions): Promise<ObjpackServer> {
  const o = resolveOptions(options);
  const rootReal = await resolveRoot(o.root);
  const [site, tls] = await Promise.all([loadSite(o, rootReal), loadTls(o)]);
  const tracker = new ConnectionTracker({
    maxConnections: o.maxConnections,
    closureHoldMs: o.closureHoldMs,
    closureHoldFrom: o.closureHoldFrom,
    holdMs: o.holdMs,
  });
  const ctx: Context = {
    o,
    site,
    tracker,
    prefetch: new Prefetcher(o.prefetch, o.maxMemoryFileBytes, o.onLog),
    compress: new CompressCache(new ByteLru<Buffer>(o.cacheBytes)),
    packageCache: new ByteLru(o.cacheBytes),
    stats: {
      requests: 0,
      earlyHints: 0,
      notModified: 0,
      errors: 0,
      packages: { prebuilt: 0, dynamic: 0, delta: 0, assembled: 0 },
    },
  };
  const handler = createHandler(() => ctx);
  const timeouts = {
    headersTimeout: o.headersTimeoutMs,
    requestTimeout: o.requestTimeoutMs,
    // Node enforces the two timeouts on this tick; its default (30 s) would let slow clients overstay.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(o.headersTimeoutMs / 2))),
  };
  const useH2 = !!tls && o.http2;
  let server: HttpServer | Http2SecureServer;
  if (tls && useH2) server = createSecureServer({ cert: tls.cert, key: tls.key, allowHTTP1: true }, handler);
  else if (tls) server = createHttpsServer({ cert: tls.cert, key: tls.key, ...timeouts }, handler);
  else server = createHttpServer({ ...timeouts }, handler);
  Object.assign(server, {
    keepAliveTimeout: o.holdMs,
    headersTimeout: o.headersTimeoutMs,
    requestTimeout: o.requestTimeoutMs,
  });
  if (o.maxConnections !== Infinity) {
    server.maxConnections = acceptLimit(o.maxConnections);
    server.on('drop', () => tracker.dropped());
  }
  if (useH2) server.setTimeout(o.holdMs);

  const sessions = new Set<ServerHttp2Session>();
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    tracker.add(socket);
    // Known from ALPN before the session exists: shutdown must not cut h2 streams as "idle".
    if ((socket as TLSSocket).alpnProtocol === 'h2') tracker.get(socket)!.h2 = true;
  });
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
    // 'session' is emitted from http2's own 'secureConnection' listener, before ours has tracked the socket.
    process.nextTick(() => {
      const state = tracker.get(session.socket as Socket);
      if (!state) return;
      state.h2 = true;
      state.shorten = (ms) => void session.setTimeout(ms);
      state.evict = () => session.close();
      session.on('timeout', () => {
        // Node destroys a timed-out session itself only while nobody else listens; do as it does.
        if (tracker.sessionTimedOut(state)) session.destroy();
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (cause: Error) =>
      reject(new ServeError(ServeErrorCode.LISTEN, `cannot listen on ${o.host}:${o.port}`, { cause }));
    server.once('error', onError);
    server.listen(o.port, o.host, () => {
      server.off('error', onError);
      // After start-up, server-level errors (accept failures under EMFILE…) are reported, never fatal.
      server.on('error', (error) =>
        o.onLog({ level: 'error', code: ServeErrorCode.SOCKET, message: 'server error (contained)', error }),
      );
      resolve();
    });
  });
  const addr = server.address();
  const port = addr && typeof addr === 'object' ? addr.port : o.port;
  const protocol = tls ? 'https' : 'http';
  const shownHost =
    o.host === '0.0.0.0' || o.host === '::' ? 'localhost' : o.host.includes(':') ? `[${o.host}]` : o.host;
  let closing: Promise<void> | undefined;

  return {
    url: `${protocol}://${shownHost}:${port}`,
    get base() {
      return ctx.site.base;
    },
    port,
    host: o.host,
    protocol,
    http2: useH2,
    maxConnections: o.maxConnections,
    maxConnectionsFrom: o.maxConnectionsFrom,
    server,
    stats: () => ({
      ...ctx.stats,
      packages: { ...ctx.stats.packages },
      prefetch: ctx.prefetch.stats,
      connections: tracker.stats,
      index: {
        files: ctx.site.index.files.size,
        memoryBytes: ctx.site.index.memoryBytes,
        pages: ctx.site.manifest?.byPackage.size ?? 0,
        stalePages: ctx.site.stale.size,
        generation: ctx.site.index.generation,
      },
    }),
    async reload() {
      ctx.site = await loadSite(o, rootReal, ctx.site);
      ctx.prefetch.clear();
      ctx.packageCache.clear();
      ctx.compress.clear();
    },
    close({ timeoutMs = o.shutdownTimeoutMs } = {}) {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          tracker.destroyAll();
          for (const s of sessions) s.destroy();
        }, timeoutMs);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        tracker.closeIdle();
        for (const s of sessions) s.close();
      });
      return closing;
    },
  };
}
