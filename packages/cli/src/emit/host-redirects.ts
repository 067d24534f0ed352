import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { RuleIndex } from '@objpack/format';
import { WarningCode } from '../errors.js';
import { cloudflareAccepts } from './cloudflare-redirects.js';
import { ConfigLines } from './config-lines.js';
import { valueAt } from './json-node.js';
import { splitCapture } from './firebase-capture.js';
import { globRegExp, type FirebaseHosting } from './host-json-rules.js';
import { netlifyRoute, type HostRoutes } from './host-routes.js';
import { netlifyKeeps, vercelKeeps, vercelOrigins } from './rule-source.js';
import { hostAliasOf, safeDecode } from '../discover/site-origin.js';
import type { Diagnostic } from '../discover/types.js';

/**
 * A host rule that answers a URL itself before looking at the site's files: a redirect, or a rewrite that
 * shadows a file. A page at such a URL is not what the host serves there, so the worker must leave the URL
 * to the host. Deliberately wide where the host's decision depends on the request (cookies, country, query)
 * or on the host (Netlify applies unforced redirects only where no file exists, Cloudflare Pages always):
 * a URL left to the network costs only speed.
 */
export interface RedirectRule {
  /** Config file it comes from (for messages). */
  file: string;
  /** The rule's source pattern as written. */
  for: string;
  /** The pattern for the worker (route table `redirects`), tested against URL paths. */
  re: RegExp;
  /** Whether the host applies the rule to a URL path (for the build's own report of redirected pages). */
  test(urlPath: string): boolean;
  /** The rule applies on this host only (a Netlify domain-level rule, `https://a.example/*`). */
  host?: string;
  /**
   * The rule applies only where no file is (Netlify's unforced rules): to a page only at its clean URL
   * (`/about` for about.html), which may not count as a file there.
   */
  cleanOnly?: boolean;
  /**
   * The host applies the rule before its files whatever the request: Netlify's forced rules without
   * conditions, vercel.json routes before the filesystem without `has`/`missing`, firebase.json `redirects`.
   * Unset where that depends on the host (an unforced `_redirects` rule, which Cloudflare Pages applies
   * first and Netlify only where no file is) or on the request.
   */
  beforeFiles?: true;
  /**
   * Cloudflare Pages, which also reads the rule's file, applies it before its files where Netlify (the rule
   * unforced) would not: a `_redirects` rule Cloudflare accepts, in a site with no netlify.toml.
   */
  beforeFilesOn?: 'Cloudflare Pages';
  /** The rule serves a URL its own file (a rewrite to itself: `/_objpack/*  /_objpack/:splat  200!`). */
  keeps?: (urlPath: string) => boolean;
  /** The rule's line in `file`, when found. */
  line?: number;
  /** The rule as written where `for` is what the host compiled of it (vercel.json: `/(.*)`, `cleanUrls`). */
  written?: string;
}

/** A rule the build cannot read is taken to redirect everything: the host's behaviour is unknown. */
export const takeAll = (file: string, source: string): RedirectRule => ({
  file,
  for: source,
  re: /^/,
  test: () => true,
});

const warn = (file: string, message: string): Diagnostic => ({
  code: WarningCode.HOST_REDIRECTS,
  severity: 'warning',
  message: `host redirects: ${message}`,
  file,
});

/**
 * A `_redirects` `from` path as a RegExp, wide enough for both hosts that read the file: `:name` is one
 * segment or the rest of one (Cloudflare Pages also takes `/post-:id.html`), `*` anything (Netlify only
 * at the end, Cloudflare anywhere), a final `/*` also the bare path (`/blog`); a trailing slash is optional
 * and case is ignored (Netlify normalizes both). A domain-level `from` (`https://a.example/*`) gives its
 * host (RedirectRule.host) and its path.
 */
export function netlifyFrom(from: string): { re: RegExp; host?: string } {
  let p = from;
  let host: string | undefined;
  const abs = /^[a-z][a-z0-9+.-]*:\/\/([^/]*)/i.exec(p);
  if (abs) {
    host = abs[1]!.toLowerCase();
    p = p.slice(abs[0].length) || '/';
  }
  const splat = p.endsWith('/*');
  if (splat) p = p.slice(0, -2);
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  const body = p.replace(/:[A-Za-z_]\w*|\*|[.+?^${}()|[\]\\/]/g, (t) =>
    t === '*' ? '.*' : t.startsWith(':') ? '[^/]+' : `\\${t}`,
  );
  const re = new RegExp(`^${body}${splat ? '(?:\\/.*)?' : '\\/?'}$`, 'i');
  return host ? { re, host } : { re };
}

/**
 * `_redirects` in `root` and `[[redirects]]` of the site's `netlify.toml` (`toml`), with Netlify's parser.
 * Netlify applies a rule to a URL that has a file only when it is forced (`301!`, `200!`: "shadowing");
 * Cloudflare Pages applies every rule before it looks for files. With a netlify.toml the site is Netlify's.
 * The same rules, parsed once, go to `routes` as `objpack serve` applies them (Netlify's way).
 */
export async function netlifyRedirects(
  root: string,
  toml: string | undefined,
  diagnostics: Diagnostic[],
  routes?: HostRoutes,
): Promise<RedirectRule[]> {
  const file = path.join(root, '_redirects');
  // One source at a time, so each rule names its file; Netlify takes `_redirects` first.
  const sources = [
    ...(existsSync(file) ? [{ label: '_redirects', path: file, redirectsFiles: [file] }] : []),
    ...(toml ? [{ label: 'netlify.toml', path: toml, redirectsFiles: [], netlifyConfigPath: toml }] : []),
  ];
  const rules: RedirectRule[] = [];
  for (const { label, path: at, ...source } of sources) {
    // Only `_redirects` is Cloudflare's, and only where no netlify.toml says the site is Netlify's.
    const cloudflare = label === '_redirects' && toml === undefined ? cloudflareAccepts() : undefined;
    let redirects: unknown[] = [];
    const lines = new ConfigLines(await readFile(at, 'utf8').catch(() => ''));
    // A `_redirects` line starts with its `from`; a netlify.toml `[[redirects]]` names it in `from = "…"`.
    const written = (from: string) => (l: string) =>
      label === '_redirects' ? l.trim().split(/\s+/)[0] === from : /^\s*from\s*=\s*(["'])(.*)\1/.exec(l)?.[2] === from;
    try {
      const { parseAllRedirects } = await import('@netlify/redirect-parser');
      const parsed = await parseAllRedirects({ ...source, configRedirects: [], minimal: false });
      redirects = parsed.redirects;
      for (const e of parsed.errors as Error[]) diagnostics.push(warn(label, String(e?.message ?? e).split('\n')[0]!));
    } catch (err) {
      diagnostics.push(warn(label, `not read: ${(err as Error).message}`));
    }
    for (const r of redirects as Array<{
      from?: unknown;
      to?: unknown;
      status?: unknown;
      force?: unknown;
      conditions?: unknown;
      query?: unknown;
    }>) {
      if (routes) netlifyRoute(r, label, routes);
      if (typeof r.from !== 'string') continue;
      const line = lines.nextLine(written(r.from));
      const conditional = [r.conditions, r.query].some((c) => c && typeof c === 'object' && Object.keys(c).length > 0);
      const status = typeof r.status === 'number' ? r.status : 301;
      const redirect = status >= 300 && status < 400;
      const { re, host } = netlifyFrom(r.from);
      // Forced rules take any URL. Unforced: on Netlify (a netlify.toml) only where no file is; without one
      // the file may be Cloudflare Pages', which applies every rule first, so redirects and rewrites of
      // one named path take it too. An unforced wildcard rewrite (`/* /index.html 200`, a single-page
      // app's fallback on Netlify) would, on Cloudflare Pages, replace every page: taken to be Netlify's.
      const wildcard = /[*:]/.test(r.from.replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''));
      const full = r.force === true || (toml === undefined && (redirect || !wildcard));
      rules.push({
        file: label,
        for: r.from,
        re,
        test: (u) => re.test(u),
        ...(host ? { host } : {}),
        ...(full ? {} : { cleanOnly: true }),
        ...(r.force === true && !conditional ? { beforeFiles: true as const } : {}),
        ...(line !== undefined ? { line } : {}),
        ...(cloudflare?.({ ...r, from: r.from }) ? { beforeFilesOn: 'Cloudflare Pages' as const } : {}),
        ...(status === 200 && typeof r.to === 'string' ? { keeps: netlifyKeeps(r.from, r.to) } : {}),
      });
    }
  }
  return rules;
}

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

/**
 * `vercel.json` as Vercel routes it, compiled by its own `getTransformedRoutes` (`redirects`, `cleanUrls`,
 * `trailingSlash`, legacy `routes`): every route before the filesystem that redirects or rewrites takes
 * the URL; a route that matches without either (trailingSlash's `/.well-known` exception) lets the files
 * answer, so later rules exclude what it matches. Rules with `has`/`missing` are kept: whether they apply
 * depends on the request. Matched without regard to case, as Vercel routes are. `text`: the file as written,
 * for each rule's line.
 */
export async function vercelRedirects(
  config: unknown,
  file: string,
  text?: string,
): Promise<{ rules: RedirectRule[]; diagnostics: Diagnostic[] }> {
  const c = (config ?? {}) as Record<string, unknown>;
  if (c.redirects === undefined && c.cleanUrls === undefined && c.trailingSlash === undefined && c.routes === undefined)
    return { rules: [], diagnostics: [] };
  const { getTransformedRoutes } = await import('@vercel/routing-utils');
  const input = {
    cleanUrls: c.cleanUrls,
    trailingSlash: c.trailingSlash,
    redirects: c.redirects,
    routes: c.routes,
  } as Parameters<typeof getTransformedRoutes>[0];
  let result: ReturnType<typeof getTransformedRoutes>;
  try {
    result = getTransformedRoutes(input);
  } catch (err) {
    return {
      rules: [takeAll(file, 'vercel.json')],
      diagnostics: [warn(file, `${(err as Error).message} (every URL left to the host)`)],
    };
  }
  if (result.error)
    return {
      rules: [takeAll(file, 'vercel.json')],
      diagnostics: [warn(file, `${result.error.message} (every URL left to the host)`)],
    };
  const rules: RedirectRule[] = [];
  const diagnostics: Diagnostic[] = [];
  const passes: string[] = [];
  const { parseTree } = await import('jsonc-parser');
  const whence = vercelOrigins(getTransformedRoutes, c, text, text === undefined ? undefined : parseTree(text));
  for (const [i, route] of ((result.routes ?? []) as VercelRoute[]).entries()) {
    if (route.handle === 'filesystem') break;
    if (typeof route.src !== 'string') continue;
    const takes =
      route.dest !== undefined ||
      route.status !== undefined ||
      (route.headers !== undefined && 'Location' in route.headers);
    if (!takes) {
      // A header route (`continue`) matches and goes on; one that stops routing lets the files answer what
      // it matches, but only when it always applies.
      const conditional = route.has !== undefined || route.missing !== undefined || route.methods !== undefined;
      if (route.continue !== true && !conditional) passes.push(route.src);
      continue;
    }
    try {
      const src = route.src.startsWith('^') ? route.src : `[\\s\\S]*?(?:${route.src})`;
      const guard = passes.length > 0 ? `(?!${passes.map((p) => `(?:${p})`).join('|')})` : '';
      const re = new RegExp(guard ? `^${guard}(?:${src})` : src, 'i');
      const conditional = route.has !== undefined || route.missing !== undefined || route.methods !== undefined;
      const keeps =
        typeof route.dest === 'string' && route.status === undefined ? { keeps: vercelKeeps(src, route.dest) } : {};
      rules.push({
        file,
        for: route.src,
        re,
        test: (u) => re.test(u),
        ...whence(i),
        ...(conditional ? {} : { beforeFiles: true as const }),
        ...keeps,
      });
    } catch (err) {
      rules.push(takeAll(file, route.src));
      diagnostics.push(warn(file, `${route.src}: ${(err as Error).message} (every URL left to the host)`));
    }
  }
  return { rules, diagnostics };
}

/** A Firebase redirect or rewrite glob with its leading `/` (a negating `!` is left as written). */
export const firebaseGlob = (g: string): string => (g.startsWith('/') || g.startsWith('!') ? g : `/${g}`);

/**
 * A Firebase Hosting site's redirects as superstatic applies them, before any file: `redirects` (`source`
 * or `glob` matched with minimatch, or `regex`; a `source` whose destination uses `:name` segments is also
 * matched as a path pattern), then what `cleanUrls` and `trailingSlash` do to a URL that names a file:
 * `.html` paths go to their clean form, and with `trailingSlash: false` a directory's `/dir/` to `/dir`.
 * `text`: the file as written, for each rule's line; `at`: where the site is in it (`['hosting', 1]` for
 * the second of several sites), so a rule's line is the one in this site's `redirects`, not another's.
 */
export async function firebaseRedirects(
  site: FirebaseHosting,
  file: string,
  text?: string,
  at: ReadonlyArray<string | number> = ['hosting'],
): Promise<{ rules: RedirectRule[]; diagnostics: Diagnostic[] }> {
  const rules: RedirectRule[] = [];
  // jsonc-parser gives each value's offsets in the text: each rule's line is that of its own `source`,
  // `glob` or `regex` value, never the same string written elsewhere (an earlier rule's destination).
  const { parseTree } = await import('jsonc-parser');
  const tree = text === undefined ? undefined : parseTree(text);
  const lines = tree ? new ConfigLines(text!) : undefined;
  // superstatic's redirects middleware runs before it looks for files.
  const where = (i: number, key: string) => {
    const node = tree && valueAt(tree, [...at, 'redirects', i, key]);
    const line = node ? lines!.lineAt(node.offset) : undefined;
    return { beforeFiles: true as const, ...(line !== undefined ? { line } : {}) };
  };
  const diagnostics: Diagnostic[] = [];
  const { minimatch } = await import('minimatch');
  const { default: pathToRegexp } = await import('path-to-regexp');
  const list = site.redirects;
  if (list !== undefined && !Array.isArray(list)) diagnostics.push(warn(file, '`hosting.redirects` is not a list'));
  for (const [i, e] of (Array.isArray(list) ? (list as unknown[]) : []).entries()) {
    const { source, glob, regex, destination } = (e ?? {}) as {
      source?: unknown;
      glob?: unknown;
      regex?: unknown;
      destination?: unknown;
    };
    const pattern = typeof glob === 'string' ? glob : typeof source === 'string' ? source : undefined;
    try {
      if (pattern !== undefined) {
        const g = firebaseGlob(pattern);
        const asGlob = globRegExp(minimatch, g);
        // superstatic matches a rule whose destination names `:segments` with path-to-regexp 1.x first
        // (any case, optional trailing slash, `:x?`, `:x*`, `*`), then with minimatch.
        const asPath = typeof destination === 'string' && /(?:^|\/):/.test(destination) ? pathToRegexp(g) : undefined;
        const placed = where(i, typeof glob === 'string' ? 'glob' : 'source');
        const split = asPath ? splitCapture(pathToRegexp, pattern, destination as string) : undefined;
        if (split)
          diagnostics.push({ ...warn(file, split), ...(placed.line !== undefined ? { line: placed.line } : {}) });
        const re = asPath ? new RegExp(`(?:${asGlob.source})|(?:${asPath.source})`, 'i') : asGlob;
        rules.push({ file, for: pattern, re, test: (u) => minimatch(u, g) || (asPath?.test(u) ?? false), ...placed });
      } else if (typeof regex === 'string') {
        const re = fromRe2(regex);
        rules.push({ file, for: regex, re, test: (u) => re.test(u), ...where(i, 'regex') });
      } else {
        diagnostics.push(warn(file, `entry ${JSON.stringify(e)?.slice(0, 80)} has no \`source\`/\`regex\`; left out`));
      }
    } catch (err) {
      rules.push(takeAll(file, pattern ?? String(regex)));
      diagnostics.push(
        warn(file, `${pattern ?? String(regex)}: ${(err as Error).message} (every URL left to the host)`),
      );
    }
  }
  if (site.cleanUrls === true) {
    const re = /\.html$/;
    rules.push({ file, for: 'cleanUrls', re, test: (u) => re.test(u) });
  }
  if (site.trailingSlash === false) {
    const re = /^\/.+\/$/;
    rules.push({ file, for: 'trailingSlash: false', re, test: (u) => re.test(u) });
  }
  if (site.trailingSlash === true) {
    // `/about` (about.html) goes to `/about/`: the worker's clean URL for a page.
    const re = /^(?:.*\/)?[^/.]+$/;
    rules.push({ file, for: 'trailingSlash: true', re, test: (u) => re.test(u) });
  }
  return { rules, diagnostics };
}

/**
 * A Firebase `regex` (RE2 syntax) as a JavaScript RegExp: `(?P<name>` is `(?<name>`, a leading `(?i)` the
 * `i` flag; Unicode mode where it compiles, else without it (it refuses escapes RE2 allows, like `\\-`).
 */
export function fromRe2(regex: string): RegExp {
  let src = regex.replace(/\(\?P</g, '(?<');
  let flags = '';
  const inline = /^\(\?([ims]+)\)/.exec(src);
  if (inline) {
    flags = [...new Set(inline[1]!.replace('m', ''))].join('');
    src = src.slice(inline[0].length);
  }
  try {
    return new RegExp(src, `${flags}u`);
  } catch {
    return new RegExp(src, flags);
  }
}

/** Largest pages × pattern rules product for which pattern rules that take no page are dropped from the route table. */
const FILTER_LIMIT = 4_000_000;

/**
 * Which pages the host's rules take, and which rules the worker needs. `redirected`: pages whose URL as
 * the site links it (`/guide/`, `/about.html`, with clean URLs `/about` or `/about/`, with bare directory URLs `/guide`) a rule takes, with the first such
 * rule (for the build's warning). `rules`: those that take any URL the worker would answer for a page
 * (also `/guide/index.html`, and `/about.html` with clean URLs), as sent or percent-decoded; the rest
 * concern URLs the worker leaves to the network anyway and would only weigh on the route table. Rules
 * naming one path are looked up by it, so 50,000 of them cost what a few do; pattern rules are tested
 * against every page, up to FILTER_LIMIT tests (past it, all of them are kept).
 */
export function applyRedirects(
  urls: readonly string[],
  rules: readonly RedirectRule[],
  {
    cleanUrls,
    bareDirUrls = false,
    cleanSlashUrls = false,
  }: { cleanUrls: boolean; bareDirUrls?: boolean; cleanSlashUrls?: boolean },
  host?: string,
): { redirected: Array<{ url: string; rule: RedirectRule }>; rules: RedirectRule[] } {
  const redirected: Array<{ url: string; rule: RedirectRule }> = [];
  // A domain-level rule for another host than the site's (when `--origin` names it) never applies.
  const live = rules.filter((r) => r.host === undefined || host === undefined || r.host === host.toLowerCase());
  if (live.length === 0) return { redirected, rules: [] };
  const index = new RuleIndex(live);
  // A URL as written and percent-decoded (hosts match either), decoded once per URL, not once per rule.
  const forms = (u: string): string[] => {
    const d = safeDecode(u);
    return d === undefined || d === u ? [u] : [u, d];
  };
  const takes = (r: RedirectRule, us: readonly string[]) => us.some((u) => r.test(u));
  const filter = urls.length * index.patterns.length <= FILTER_LIMIT;
  const used = new Set<RedirectRule>(filter ? [] : index.patterns.map((i) => live[i]!));
  for (const url of urls) {
    const bare = hostAliasOf(url, { cleanUrls, bareDirUrls, cleanSlashUrls });
    const clean = bare === undefined ? undefined : forms(bare);
    const seen = clean ?? forms(url);
    // The host applies the first rule that takes the URL.
    const first = index
      .candidates(seen)
      .find((i) => (clean !== undefined || !live[i]!.cleanOnly) && takes(live[i]!, seen));
    if (first !== undefined) redirected.push({ url: bare ?? url, rule: live[first]! });
    const files = [...forms(url), ...(url.endsWith('/') ? forms(`${url}index.html`) : [])];
    for (const i of index.literals(files)) if (!live[i]!.cleanOnly && takes(live[i]!, files)) used.add(live[i]!);
    if (clean !== undefined) for (const i of index.literals(clean)) if (takes(live[i]!, clean)) used.add(live[i]!);
    if (!filter) continue;
    for (const i of index.patterns) {
      const r = live[i]!;
      if (used.has(r)) continue;
      if ((!r.cleanOnly && takes(r, files)) || (clean !== undefined && takes(r, clean))) used.add(r);
    }
  }
  return { redirected, rules: live.filter((r) => used.has(r)) };
}
