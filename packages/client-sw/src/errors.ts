/**
 * Every reason the worker steps aside and lets a request go to the network, with a stable code. The worker
 * never throws these at the page: each one becomes a network fallback plus a diagnostic (see `onEvent`).
 * Codes are public API: never renumber, only add.
 */
export const SwErrorCode = {
  PACKAGE_HTTP: 'OBJPSW_PACKAGE_HTTP',
  PACKAGE_NETWORK: 'OBJPSW_PACKAGE_NETWORK',
  DECODE: 'OBJPSW_DECODE',
  NO_HTML: 'OBJPSW_NO_HTML',
  BUILD_MISMATCH: 'OBJPSW_BUILD_MISMATCH',
  OBJECT_ABSENT: 'OBJPSW_OBJECT_ABSENT',
  CACHE_WRITE: 'OBJPSW_CACHE_WRITE',
  ROUTES: 'OBJPSW_ROUTES',
  ABORTED: 'OBJPSW_ABORTED',
  RANGE_REST: 'OBJPSW_RANGE_REST',
  DELTA: 'OBJPSW_DELTA',
  PACKAGE_STALLED: 'OBJPSW_PACKAGE_STALLED',
} as const;

export type SwErrorCode = (typeof SwErrorCode)[keyof typeof SwErrorCode];

/** The worker's one error class; `code` is stable, `url` names the package or object concerned. */
export class ObjpackSwError extends Error {
  override readonly name = 'ObjpackSwError';
  constructor(
    readonly code: SwErrorCode,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    // Message text stays short: the shipped worker carries codes, not prose (Workbox's habit).
    super(`${code} ${url}`, options);
  }
}

/** The code of any error the worker met: its own, the format's (`OBJP_…`), or a DOMException name. */
export function errorCode(err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; name?: unknown };
    if (typeof e.code === 'string') return e.code;
    if (typeof e.name === 'string') return e.name;
  }
  return 'UNKNOWN';
}
