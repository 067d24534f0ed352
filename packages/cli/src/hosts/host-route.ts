import type { HostRoute, HostRouteOptions } from '@objpack/format';
import { WarningCode, warn } from '../errors.js';
import type { Diagnostic } from '../discover/types.js';
import type { RedirectRule } from './host.js';

/** The statuses of a redirect, in every host's config. */
export const REDIRECT = new Set([301, 302, 303, 307, 308]);
/**
 * A rule the host answers with a function or a proxy: recorded as HostRoute status 502, so that `objpack
 * serve` says so there instead of letting a later rule answer (a single-page fallback would serve
 * index.html for `/api/x`, and a fetch of JSON would get HTML).
 */
export const HOST_ONLY = 502;
/** A rewrite serves a file with 200, or with an error status (Netlify's `/en/* /en/404.html 404`). */
export const isRewriteStatus = (s: number): boolean => s === 200 || (s >= 400 && s < 600);
/** A destination on another site (`https://…`). */
export const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;
/** A template's literal `$` (HostRoute: `$$`). */
export const literal = (s: string): string => s.replace(/\$/g, '$$$$');

/** A compiled pattern and its destination template as a HostRoute (flags other than `i` recorded). */
export function route(re: RegExp, to: string, status: number, options: HostRouteOptions = {}): HostRoute {
  const o: HostRouteOptions = { ...(re.flags === 'i' ? {} : { flags: re.flags }), ...options };
  return Object.keys(o).length > 0 ? [re.source, to, status, o] : [re.source, to, status];
}

/** A rule the build cannot read is taken to redirect everything: the host's behaviour is unknown. */
export const takeAll = (file: string, source: string): RedirectRule => ({
  file,
  for: source,
  re: /^/,
  test: () => true,
});

/** A warning about a host's redirects. */
export const redirectsWarning = (file: string, problem: string): Diagnostic =>
  warn(WarningCode.HOST_REDIRECTS, { problem }, { file });

/** A warning about a host's header rules. */
export const headersWarning = (file: string, problem: string): Diagnostic =>
  warn(WarningCode.HOST_HEADERS, { problem }, { file });
