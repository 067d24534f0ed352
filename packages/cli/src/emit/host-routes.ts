import type { HostRoute, HostRouteOptions } from '@objpack/format';
import { firebaseCaptures, regexCaptures } from './firebase-capture.js';
import { firebaseGlob, fromRe2, netlifyFrom, type VercelRoute } from './host-redirects.js';
import { globRegExp, type FirebaseHosting } from './host-json-rules.js';

/**
 * The host's redirects and rewrites as `objpack serve` applies them (manifest `hostRoutes`), and the rules
 * it cannot apply (`skipped`: a function, a proxy, a condition on the visitor), which the build names in a
 * warning. Destinations become HostRoute templates (`$1`, `${name}`, `$$`).
 */
export interface HostRoutes {
  routes: HostRoute[];
  skipped: Array<{ file: string; for: string; why: string }>;
}

const REDIRECT = new Set([301, 302, 303, 307, 308]);
/**
 * A rule the host answers with a function or a proxy: recorded as HostRoute status 502, so that `objpack
 * serve` says so there instead of letting a later rule answer (a single-page fallback would serve
 * index.html for `/api/x`, and a fetch of JSON would get HTML).
 */
const HOST_ONLY = 502;
/** A rewrite serves a file with 200, or with an error status (Netlify's `/en/* /en/404.html 404`). */
const isRewriteStatus = (s: number) => s === 200 || (s >= 400 && s < 600);
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;
/** A template's literal `$` (HostRoute: `$$`). */
const literal = (s: string) => s.replace(/\$/g, '$$$$');

function route(re: RegExp, to: string, status: number, options: HostRouteOptions = {}): HostRoute {
  const o: HostRouteOptions = { ...(re.flags === 'i' ? {} : { flags: re.flags }), ...options };
  return Object.keys(o).length > 0 ? [re.source, to, status, o] : [re.source, to, status];
}

/**
 * A `_redirects` `from` as netlifyFrom reads it, with its placeholders as named groups: `:name` is
 * `${name}` in the destination and `*` is `${splat}`, as Netlify substitutes them.
 */
export function netlifyCapture(from: string): { re: RegExp; host?: string; names: Set<string> } {
  const { host } = netlifyFrom(from);
  let p = host === undefined ? from : from.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/';
  const names = new Set<string>();
  const group = (name: string, body: string) => {
    if (names.has(name)) return `(?:${body})`;
    names.add(name);
    return `(?<${name}>${body})`;
  };
  const splat = p.endsWith('/*');
  if (splat) p = p.slice(0, -2);
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  const body = p.replace(/:[A-Za-z_]\w*|\*|[.+?^${}()|[\]\\/]/g, (t) =>
    t === '*' ? group('splat', '.*') : t.startsWith(':') ? group(t.slice(1), '[^/]+') : `\\${t}`,
  );
  const re = new RegExp(`^${body}${splat ? `(?:\\/${group('splat', '.*')})?` : '\\/?'}$`, 'i');
  return host === undefined ? { re, names } : { re, host, names };
}

/** One `_redirects` / netlify.toml rule from Netlify's parser, as a route or the reason it is skipped. */
export function netlifyRoute(
  r: {
    from?: unknown;
    to?: unknown;
    status?: unknown;
    force?: unknown;
    query?: unknown;
    conditions?: unknown;
    signed?: unknown;
    proxy?: unknown;
  },
  file: string,
  out: HostRoutes,
): void {
  if (typeof r.from !== 'string' || typeof r.to !== 'string') return;
  const skip = (why: string) => void out.skipped.push({ file, for: r.from as string, why });
  const status = typeof r.status === 'number' ? r.status : 301;
  const conditions = r.conditions && typeof r.conditions === 'object' ? Object.keys(r.conditions) : [];
  if (conditions.length > 0) return skip(`depends on the visitor (${conditions.join(', ')})`);
  const redirect = REDIRECT.has(status);
  const { re, host, names } = netlifyCapture(r.from);
  const query = Object.entries(
    r.query && typeof r.query === 'object' ? (r.query as Record<string, unknown>) : {},
  ).filter((e): e is [string, string] => typeof e[1] === 'string');
  const scope: HostRouteOptions = {
    ...(r.force === true ? {} : { shadowed: true }),
    ...(host !== undefined ? { host } : {}),
    ...(query.length > 0 ? { query } : {}),
  };
  const hostOnly = (why: string) => {
    skip(why);
    out.routes.push(route(re, '', HOST_ONLY, scope));
  };
  if (r.signed !== undefined && r.signed !== false) return hostOnly('a signed proxy');
  if (!redirect && (r.proxy === true || ABSOLUTE.test(r.to))) return hostOnly('a proxy to another site');
  if (!redirect && r.to.startsWith('/.netlify/')) return hostOnly('a Netlify function or service');
  if (!redirect && !isRewriteStatus(status)) return skip(`status ${status}`);
  for (const [, v] of query) if (/^:[A-Za-z_]\w*$/.test(v)) names.add(v.slice(1));
  const to = r.to.replace(/\$|:([A-Za-z_]\w*)/g, (t, name: string | undefined) =>
    t === '$' ? '$$' : names.has(name!) ? `\${${name}}` : t,
  );
  out.routes.push(route(re, to, status, scope));
}

/** A Vercel destination (`$1`, `$name`) as a HostRoute template. */
const vercelTo = (dest: string) =>
  dest.replace(/\$(\d+|[A-Za-z_]\w*)?/g, (_, ref: string | undefined) =>
    ref === undefined ? '$$' : /^\d/.test(ref) ? `$${ref}` : `\${${ref}}`,
  );

/**
 * `vercel.json` as Vercel routes it (`getTransformedRoutes`): routes before the filesystem (`redirects`,
 * `cleanUrls`, `trailingSlash`, legacy `routes`) apply first; `rewrites` after it, where no file is. A route
 * that stops routing without redirecting lets the files answer: later routes exclude what it matches.
 */
export async function vercelRoutes(config: unknown, file: string): Promise<HostRoutes> {
  const out: HostRoutes = { routes: [], skipped: [] };
  const c = (config ?? {}) as Record<string, unknown>;
  if (
    c.redirects === undefined &&
    c.rewrites === undefined &&
    c.cleanUrls === undefined &&
    c.trailingSlash === undefined &&
    c.routes === undefined
  )
    return out;
  const { getTransformedRoutes } = await import('@vercel/routing-utils');
  const input = {
    cleanUrls: c.cleanUrls,
    trailingSlash: c.trailingSlash,
    redirects: c.redirects,
    rewrites: c.rewrites,
    routes: c.routes,
  } as Parameters<typeof getTransformedRoutes>[0];
  let routes: VercelRoute[];
  try {
    const result = getTransformedRoutes(input);
    // host-redirects.ts reports an invalid config; here it only means nothing to apply.
    if (result.error) return out;
    routes = (result.routes ?? []) as VercelRoute[];
  } catch {
    return out;
  }
  const passes: string[] = [];
  let phase: 'before' | 'after' | 'other' = 'before';
  for (const r of routes) {
    if (r.handle !== undefined) {
      phase = r.handle === 'filesystem' && phase === 'before' ? 'after' : 'other';
      continue;
    }
    if (phase === 'other' || typeof r.src !== 'string') continue;
    const location = r.headers && typeof r.headers.Location === 'string' ? r.headers.Location : undefined;
    const status = typeof r.status === 'number' ? r.status : undefined;
    const skip = (why: string) => void out.skipped.push({ file, for: r.src as string, why });
    if (location === undefined && r.dest === undefined) {
      const conditional = r.has !== undefined || r.missing !== undefined || r.methods !== undefined;
      if (status !== undefined) skip(`status ${status} without a destination`);
      else if (phase === 'before' && r.continue !== true && !conditional) passes.push(r.src);
      continue;
    }
    if (r.has !== undefined || r.missing !== undefined || r.methods !== undefined) {
      skip('depends on the request (`has`/`missing`/`methods`)');
      continue;
    }
    const redirect = location !== undefined && status !== undefined && REDIRECT.has(status);
    const to = redirect ? location : typeof r.dest === 'string' ? r.dest : undefined;
    const code = redirect ? status : (status ?? 200);
    if (to === undefined || (!redirect && !isRewriteStatus(code))) {
      skip('not a redirect or a rewrite to a path');
      continue;
    }
    const proxy = !redirect && ABSOLUTE.test(to);
    if (proxy) skip('a proxy to another site');
    let re: RegExp;
    try {
      re = new RegExp(r.src.startsWith('^') ? r.src : `[\\s\\S]*?(?:${r.src})`, 'i');
      if (passes.length > 0) new RegExp(passes.join('|'), 'i');
    } catch {
      if (!proxy) skip('not a valid pattern');
      continue;
    }
    const unless = passes.length > 0 ? passes.map((p) => `(?:${p})`).join('|') : undefined;
    const scope = {
      ...(phase === 'after' ? { shadowed: true as const } : {}),
      ...(unless !== undefined ? { unless } : {}),
    };
    out.routes.push(proxy ? route(re, '', HOST_ONLY, scope) : route(re, vercelTo(to), code, scope));
  }
  return out;
}

/**
 * Firebase Hosting's `redirects` (before any file) and `rewrites` (where no file is) as superstatic
 * applies them. A redirect whose destination names `:segments` is first matched with path-to-regexp 1.x
 * (its `source`/`glob`, see firebaseCaptures) or its `regex` (regexCaptures), and those segments substituted; else its
 * pattern matches and the destination is taken as written. Redirects keep the request's query
 * (superstatic's addQuery).
 */
export async function firebaseRoutes(site: FirebaseHosting, file: string): Promise<HostRoutes> {
  const out: HostRoutes = { routes: [], skipped: [] };
  const { minimatch } = await import('minimatch');
  const { default: pathToRegexp } = await import('path-to-regexp');
  const list = (v: unknown) => (Array.isArray(v) ? (v as unknown[]) : []);
  for (const e of list(site.redirects)) {
    const { source, glob, regex, destination, type } = (e ?? {}) as Record<string, unknown>;
    const pattern = typeof glob === 'string' ? glob : typeof source === 'string' ? source : undefined;
    if ((pattern === undefined && typeof regex !== 'string') || typeof destination !== 'string') continue;
    const status = typeof type === 'number' ? type : 301;
    const label = pattern ?? (regex as string);
    if (!REDIRECT.has(status)) {
      out.skipped.push({ file, for: label, why: `type ${status}` });
      continue;
    }
    // superstatic turns a destination `/https:/…` back into the external URL.
    const dest = destination.replace('/http:/', 'http://').replace('/https:/', 'https://');
    try {
      const captures = /(?:^|\/):/.test(dest);
      if (pattern !== undefined) {
        const g = firebaseGlob(pattern);
        // What the capture pattern takes never reaches the glob, even where the destination cannot be filled.
        let unless: string | undefined;
        if (captures) {
          const c = firebaseCaptures(pathToRegexp, g, dest);
          for (const v of c.routes) out.routes.push(route(v.re, v.to, status));
          if (c.fails) unless = c.re.source;
        }
        out.routes.push(route(globRegExp(minimatch, g), literal(dest), status, unless !== undefined ? { unless } : {}));
      } else {
        const re = fromRe2(regex as string);
        if (!captures) out.routes.push(route(re, literal(dest), status));
        else
          for (const c of regexCaptures(pathToRegexp, dest))
            out.routes.push(route(re, c.to, status, Object.keys(c.groups).length > 0 ? { groups: c.groups } : {}));
      }
    } catch {
      out.skipped.push({ file, for: label, why: 'not a valid pattern' });
    }
  }
  for (const e of list(site.rewrites)) {
    const { source, glob, regex, destination } = (e ?? {}) as Record<string, unknown>;
    const pattern = typeof glob === 'string' ? glob : typeof source === 'string' ? source : undefined;
    const label = pattern ?? (typeof regex === 'string' ? regex : '?');
    if (pattern === undefined && typeof regex !== 'string') continue;
    const hostOnly = typeof destination !== 'string' || ABSOLUTE.test(destination) || destination.startsWith('//');
    if (hostOnly) out.skipped.push({ file, for: label, why: 'a function, a Cloud Run service or another site' });
    try {
      const re = pattern !== undefined ? globRegExp(minimatch, firebaseGlob(pattern)) : fromRe2(regex as string);
      out.routes.push(
        hostOnly
          ? route(re, '', HOST_ONLY, { shadowed: true })
          : route(re, literal(destination as string), 200, { shadowed: true }),
      );
    } catch {
      if (!hostOnly) out.skipped.push({ file, for: label, why: 'not a valid pattern' });
    }
  }
  return out;
}
