import type { Diagnostic } from '../discover/types.js';
import type { HostRoutes, RedirectRule } from './host.js';
import { ABSOLUTE, HOST_ONLY, isRewriteStatus, REDIRECT, redirectsWarning, route, takeAll } from './host-route.js';
import { vercelOrigins } from './vercel-origins.js';

/** A route of Vercel's routing table (getTransformedRoutes), as far as objpack reads it. */
export interface VercelRoute {
  src?: unknown;
  dest?: unknown;
  status?: unknown;
  continue?: unknown;
  handle?: unknown;
  has?: unknown;
  missing?: unknown;
  methods?: unknown;
  headers?: Record<string, unknown>;
}

/** vercel.json's routing: the rules that take URLs before the files, and every route `objpack serve` applies. */
export interface VercelRouting {
  redirects: RedirectRule[];
  routes: HostRoutes;
  diagnostics: Diagnostic[];
}

/** A route `src` as Vercel matches it: anchored only where it says so, without regard to case. */
const vercelSource = (src: string) => (src.startsWith('^') ? src : `[\\s\\S]*?(?:${src})`);
const conditional = (r: VercelRoute) => r.has !== undefined || r.missing !== undefined || r.methods !== undefined;
/** A Vercel destination (`$1`, `$name`) as a HostRoute template. */
const vercelTo = (dest: string) =>
  dest.replace(/\$(\d+|[A-Za-z_]\w*)?/g, (_, ref: string | undefined) =>
    ref === undefined ? '$$' : /^\d/.test(ref) ? `$${ref}` : `\${${ref}}`,
  );

/**
 * `vercel.json` as Vercel routes it, compiled once by its own `getTransformedRoutes` (`redirects`,
 * `cleanUrls`, `trailingSlash`, legacy `routes` before the filesystem; `rewrites` after it, where no file
 * is), each route's `src` compiled once for both uses:
 * - `redirects`: every route before the filesystem that redirects or rewrites takes the URL; a route that
 *   matches without either (trailingSlash's `/.well-known` exception) lets the files answer, so later rules
 *   exclude what it matches. Rules with `has`/`missing` are kept: whether they apply depends on the request.
 *   `text`: the file as written, for each rule's line.
 * - `routes`: what `objpack serve` applies, and what it cannot (conditions, proxies).
 * An invalid config takes every URL from the worker, with a warning; its routes are then none.
 */
export async function vercelRouting(config: unknown, file: string, text?: string): Promise<VercelRouting> {
  const out: VercelRouting = { redirects: [], routes: { routes: [], skipped: [] }, diagnostics: [] };
  const c = (config ?? {}) as Record<string, unknown>;
  const redirecting = ['redirects', 'cleanUrls', 'trailingSlash', 'routes'].some((k) => c[k] !== undefined);
  if (!redirecting && c.rewrites === undefined) return out;
  const { getTransformedRoutes } = await import('@vercel/routing-utils');
  const transform = (rewrites: boolean): { routes: VercelRoute[]; error?: string; code?: string } => {
    const input = {
      cleanUrls: c.cleanUrls,
      trailingSlash: c.trailingSlash,
      redirects: c.redirects,
      routes: c.routes,
      ...(rewrites ? { rewrites: c.rewrites } : {}),
    } as Parameters<typeof getTransformedRoutes>[0];
    try {
      const result = getTransformedRoutes(input);
      const routes = (result.routes ?? []) as VercelRoute[];
      return result.error ? { routes, error: result.error.message, code: result.error.code } : { routes };
    } catch (err) {
      return { routes: [], error: (err as Error).message };
    }
  };
  const all = transform(true);
  // Rewrites come last in Vercel's table, after the filesystem: an invalid one leaves the routes before it
  // whole. Only one that throws needs the table again without them.
  const before =
    all.error === undefined || all.code === 'invalid_rewrite'
      ? { routes: all.routes }
      : c.rewrites !== undefined && all.code === undefined
        ? transform(false)
        : all;
  if (redirecting && before.error !== undefined) {
    out.redirects.push(takeAll(file, 'vercel.json'));
    out.diagnostics.push(redirectsWarning(file, `${before.error} (every URL left to the host)`));
  }
  const { parseTree } = await import('jsonc-parser');
  const whence =
    redirecting && before.error === undefined
      ? vercelOrigins(getTransformedRoutes, c, text, text === undefined ? undefined : parseTree(text))
      : undefined;
  const serve = all.error === undefined;
  const table = serve ? all.routes : before.error === undefined ? before.routes : [];
  const taking = { passes: [] as string[], on: whence !== undefined };
  const serving = { passes: [] as string[], phase: serve ? ('before' as 'before' | 'after' | 'other') : 'other' };
  for (const [i, r] of table.entries()) {
    if (r.handle === 'filesystem') taking.on = false;
    if (r.handle !== undefined)
      serving.phase = r.handle === 'filesystem' && serving.phase === 'before' ? 'after' : 'other';
    if (typeof r.src !== 'string' || (!taking.on && serving.phase === 'other')) continue;
    let re: RegExp | Error;
    try {
      re = new RegExp(vercelSource(r.src), 'i');
    } catch (err) {
      re = err as Error;
    }
    if (taking.on) takeRule(r as VercelRoute & { src: string }, re, whence!(i), taking.passes, file, out);
    if (serving.phase !== 'other' && r.handle === undefined)
      serveRoute(r as VercelRoute & { src: string }, re, serving, file, out.routes);
  }
  return out;
}

/** A route before the filesystem as a rule that takes URLs from the worker (or lets the files answer). */
function takeRule(
  route: VercelRoute & { src: string },
  compiled: RegExp | Error,
  whence: { written?: string; line?: number },
  passes: string[],
  file: string,
  out: VercelRouting,
): void {
  const takes =
    route.dest !== undefined ||
    route.status !== undefined ||
    (route.headers !== undefined && 'Location' in route.headers);
  if (!takes) {
    // A header route (`continue`) matches and goes on; one that stops routing lets the files answer what
    // it matches, but only when it always applies.
    if (route.continue !== true && !conditional(route)) passes.push(route.src);
    return;
  }
  try {
    const guard = passes.length > 0 ? `(?!${passes.map((p) => `(?:${p})`).join('|')})` : '';
    const re = guard ? new RegExp(`^${guard}(?:${vercelSource(route.src)})`, 'i') : compiled;
    if (re instanceof Error || compiled instanceof Error) throw re instanceof Error ? re : compiled;
    const dest = route.dest;
    out.redirects.push({
      file,
      for: route.src,
      re,
      test: (u) => re.test(u),
      ...whence,
      ...(conditional(route) ? {} : { beforeFiles: true as const }),
      ...(typeof dest === 'string' && route.status === undefined ? { keeps: keeps(compiled, dest) } : {}),
    });
  } catch (err) {
    out.redirects.push(takeAll(file, route.src));
    out.diagnostics.push(
      redirectsWarning(file, `${route.src}: ${(err as Error).message} (every URL left to the host)`),
    );
  }
}

/** Whether a vercel.json route serves a URL its own file: its `dest`, `$1`… and `$name` filled in, is the URL. */
const keeps =
  (re: RegExp, dest: string) =>
  (u: string): boolean => {
    const m = re.exec(u);
    return (
      m !== null &&
      dest.replace(
        /\$(\d+|[A-Za-z_]\w*)/g,
        (_t, ref: string) => (/^\d/.test(ref) ? m[Number(ref)] : m.groups?.[ref]) ?? '',
      ) === u
    );
  };

/**
 * A route as `objpack serve` applies it: routes before the filesystem first, rewrites after it (`shadowed`).
 * A route that stops routing without redirecting lets the files answer: later routes exclude what it matches.
 */
function serveRoute(
  r: VercelRoute & { src: string },
  compiled: RegExp | Error,
  state: { passes: string[]; phase: 'before' | 'after' | 'other' },
  file: string,
  out: HostRoutes,
): void {
  const { passes, phase } = state;
  const location = r.headers && typeof r.headers.Location === 'string' ? r.headers.Location : undefined;
  const status = typeof r.status === 'number' ? r.status : undefined;
  const skip = (why: string) => void out.skipped.push({ file, for: r.src, why });
  if (location === undefined && r.dest === undefined) {
    if (status !== undefined) skip(`status ${status} without a destination`);
    else if (phase === 'before' && r.continue !== true && !conditional(r)) passes.push(r.src);
    return;
  }
  if (conditional(r)) return skip('depends on the request (`has`/`missing`/`methods`)');
  const redirect = location !== undefined && status !== undefined && REDIRECT.has(status);
  const to = redirect ? location : typeof r.dest === 'string' ? r.dest : undefined;
  const code = redirect ? status : (status ?? 200);
  if (to === undefined || (!redirect && !isRewriteStatus(code))) return skip('not a redirect or a rewrite to a path');
  const proxy = !redirect && ABSOLUTE.test(to);
  if (proxy) skip('a proxy to another site');
  try {
    if (compiled instanceof Error) throw compiled;
    if (passes.length > 0) new RegExp(passes.join('|'), 'i');
  } catch {
    if (!proxy) skip('not a valid pattern');
    return;
  }
  const unless = passes.length > 0 ? passes.map((p) => `(?:${p})`).join('|') : undefined;
  const scope = {
    ...(phase === 'after' ? { shadowed: true as const } : {}),
    ...(unless !== undefined ? { unless } : {}),
  };
  out.routes.push(proxy ? route(compiled, '', HOST_ONLY, scope) : route(compiled, vercelTo(to), code, scope));
}
