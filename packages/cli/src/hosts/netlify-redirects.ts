import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { HostRouteOptions } from '@objpack/format';
import type { Diagnostic } from '../discover/types.js';
import { cloudflareAccepts } from './cloudflare-rules.js';
import { ConfigLines } from './config-lines.js';
import type { HostRoutes, RedirectRule } from './host.js';
import { ABSOLUTE, HOST_ONLY, isRewriteStatus, REDIRECT, redirectsWarning, route } from './host-route.js';
import { compileNetlify, fromPath, type NetlifyPattern } from './netlify-pattern.js';

/** A rule as Netlify's parser (@netlify/redirect-parser) gives it, as far as objpack reads it. */
export interface NetlifyRedirect {
  from?: unknown;
  to?: unknown;
  status?: unknown;
  force?: unknown;
  query?: unknown;
  conditions?: unknown;
  signed?: unknown;
  proxy?: unknown;
}

/**
 * `_redirects` in `root` and `[[redirects]]` of the site's `netlify.toml` (`toml`), with Netlify's parser.
 * Netlify applies a rule to a URL that has a file only when it is forced (`301!`, `200!`: "shadowing");
 * Cloudflare Pages applies every rule before it looks for files. With a netlify.toml the site is Netlify's.
 * Each rule's `from` is compiled once, into the redirect rule and into `routes` as `objpack serve` applies
 * it (Netlify's way).
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
      for (const e of parsed.errors as Error[])
        diagnostics.push(redirectsWarning(label, String(e?.message ?? e).split('\n')[0]!));
    } catch (err) {
      diagnostics.push(redirectsWarning(label, `not read: ${(err as Error).message}`));
    }
    for (const r of redirects as NetlifyRedirect[]) {
      if (typeof r.from !== 'string') continue;
      const compiled = compileNetlify(r.from);
      if (routes) netlifyRoute(r, label, routes, compiled);
      const line = lines.nextLine(written(r.from));
      const conditional = [r.conditions, r.query].some((c) => c && typeof c === 'object' && Object.keys(c).length > 0);
      const status = typeof r.status === 'number' ? r.status : 301;
      const redirect = status >= 300 && status < 400;
      const { plain: re, host } = compiled;
      // Forced rules take any URL. Unforced: on Netlify (a netlify.toml) only where no file is; without one
      // the file may be Cloudflare Pages', which applies every rule first, so redirects and rewrites of
      // one named path take it too. An unforced wildcard rewrite (`/* /index.html 200`, a single-page
      // app's fallback on Netlify) would, on Cloudflare Pages, replace every page: taken to be Netlify's.
      const wildcard = /[*:]/.test(fromPath(r.from));
      const full = r.force === true || (toml === undefined && (redirect || !wildcard));
      rules.push({
        file: label,
        for: r.from,
        re,
        test: (u) => compiled.re.test(u),
        ...(host ? { host } : {}),
        ...(full ? {} : { cleanOnly: true }),
        ...(r.force === true && !conditional ? { beforeFiles: true as const } : {}),
        ...(line !== undefined ? { line } : {}),
        ...(cloudflare?.({ ...r, from: r.from }) ? { beforeFilesOn: 'Cloudflare Pages' as const } : {}),
        ...(status === 200 && typeof r.to === 'string' ? { keeps: netlifyKeeps(compiled, r.to) } : {}),
      });
    }
  }
  return rules;
}

/**
 * Whether a `_redirects` 200 rewrite serves a URL its own file: its destination, placeholders filled in, is the URL.
 */
function netlifyKeeps({ re, names }: NetlifyPattern, to: string): (urlPath: string) => boolean {
  return (u) => {
    const m = re.exec(u);
    return (
      m !== null &&
      to.replace(/:([A-Za-z_]\w*)/g, (t, name: string) => (names.has(name) ? (m.groups?.[name] ?? '') : t)) === u
    );
  };
}

/**
 * One `_redirects` / netlify.toml rule from Netlify's parser, as a route or the reason it is skipped;
 * `compiled`: its `from`, compiled once for the redirect rule too.
 */
export function netlifyRoute(
  r: NetlifyRedirect,
  file: string,
  out: HostRoutes,
  compiled = typeof r.from === 'string' ? compileNetlify(r.from) : undefined,
): void {
  if (typeof r.from !== 'string' || typeof r.to !== 'string' || compiled === undefined) return;
  const skip = (why: string) => void out.skipped.push({ file, for: r.from as string, why });
  const status = typeof r.status === 'number' ? r.status : 301;
  const conditions = r.conditions && typeof r.conditions === 'object' ? Object.keys(r.conditions) : [];
  if (conditions.length > 0) return skip(`depends on the visitor (${conditions.join(', ')})`);
  const redirect = REDIRECT.has(status);
  const { re, host } = compiled;
  const names = new Set(compiled.names);
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
