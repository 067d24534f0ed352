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
