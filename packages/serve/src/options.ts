import { checkBasePath } from '@objpack/format';
import { ServeError, ServeErrorCode } from './errors.js';
import { defaultMaxConnections, fileLimit, type FileLimit } from './fd-limit.js';

/** One diagnostic from the server. The library never prints; the CLI decides what to show. */
export interface ServeLogEvent {
  level: 'debug' | 'info' | 'warn' | 'error';
  /** Stable code from {@link ServeErrorCode} for warnings and errors; `SERVE_*` names only. */
  code?: string;
  message: string;
  path?: string;
  error?: unknown;
}

/** Options of {@link serve}. Every CLI flag of `objpack serve` maps to one field here. */
export interface ServeOptions {
  /** Site root (the directory `objpack build` wrote into). Required. */
  root: string;
  /**
   * The URL path the site root is served under (`/repo/`, as GitHub Pages serves a project site): nothing
   * above it is served (404), and `/repo` redirects to `/repo/`. Default: the base the build recorded in
   * the manifest, else `/`.
   */
  base?: string;
  /** Interface to listen on (default `127.0.0.1`; `0.0.0.0` or `::` to serve the network). */
  host?: string;
  /** TCP port; 0 (the default) picks a free one — read it from `server.port` / `server.url`. */
  port?: number;
  /**
   * Serve over TLS. `true` generates a self-signed certificate for localhost on the fly (unless
   * `cert`/`key` are given); an object passes PEM contents directly.
   */
  https?: boolean | { cert: string | Uint8Array; key: string | Uint8Array };
  /** Path of a PEM certificate file (implies `https`). */
  cert?: string;
  /** Path of a PEM private key file (implies `https`). */
  key?: string;
  /** Offer HTTP/2 over TLS (HTTP/1.1 stays available through ALPN). Default true when `https`. */
  http2?: boolean;
  /** Send `103 Early Hints` with `Link: rel=preload` for a page's critical objects (default true). */
  earlyHints?: boolean;
  /**
   * Answer a page request that carries `Accept: application/vnd.objpack` or `X-Objpack: package` with the
   * page's package (the thesis' `Prefetching: true`), `Vary: Accept, X-Objpack` (default true).
   */
  packages?: boolean;
  /**
   * Disk-to-memory prefetch: when a page is served, read its closure into a byte-bounded LRU cache before
   * the browser asks. A byte budget, or `false` to switch it off (default 64 MiB).
   */
  prefetch?: number | false;
  /**
   * Bytes of small files the start-up index keeps in memory (sirv's production mode, plus bodies).
   * Files that do not fit are read from disk per request — the case prefetch helps. Default 64 MiB.
   */
  memoryBytes?: number;
  /** Largest file held in memory by the index or the prefetch cache (default 1 MiB: a typical page package). */
  maxMemoryFileBytes?: number;
  /**
   * Byte budget of each of two caches: compressed bodies, and assembled dynamic/delta packages (default 32 MiB; 0 = no
   * caching).
   */
  cacheBytes?: number;
  /** Keep-alive holding time of an idle HTTP/1.1 connection, ms (default 5000, Node's default). */
  holdMs?: number;
  /**
   * Holding time once the connection has been sent a page's whole closure (or its package), ms; the
   * papers' early close. Default 500. Set equal to `holdMs` to switch closure-aware closing off.
   */
  closureHoldMs?: number;
  /**
   * Open connections from which `closureHoldMs` applies (default half of `maxConnections`; 0: always). With
   * room to spare, closing a connection frees a slot nobody waits for and costs the client a new TCP and TLS
   * handshake when it comes back (a worker's next package, a script's late chunk): HTTP/2 gives a browser
   * one connection per origin.
   */
  closureHoldFrom?: number;
  /**
   * Most open connections. A new connection over the cap first evicts an idle one (closure-complete ones
   * first); only when none is idle is its request answered 503 with `Retry-After`, and once as many again
   * wait for that answer, further connections are closed at accept. Default: a third of the open-file
   * limit (`RLIMIT_NOFILE`, read from `/proc/self/limits`; 1024 assumed where it cannot be read) less a
   * reserve, so sockets never take the descriptors that the files they are sent need. `Infinity`: no cap.
   */
  maxConnections?: number;
  /**
   * Dynamic packages: assemble a page's package on the fly when its files changed since the build, and
   * answer `X-Objpack-Have: <digests>` with a delta package (default true).
   */
  dynamic?: boolean;
  /**
   * With `dynamic`: while the whole delta listing (`/_objpack/listing`: every page package's objects and
   * digests) is at most this many bytes of JSON, a worker gets all of it in one request; past it, only the
   * packages it asks for (default 512 KiB: ~1,480 pages of the SURGE-like site, 355 bytes each).
   */
  listingBytes?: number;
  /** Time allowed to receive request headers, ms (default 10 s; Node's default is 60 s). */
  headersTimeoutMs?: number;
  /** Time allowed to receive a whole request, ms (default 30 s; Node's default is 300 s). */
  requestTimeoutMs?: number;
  /** `close()` waits this long for in-flight responses before cutting connections, ms (default 5000). */
  shutdownTimeoutMs?: number;
  /** Compress text responses on the fly when no precompressed sibling exists (default true). */
  compress?: boolean;
  /** Diagnostics hook (warnings, contained errors, debug). Never required; the library never prints. */
  onLog?: (event: ServeLogEvent) => void;
}

/** Options with every default applied. */
type Defaulted = Omit<ServeOptions, 'https' | 'cert' | 'key' | 'onLog' | 'maxConnections' | 'prefetch' | 'base'>;
export interface ResolvedOptions extends Required<Defaulted> {
  /** The base path asked for (checked and spelt by checkBasePath); undefined: the manifest's. */
  base: string | undefined;
  https: ServeOptions['https'];
  cert: string | undefined;
  key: string | undefined;
  prefetch: number;
  maxConnections: number;
  /** The open-file limit the default `maxConnections` was derived from; undefined when it was given. */
  maxConnectionsFrom: FileLimit | undefined;
  onLog: (event: ServeLogEvent) => void;
}

const MiB = 1024 * 1024;

function nonNegative(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new ServeError(ServeErrorCode.BAD_OPTION, `${name} must be a non-negative number (got ${String(v)})`);
  }
  return v;
}

/** Applies defaults and rejects nonsense early, with SERVE_BAD_OPTION. */
export function resolveOptions(o: ServeOptions): ResolvedOptions {
  if (!o || typeof o.root !== 'string' || o.root === '')
    throw new ServeError(ServeErrorCode.BAD_OPTION, 'root is required');
  const port = nonNegative('port', o.port, 0);
  if (!Number.isInteger(port) || port > 65535)
    throw new ServeError(ServeErrorCode.BAD_OPTION, `port must be 0–65535 (got ${port})`);
  const https = o.https ?? (o.cert !== undefined || o.key !== undefined ? true : false);
  if ((o.cert === undefined) !== (o.key === undefined))
    throw new ServeError(ServeErrorCode.BAD_OPTION, 'cert and key go together');
  const holdMs = nonNegative('holdMs', o.holdMs, 5000);
  const base = o.base === undefined ? undefined : checkBasePath(o.base);
  if (base && !base.ok) {
    throw new ServeError(ServeErrorCode.BAD_OPTION, `base ${JSON.stringify(o.base)} is not a URL path: ${base.reason}`);
  }
  const limit = o.maxConnections === undefined ? fileLimit() : undefined;
  const maxConnections = limit
    ? defaultMaxConnections(limit.files)
    : o.maxConnections === Infinity
      ? Infinity
      : Math.max(1, nonNegative('maxConnections', o.maxConnections, 0));
  return {
    root: o.root,
    base: base?.base,
    host: o.host ?? '127.0.0.1',
    port,
    https,
    cert: o.cert,
    key: o.key,
    http2: o.http2 ?? Boolean(https),
    earlyHints: o.earlyHints ?? true,
    packages: o.packages ?? true,
    prefetch: o.prefetch === false ? 0 : nonNegative('prefetch', o.prefetch, 64 * MiB),
    memoryBytes: nonNegative('memoryBytes', o.memoryBytes, 64 * MiB),
    maxMemoryFileBytes: nonNegative('maxMemoryFileBytes', o.maxMemoryFileBytes, MiB),
    cacheBytes: nonNegative('cacheBytes', o.cacheBytes, 32 * MiB),
    holdMs,
    closureHoldMs: Math.min(holdMs, nonNegative('closureHoldMs', o.closureHoldMs, 500)),
    closureHoldFrom: nonNegative('closureHoldFrom', o.closureHoldFrom, Math.ceil(maxConnections / 2)),
    maxConnections,
    maxConnectionsFrom: limit,
    dynamic: o.dynamic ?? true,
    listingBytes: nonNegative('listingBytes', o.listingBytes, 512 * 1024),
    headersTimeoutMs: nonNegative('headersTimeoutMs', o.headersTimeoutMs, 10_000),
    requestTimeoutMs: nonNegative('requestTimeoutMs', o.requestTimeoutMs, 30_000),
    shutdownTimeoutMs: nonNegative('shutdownTimeoutMs', o.shutdownTimeoutMs, 5000),
    compress: o.compress ?? true,
    onLog: o.onLog ?? (() => {}),
  };
}
