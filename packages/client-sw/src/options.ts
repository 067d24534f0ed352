import { cachePrefixFor } from './cache-scope.js';
import { webkit } from './engine.js';

/** Something the worker did or gave up on; for logging, tests and the benchmark's per-object cost. */
export interface ObjpackEvent {
  type:
    | 'fallback'
    | 'package-start'
    | 'package-index'
    | 'package-end'
    | 'object-served'
    | 'object-cached'
    | 'cache-error'
    | 'routes-updated'
    | 'caches-deleted'
    | 'mirror'
    | 'prefetch'
    | 'delta'
    | 'warm';
  url: string;
  code?: string;
  /**
   * For `object-served`: ms from the object being verified (or asked for, if later) to the Response being handed over.
   */
  ms?: number;
  /** For `object-served`: when the object's last byte arrived, ms since the epoch (`performance.timeOrigin` based). */
  at?: number;
  /** Free-form detail; for `warm`, how many objects the warm page preloads. */
  detail?: string;
}

/** Options of {@link createObjpackHandler}. Every field is optional. */
export interface ObjpackOptions {
  /** URL of the route table (default `_objpack/routes.json` in the worker's scope: `/repo/_objpack/routes.json`). */
  routesUrl?: string;
  /**
   * Prefix of every Cache Storage cache the worker owns (default `objpack-v1`, with the scope's path for a scope
   * other than `/`: `objpack-v1/repo/`); the kill switch deletes its scope's.
   */
  cachePrefix?: string;
  /**
   * Re-check the route table in the background when it is older than this (ms, default 30 s). The check runs
   * after the navigation has been answered, so it never adds a round trip.
   */
  routesMaxAgeMs?: number;
  /** Mirror origins for packages (paper 004's proxy query protocol): asked with HEAD in parallel. */
  mirrors?: string[];
  /** How long to wait for a mirror's answer before going to the origin (ms, default 250). */
  mirrorTimeoutMs?: number;
  /** Largest number of pages a page may ask the worker to prefetch (default 8 per message). */
  maxPrefetch?: number;
  /**
   * Bytes of packages fetched ahead between two navigations (default 2 MiB): a package whose length would
   * pass it is not fetched. A navigation cancels the prefetches it does not need and starts a new budget.
   */
  prefetchBytes?: number;
  /**
   * Delta packages (default true): when the origin is `objpack serve` (its page-package responses vary on
   * `X-Objpack-Have`), name the objects already held so the package carries only the missing ones.
   */
  delta?: boolean;
  /**
   * Announce the page's critical objects (the route table's `preload` list) in a `Link` header on the
   * navigation response (default true, false in WebKit), so the browser asks for fonts, `@import`ed CSS,
   * background images and imported modules at once; the worker answers them from the package stream. WebKit
   * paints a page whose response announces objects only once they have loaded, so there it is off unless set.
   */
  preload?: boolean;
  /**
   * Answer a page's navigation as soon as its package fetch has started (default true), with headers
   * known from the route table (`text/html; charset=utf-8`, the `Link` preloads) and a body that streams
   * the HTML once the package brings it: the browser sends the preloaded requests during the package's
   * round trip. Any failure before the HTML's first byte turns the body into a one-line refresh, so the
   * page ends exactly as without objpack.
   */
  earlyResponse?: boolean;
  /**
   * Where the browser has static routing (Chromium's `InstallEvent.addRoutes`), let it answer navigations
   * to held pages while the worker is stopped, from a copy of their HTML in Cache Storage, without starting
   * the worker (default true in `objpack-sw.js`, false in `createObjpackHandler`). Pages without a copy then
   * go to the network, not to any fetch handler: a host worker with navigation routes of its own keeps this
   * off.
   */
  stoppedRoute?: boolean;
  /**
   * Give up on a package that sends no headers, or less than 16 KiB of body, in this long (ms, default
   * 10 s): its page and the objects not yet arrived go to the network. A host that accepts the connection
   * and then stalls or trickles would otherwise leave an early-answered page blank. 0 or `Infinity`
   * switches the watchdog off.
   */
  packageStallMs?: number;
  /**
   * Path of the registration snippet every page loads (default `objpack-register.js` in the worker's scope,
   * as `objpack build` writes it; `''` turns this off). The worker keeps a copy, fetched when it installs, and
   * answers pages with it: the host serves the snippet `must-revalidate`, which otherwise costs each navigation a round
   * trip before `DOMContentLoaded` (it is a `defer` script). A new worker version fetches its own copy.
   */
  registerUrl?: string;
  /** Diagnostics hook; the library itself never prints. */
  onEvent?: (event: ObjpackEvent) => void;
}

export interface ResolvedOptions {
  /** Path of the worker's scope (`/`, `/repo/`): the site it serves lies under it, objpack's files too. */
  scopePath: string;
  routesUrl: string;
  cachePrefix: string;
  routesMaxAgeMs: number;
  mirrors: string[];
  mirrorTimeoutMs: number;
  maxPrefetch: number;
  prefetchBytes: number;
  delta: boolean;
  preload: boolean;
  earlyResponse: boolean;
  stoppedRoute: boolean;
  packageStallMs: number;
  /** Pathname of the registration snippet, or '' (off). */
  registerPath: string;
  onEvent: (event: ObjpackEvent) => void;
}

/** The registration snippet's file name, beside the worker in its scope. */
const REGISTER_FILE = 'objpack-register.js';

const stallMs = (v: number | undefined): number => {
  if (v === undefined) return 10_000;
  return Number.isFinite(v) && v > 0 && v <= 2 ** 31 - 1 ? v : 0;
};

/** Options with defaults; `scope` is the registration's scope URL (default the origin's root). */
export function resolveOptions(o: ObjpackOptions = {}, origin: string, scope?: string): ResolvedOptions {
  const scopePath = scope ? new URL(scope, origin).pathname : '/';
  return {
    scopePath,
    routesUrl: new URL(o.routesUrl ?? `${scopePath}_objpack/routes.json`, origin).href,
    cachePrefix: o.cachePrefix ?? cachePrefixFor(scopePath),
    routesMaxAgeMs: o.routesMaxAgeMs ?? 30_000,
    mirrors: (o.mirrors ?? []).map((m) => new URL(m).origin),
    mirrorTimeoutMs: o.mirrorTimeoutMs ?? 250,
    maxPrefetch: o.maxPrefetch ?? 8,
    prefetchBytes: o.prefetchBytes ?? 2 * 1024 * 1024,
    delta: o.delta ?? true,
    preload: o.preload ?? !webkit(),
    earlyResponse: o.earlyResponse ?? true,
    stoppedRoute: o.stoppedRoute ?? true,
    // setTimeout takes at most 2^31−1 ms (beyond, browsers fire at once): 0, Infinity or more means no watchdog.
    packageStallMs: stallMs(o.packageStallMs),
    registerPath: o.registerUrl === '' ? '' : new URL(o.registerUrl ?? `${scopePath}${REGISTER_FILE}`, origin).pathname,
    onEvent: o.onEvent ?? (() => {}),
  };
}
