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

/**
 * What each code means and what to do, for the README's codes reference. No worker code reads it, so the
 * shipped worker carries codes and no prose (Workbox's habit); `errors.test.ts` checks the bundle.
 */
export const SW_ERRORS: Record<SwErrorCode, { what: string; hint: string }> = {
  OBJPSW_PACKAGE_HTTP: {
    what: 'A package request was answered with a status other than 200 or 206; the page goes to the network.',
    hint: "deploy the build's _objpack/ directory with the pages, and check the host serves .objp files",
  },
  OBJPSW_PACKAGE_NETWORK: {
    what: 'A package request failed on the network (offline, DNS, reset); only that navigation goes to the network.',
    hint: 'nothing to do when the visitor is offline; otherwise check the host answers package URLs',
  },
  OBJPSW_DECODE: {
    what: 'A package failed its checks while it streamed in (the format code is in the event detail).',
    hint: 'rebuild and redeploy; check that nothing between host and browser rewrites .objp responses',
  },
  OBJPSW_NO_HTML: {
    what: "The page's package holds no HTML object for the page, or one with another content type.",
    hint: 'rebuild: the route table and the packages come from different builds',
  },
  OBJPSW_BUILD_MISMATCH: {
    what: 'Kept for a package of another build; not reported by this version, which checks builds as OBJPSW_DELTA.',
    hint: 'nothing to do: the code stays reserved',
  },
  OBJPSW_OBJECT_ABSENT: {
    what: 'An object the route table promised is missing from its package and from the cache.',
    hint: 'rebuild and redeploy the whole output; a partial upload leaves packages behind their table',
  },
  OBJPSW_CACHE_WRITE: {
    what: 'Kept for failed Cache Storage writes; this version reports those by their DOMException name.',
    hint: 'nothing to do: the code stays reserved',
  },
  OBJPSW_ROUTES: {
    what: 'The route table could not be fetched or is malformed; navigations go to the network until it loads.',
    hint: 'deploy _objpack/routes.json with the build, answered with status 200 and not rewritten',
  },
  OBJPSW_ABORTED: {
    what: 'A package stream was abandoned: the navigation was cancelled, or a newer build retired the package.',
    hint: 'nothing to do: the browser asked for something else',
  },
  OBJPSW_RANGE_REST: {
    what: 'The rest of a partly received package could not be fetched with a Range request.',
    hint: 'let the host answer Range requests for .objp files with 206',
  },
  OBJPSW_DELTA: {
    what: 'A delta package could not be merged with the held objects (missing, or of another build).',
    hint: 'nothing to do: the worker falls back to the whole package or the network',
  },
  OBJPSW_PACKAGE_STALLED: {
    what: 'A package stopped arriving before its page was complete; the page and missing objects go to the network.',
    hint: 'check the host or CDN does not buffer or throttle .objp responses',
  },
};

/** Every code with what went wrong and what to do, for the README's codes reference (scripts/diagnostics-docs.mjs). */
export const codesReference = (): Array<{ code: string; level: 'error'; meaning: string; hint: string }> =>
  (Object.keys(SW_ERRORS) as SwErrorCode[]).map((code) => ({
    code,
    level: 'error',
    meaning: SW_ERRORS[code].what,
    hint: SW_ERRORS[code].hint,
  }));

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
