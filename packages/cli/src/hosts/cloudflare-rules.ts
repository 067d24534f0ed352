/** How Cloudflare Pages reads the `_headers` and `_redirects` it shares with Netlify. */

/**
 * A `_headers` path as Cloudflare Pages matches it. Its parser (workers-shared parseHeaders → validateUrl)
 * keeps the path as the URL parser spells it (`new URL('//' + path, 'relative://').pathname`: non-ASCII
 * and spaces percent-encoded, escapes already written kept as written), and its rules engine
 * (generateRulesMatcher) compiles it with `*` a splat and `:name` a segment anywhere, anchored at both
 * ends, with no flags, and tests it on `new URL(request.url).pathname`: the path as requested, case and
 * escapes included. So `/About.html` is not `/about.html` there, `/caf%c3%a9/` is not `/caf%C3%A9/`, and
 * `/café/` is. Netlify's parser (the default) ignores case and allows a trailing slash.
 */
export function cloudflareRuleRegExp(rulePath: string): RegExp {
  let path = rulePath;
  try {
    path = new URL(`//${rulePath.startsWith('/') ? rulePath : `/${rulePath}`}`, 'relative://').pathname;
  } catch {
    // Cloudflare skips a path it cannot parse; as written it matches nothing a browser sends either.
  }
  const source = path
    .split('*')
    .map((part) => part.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&').replace(/:[A-Za-z]\w*/g, '[^/]+'))
    .join('.*');
  return new RegExp(`^${source}$`);
}

/**
 * Which rules of a `_redirects` file Cloudflare Pages applies, as its parser (workers-sdk
 * `parseRedirects`) accepts them, in its order of checks: a destination that is a path or an `https://` URL
 * (`http://` is refused), a status of 200, 301, 302, 303, 307 or 308 (no `!`: `200!` is an invalid status
 * there), no conditions, neither `/* /index.html` nor `/ /index.html`, which it drops as an infinite loop (its
 * own HTML handling strips `.html` and `/index`), the first rule for each source only, and a relative
 * destination for a 200 (a proxy to another origin is refused after its source is taken, so a later rule
 * of that source is still a duplicate). Cloudflare Pages applies the rules it accepts before its files
 * ("Redirects are always followed, regardless of whether or not an asset matches").
 */
export function cloudflareAccepts(): (r: {
  from: string;
  to?: unknown;
  status?: unknown;
  force?: unknown;
  conditions?: unknown;
  query?: unknown;
}) => boolean {
  const seen = new Set<string>();
  return (r) => {
    if (typeof r.to !== 'string' || r.force === true || /^[a-z][a-z0-9+.-]*:\/\//i.test(r.from)) return false;
    if ([r.conditions, r.query].some((c) => c && typeof c === 'object' && Object.keys(c).length > 0)) return false;
    const https = /^https:\/\/+[^/]/.test(r.to);
    if (!https && !r.to.startsWith('/')) return false;
    const status = typeof r.status === 'number' ? r.status : 302;
    if (![200, 301, 302, 303, 307, 308].includes(status)) return false;
    if (!https && /\/index(?:\.html)?$/.test(r.to) && (r.from.endsWith('/*') || r.from.endsWith('/'))) return false;
    if (seen.has(r.from)) return false;
    seen.add(r.from);
    return !(status === 200 && https);
  };
}
