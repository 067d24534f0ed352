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
