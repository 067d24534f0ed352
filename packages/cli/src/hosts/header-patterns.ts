import { WarningCode, warn } from '../errors.js';
import type { HostWarning } from './host.js';

/** The hosts that read `_headers`, whose matchers differ. */
export type HeadersHost = 'netlify' | 'cloudflare';

// Netlify (@netlify/headers-parser getForRegExp): a segment that starts with `:` is a placeholder (any
// characters after it), `*` anywhere a splat. Cloudflare Pages (workers-shared rules-engine): `:` and a
// letter anywhere in the path is a placeholder (`:10` is not: names begin with a letter), `*` a splat.
// Neither has an escape, and a percent-escape would not match: both compare the path as the browser requests
// it, which keeps `*` and `:` (netlify-cli headersForPath, workers-shared generateRulesMatcher: the URL's pathname).
const PATTERN: Record<HeadersHost, RegExp> = { netlify: /\*|\/:/, cloudflare: /\*|:[A-Za-z]/ };

/**
 * Whether one of `hosts` reads a `_headers` rule path as a pattern, one that matches other URLs too
 * (`/wiki/Help:Contents` on Cloudflare also matches `/wiki/Help_desk`; `/:x.html` on Netlify every top-level URL).
 */
export function isHeadersPattern(path: string, hosts: readonly HeadersHost[]): boolean {
  return hosts.some((h) => PATTERN[h].test(path));
}

/**
 * The warning for pages left without a Link rule in `_headers` because their path holds `*` or `:name`
 * (`hosts`: who reads it so), given only where `_headers` may be read: a build for Vercel, Firebase or
 * nginx alone would hear of it for nothing.
 */
export function linkPatternWarning(
  left: readonly string[],
  hosts: string,
  targets: readonly string[],
): HostWarning | undefined {
  const read = targets.length === 0 || targets.some((t) => t === 'netlify' || t === 'cloudflare');
  if (left.length === 0 || !read) return undefined;
  const parts = { pages: left.length, first: left[0]!, hosts };
  return warn(WarningCode.LINK_RULE_PATTERN, parts, { file: '_headers', ref: left[0] });
}
