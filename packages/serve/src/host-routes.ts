import { literalPath, RuleIndex } from '@objpack/format';

/** A host redirect or rewrite (manifest `hostRoutes`) as this server applies it. */
export interface ServeRoute {
  re: RegExp;
  /** Destination template: `$1`, `${name}`, `$$` (see the format's HostRoute). */
  to: string;
  status: number;
  /** A file at the URL wins over the rule. */
  shadowed: boolean;
  host?: string;
  unless?: RegExp;
  query?: ReadonlyArray<readonly [string, string]>;
  /**
   * Groups that must have a value not empty (true) or none (false) for the rule to answer (HostRouteOptions.groups).
   */
  groups?: ReadonlyArray<readonly [string, boolean]>;
  /** The host answers with a function or a proxy (status 502, no destination): so does this server, with 502. */
  hostOnly?: true;
  /** The rule names one path (a literal RegExp: linear on any input). */
  literal: boolean;
}

/** The rules in the host's order, with one-path rules found by lookup (a migration's 50,000 redirects). */
export interface HostRouter {
  routes: readonly ServeRoute[];
  index: RuleIndex;
}

/** What a rule makes of a request: a redirect (Location value, ready to send) or a site path to serve. */
export type RouteAnswer =
  { status: number; location: string } | { status: number; rewrite: string } | { status: 502; hostOnly: true };

const REDIRECT = new Set([301, 302, 303, 307, 308]);
const isRewriteStatus = (s: number) => s === 200 || (s >= 400 && s < 600);
/** The only absolute destinations a rule may name: another site over HTTP(S), written out in the rule. */
const EXTERNAL = /^https?:\/\/[^/?#\\]/i;
const STATELESS_FLAGS = /^[imsu]*$/;
const HOST_LABEL = /^[A-Za-z0-9-]*$/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The manifest's `hostRoutes`, checked again (the manifest is a file on disk): a rule whose pattern does
 * not compile, whose destination holds control characters or names a scheme other than http(s), or whose
 * status this server cannot answer with, is dropped. Null when none is left.
 */
export function hostRouter(recorded: unknown): HostRouter | null {
  if (!Array.isArray(recorded)) return null;
  const routes: ServeRoute[] = [];
  for (const r of recorded as unknown[]) {
    if (!Array.isArray(r) || r.length < 3) continue;
    const [match, to, status, options] = r as [unknown, unknown, unknown, unknown];
    const o = (options ?? {}) as {
      flags?: unknown;
      shadowed?: unknown;
      host?: unknown;
      unless?: unknown;
      query?: unknown;
      groups?: unknown;
    };
    const flags = o.flags ?? 'i';
    if (
      typeof match !== 'string' ||
      typeof to !== 'string' ||
      typeof status !== 'number' ||
      typeof flags !== 'string' ||
      !STATELESS_FLAGS.test(flags)
    )
      continue;
    if (CONTROL.test(to)) continue;
    const hostOnly = status === 502 && to === '';
    const external = /^[a-z][a-z0-9+.-]*:/i.test(to);
    if (REDIRECT.has(status) ? external && !EXTERNAL.test(to) : !isRewriteStatus(status) || external) continue;
    const groups =
      o.groups && typeof o.groups === 'object'
        ? Object.entries(o.groups).filter((g): g is [string, boolean] => typeof g[1] === 'boolean')
        : undefined;
    const query = Array.isArray(o.query)
      ? (o.query as unknown[]).filter(
          (q): q is [string, string] => Array.isArray(q) && typeof q[0] === 'string' && typeof q[1] === 'string',
        )
      : undefined;
    try {
      routes.push({
        re: new RegExp(match, flags),
        to,
        status,
        shadowed: o.shadowed === true,
        literal: literalPath(new RegExp(match, flags)) !== undefined,
        ...(hostOnly ? { hostOnly: true as const } : {}),
        ...(typeof o.host === 'string' ? { host: o.host.toLowerCase() } : {}),
        ...(typeof o.unless === 'string' ? { unless: new RegExp(o.unless, flags) } : {}),
        ...(query && query.length > 0 ? { query } : {}),
        ...(groups && groups.length > 0 ? { groups } : {}),
      });
    } catch {
      continue;
    }
  }
  return routes.length > 0 ? { routes, index: new RuleIndex(routes) } : null;
}

/**
 * The first rule that takes `path` (decoded URL path) as the host tries them: in order, a shadowed rule
 * only where `hasFile` is false, a host-bound one only on that `host`, one with query conditions only when
 * the request's `query` (raw) meets them. Undefined when none does: the files answer.
 */
export function matchRoute(
  router: HostRouter,
  path: string,
  query: string,
  host: string | undefined,
  hasFile: boolean,
): RouteAnswer | undefined {
  const patterns = patternsSafe(path);
  for (const i of router.index.candidates([path])) {
    const r = router.routes[i]!;
    if ((r.shadowed && hasFile) || (r.host !== undefined && r.host !== host) || (!r.literal && !patterns)) continue;
    const m = r.re.exec(path);
    if (!m || r.unless?.test(path) || (r.groups && !groupsHold(r.groups, m))) continue;
    let bound: Record<string, string> | undefined;
    if (r.query) {
      bound = queryBinds(r.query, query);
      if (!bound) continue;
    }
    if (r.hostOnly) return { status: 502, hostOnly: true };
    const dest = expand(r.to, m, bound);
    if (dest === undefined) continue;
    if (!REDIRECT.has(r.status)) return { status: r.status, rewrite: dest };
    // The request's query goes along (Netlify, Vercel and superstatic all pass it on), before a fragment.
    const pass = !r.query && query !== '' ? query : '';
    const hash = dest.indexOf('#');
    const [base, frag] = hash === -1 ? [dest, ''] : [dest.slice(0, hash), dest.slice(hash)];
    const location = safeLocation(pass ? `${base}${base.includes('?') ? '&' : '?'}${pass}${frag}` : dest);
    if (location !== undefined) return { status: r.status, location };
  }
  return undefined;
}

/**
 * Whether pattern rules may be tried on `path`. Hosts' patterns put several lazy groups in one segment
 * (Vercel's `/:a-:b-:c` is `([^/]+?)-([^/]+?)-([^/]+?)`), which backtrack polynomially on a segment that
 * almost matches: seconds on a few thousand characters, time a request would hold the event loop for
 * (benchmarks/serve/README.md). No file name is longer than 255 bytes, so a
 * longer segment (or a path past 2,048 characters) is given to the files and to one-path rules only.
 */
export function patternsSafe(path: string): boolean {
  if (path.length > MAX_PATH) return false;
  let start = 0;
  for (;;) {
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    if (end - start > MAX_SEGMENT) return false;
    if (slash === -1) return true;
    start = slash + 1;
  }
}

const MAX_SEGMENT = 255;
const MAX_PATH = 2048;

/** Whether each group has a value not empty (true) or took no part in the match (false); an empty value is neither. */
function groupsHold(groups: ReadonlyArray<readonly [string, boolean]>, m: RegExpExecArray): boolean {
  return groups.every(([name, has]) => {
    const v = /^\d+$/.test(name) ? m[Number(name)] : m.groups?.[name];
    return has ? v !== undefined && v !== '' : v === undefined;
  });
}

/** Netlify's query conditions: every name present; a `:name` value binds it, any other must be equal. */
function queryBinds(
  conditions: ReadonlyArray<readonly [string, string]>,
  query: string,
): Record<string, string> | undefined {
  const params = new URLSearchParams(query);
  const bound: Record<string, string> = {};
  for (const [name, want] of conditions) {
    const got = params.get(name);
    if (got === null) return undefined;
    if (/^:[A-Za-z_]\w*$/.test(want)) bound[want.slice(1)] = got;
    else if (got !== want) return undefined;
  }
  return bound;
}

/**
 * The destination with the match's groups in it: percent-encoded in the path (a `/` stays a separator),
 * and in an external destination's host only as letters, digits and `-`, so a request can never move a
 * redirect to another site (else the rule does not answer). A destination that is not an http(s) URL is a path on this
 * site: its leading slashes and backslashes become one `/`, so no capture (`//evil.example`) makes it
 * protocol-relative.
 */
function expand(to: string, m: RegExpExecArray, bound: Record<string, string> | undefined): string | undefined {
  const external = EXTERNAL.test(to);
  const authorityEnd = external ? to.slice(to.indexOf('//') + 2).search(/[/?#]|$/) + to.indexOf('//') + 2 : 0;
  try {
    const out = to.replace(/\$(\$|\d+|\{(\w+)\})/g, (_t, ref: string, name: string | undefined, at: number) => {
      if (ref === '$') return '$';
      const v = name !== undefined ? (m.groups?.[name] ?? bound?.[name]) : m[Number(ref)];
      if (v === undefined) return '';
      // In the host, only what one DNS label holds: a dot (`https://example.com:splat` with `.evil.example`),
      // or one URL parsing maps to a dot (U+FF0E), would move the redirect to another site.
      if (at < authorityEnd) {
        if (!HOST_LABEL.test(v)) throw new RangeError('a capture would change the host');
        return v;
      }
      return v.split('/').map(encodeURIComponent).join('/');
    });
    return external ? out : `/${out.replace(/^[/\\]+/, '')}`;
  } catch {
    return undefined; // a lone surrogate, or a capture the host cannot take: the rule does not answer
  }
}

/**
 * A Location value with nothing a header or a browser could misread: characters outside URL syntax
 * (space, CR/LF, `\`, `"`, non-ASCII) percent-encoded, a `%` not starting an escape written `%25`.
 */
function safeLocation(url: string): string | undefined {
  try {
    return url.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]%]/gu, (c) =>
      c === '%' ? '%25' : encodeURIComponent(c),
    );
  } catch {
    return undefined;
  }
}
