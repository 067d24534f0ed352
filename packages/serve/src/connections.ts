import type { Socket } from 'node:net';
import type { PageInfo } from './site-manifest.js';

/** Connection counters (papers 001/002: closure-aware early close under a connection cap). */
export interface ConnectionStats {
  open: number;
  total: number;
  /** Connections over `maxConnections` with no idle one to evict: their request got 503. */
  refused: number;
  /** Connections closed at accept: as many again as the cap were already waiting for their 503. */
  dropped: number;
  /** Idle keep-alive connections closed to admit a new one (closure-complete ones first). */
  evicted: number;
  /** Connections that were sent a page's whole closure (or its package). */
  closureComplete: number;
  /** Connections closed by the short closure holding time. */
  shortHoldCloses: number;
}

/** What the server knows about one HTTP/1 connection. */
export interface ConnState {
  socket: Socket;
  /** Requests in flight. */
  active: number;
  requests: number;
  idleSince: number;
  overCap: boolean;
  page: PageInfo | undefined;
  remaining: Set<string> | undefined;
  complete: boolean;
  shortened: boolean;
  /** Carries an HTTP/2 session: shut down by GOAWAY, not by cutting the socket. */
  h2: boolean;
  /** Sets the idle timeout (the socket's for HTTP/1, the session's for HTTP/2). */
  shorten: (ms: number) => void;
  /** Frees the slot of an idle connection: destroys an HTTP/1 socket; sends GOAWAY on an HTTP/2 session. */
  evict: () => void;
}

/** State lives on the socket under a symbol: HTTP/2 hands out a proxy of the socket, which forwards it. */
const kState = Symbol('objpack.connection');
type Tagged = { [kState]?: ConnState };

/**
 * Tracks per connection which objects of the current page's closure were sent. Once all were (or the
 * package was), and at least `closureHoldFrom` connections are open, the idle timeout drops from `holdMs`
 * to `closureHoldMs`: the client has everything the page needs, so holding the slot for it only keeps the
 * next client waiting. With fewer open, no client waits, and a closed connection costs the client a new
 * handshake for its next request.
 */
export class ConnectionTracker {
  readonly #conns = new Map<Socket, ConnState>();
  readonly #stats = { total: 0, refused: 0, dropped: 0, evicted: 0, closureComplete: 0, shortHoldCloses: 0 };
  closing = false;

  constructor(
    readonly opts: { maxConnections: number; closureHoldMs: number; closureHoldFrom: number; holdMs: number },
  ) {}

  get stats(): ConnectionStats {
    return { open: this.#conns.size, ...this.#stats };
  }

  /** A new transport connection (TCP, or TLS after the handshake). */
  add(socket: Socket): void {
    this.#stats.total++;
    const state: ConnState = {
      socket,
      active: 0,
      requests: 0,
      idleSince: Date.now(),
      overCap: false,
      page: undefined,
      remaining: undefined,
      complete: false,
      shortened: false,
      h2: false,
      shorten: (ms) => void socket.setTimeout(ms),
      evict: () => void socket.destroy(),
    };
    if (this.#conns.size >= this.opts.maxConnections && !this.#evictIdle()) state.overCap = true;
    this.#conns.set(socket, state);
    (socket as Tagged)[kState] = state;
    socket.once('close', () => this.#conns.delete(socket));
    socket.on('timeout', () => {
      if (state.shortened && state.active === 0) this.#stats.shortHoldCloses++;
    });
  }

  /**
   * Closes the idle connection that has least claim to its slot; false when every one is busy. An idle
   * HTTP/2 session gets GOAWAY (RFC 9113 §6.8): a request the client raced against it is not processed,
   * and the client retries it on a new connection, so eviction never loses a request.
   */
  #evictIdle(): boolean {
    let victim: ConnState | undefined;
    for (const s of this.#conns.values()) {
      if (s.active > 0 || s.requests === 0 || s.overCap) continue;
      if (
        !victim ||
        (s.complete && !victim.complete) ||
        (s.complete === victim.complete && s.idleSince < victim.idleSince)
      )
        victim = s;
    }
    if (!victim) return false;
    this.#conns.delete(victim.socket);
    victim.evict();
    this.#stats.evicted++;
    return true;
  }

  get(socket: Socket): ConnState | undefined {
    return (socket as Tagged)[kState];
  }

  /** An idle HTTP/2 session timed out (counted like an HTTP/1 socket timeout). */
  sessionTimedOut(state: ConnState): boolean {
    if (!state.shortened || state.active > 0) return false;
    this.#stats.shortHoldCloses++;
    return true;
  }

  /** Counts a refusal (the handler answers 503 and closes). */
  refused(): void {
    this.#stats.refused++;
  }

  /** Counts a connection the listener closed at accept (Node's `server.maxConnections`). */
  dropped(): void {
    this.#stats.dropped++;
  }

  requestStart(state: ConnState): void {
    state.shortened = false;
    state.active++;
    state.requests++;
  }

  /** Response finished: runs after Node re-armed the keep-alive timer, so a shorter one wins. */
  requestEnd(state: ConnState): void {
    state.active--;
    state.idleSince = Date.now();
    if (state.active > 0) return;
    if (this.closing) {
      if (!state.h2) state.socket.destroySoon?.();
      return;
    }
    const busy = this.#conns.size >= this.opts.closureHoldFrom;
    if (state.complete && busy && this.opts.closureHoldMs < this.opts.holdMs) {
      state.shortened = true;
      state.shorten(this.opts.closureHoldMs);
    }
  }

  /** The page's HTML was sent on this connection: start counting its closure. */
  pageSent(state: ConnState, page: PageInfo): void {
    state.page = page;
    state.remaining = new Set(page.closure);
    state.complete = false;
    this.#check(state);
  }

  /** Objects sent on this connection (one file, or everything a package carries). */
  objectsSent(state: ConnState, paths: Iterable<string>): void {
    // Complete stays complete until the next page: skip the walk (a package carries ~100 names).
    if (!state.remaining || state.complete) return;
    for (const p of paths) state.remaining.delete(p);
    this.#check(state);
  }

  /** A package for `page` was sent: the client holds the page's objects it carries. */
  packageSent(state: ConnState, page: PageInfo, objects: Iterable<string>): void {
    if (state.page !== page) this.pageSent(state, page);
    this.objectsSent(state, objects);
  }

  #check(state: ConnState): void {
    if (state.complete || !state.remaining || state.remaining.size > 0) return;
    state.complete = true;
    this.#stats.closureComplete++;
  }

  /** Shutdown: idle connections close now, busy ones after their response. */
  closeIdle(): void {
    this.closing = true;
    for (const s of this.#conns.values()) if (s.active === 0 && !s.h2) s.socket.destroy();
  }

  destroyAll(): void {
    for (const s of this.#conns.values()) s.socket.destroy();
  }

  get size(): number {
    return this.#conns.size;
  }
}
