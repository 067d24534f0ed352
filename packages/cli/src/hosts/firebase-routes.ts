import type { minimatch as Minimatch } from 'minimatch';
import type pathToRegexp from 'path-to-regexp';
import type { Diagnostic } from '../discover/types.js';
import { ConfigLines } from './config-lines.js';
import { firebaseCaptures, regexCaptures, splitCapture } from './firebase-capture.js';
import type { FirebaseHosting } from './firebase-headers.js';
import { globRegExp } from './glob.js';
import type { HostRoutes, RedirectRule } from './host.js';
import { ABSOLUTE, HOST_ONLY, literal, REDIRECT, redirectsWarning, route, takeAll } from './host-route.js';
import { valueAt } from './json-node.js';

/** A Firebase redirect or rewrite glob with its leading `/` (a negating `!` is left as written). */
export const firebaseGlob = (g: string): string => (g.startsWith('/') || g.startsWith('!') ? g : `/${g}`);

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

/**
 * A firebase.json site's routing: the rules that take URLs before the files, and every route `objpack serve` applies.
 */
export interface FirebaseRouting {
  redirects: RedirectRule[];
  routes: HostRoutes;
  diagnostics: Diagnostic[];
}

interface Entry {
  source?: unknown;
  glob?: unknown;
  regex?: unknown;
  destination?: unknown;
  type?: unknown;
}

type P2R = typeof pathToRegexp;
const list = (v: unknown) => (Array.isArray(v) ? (v as unknown[]) : []);
const globOf = ({ glob, source }: Entry) =>
  typeof glob === 'string' ? glob : typeof source === 'string' ? source : undefined;
/** An entry's `source`/`glob` (minimatch) or `regex` (RE2), compiled once; the error where it does not compile. */
function compile(minimatch: typeof Minimatch, e: Entry): RegExp | Error | undefined {
  const pattern = globOf(e);
  try {
    if (pattern !== undefined) return globRegExp(minimatch, firebaseGlob(pattern));
    return typeof e.regex === 'string' ? fromRe2(e.regex) : undefined;
  } catch (err) {
    return err as Error;
  }
}

/**
 * A Firebase Hosting site's `redirects` (before any file) and `rewrites` (where no file is) as superstatic
 * applies them, each pattern compiled once for both uses:
 * - `redirects`: `source` or `glob` matched with minimatch, or `regex`; a `source` whose destination uses
 *   `:name` segments is also matched as a path pattern; then what `cleanUrls` and `trailingSlash` do to a
 *   URL that names a file: `.html` paths go to their clean form, and with `trailingSlash: false` a
 *   directory's `/dir/` to `/dir`. `text`: the file as written, for each rule's line; `at`: where the site
 *   is in it (`['hosting', 1]` for the second of several sites).
 * - `routes`: a redirect whose destination names `:segments` is first matched with path-to-regexp 1.x
 *   (its `source`/`glob`, see firebaseCaptures) or its `regex` (regexCaptures), and those segments
 *   substituted; else its pattern matches and the destination is taken as written. Redirects keep the
 *   request's query (superstatic's addQuery).
 */
export async function firebaseRouting(
  site: FirebaseHosting,
  file: string,
  text?: string,
  at: ReadonlyArray<string | number> = ['hosting'],
): Promise<FirebaseRouting> {
  const out: FirebaseRouting = { redirects: [], routes: { routes: [], skipped: [] }, diagnostics: [] };
  // jsonc-parser gives each value's offsets in the text: each rule's line is that of its own `source`,
  // `glob` or `regex` value, never the same string written elsewhere (an earlier rule's destination).
  const { parseTree } = await import('jsonc-parser');
  const tree = text === undefined ? undefined : parseTree(text);
  const lines = tree ? new ConfigLines(text!) : undefined;
  const lineOf = (i: number, key: string) => {
    const node = tree && valueAt(tree, [...at, 'redirects', i, key]);
    return node ? lines!.lineAt(node.offset) : undefined;
  };
  const { minimatch } = await import('minimatch');
  const { default: p2r } = await import('path-to-regexp');
  if (site.redirects !== undefined && !Array.isArray(site.redirects))
    out.diagnostics.push(redirectsWarning(file, '`hosting.redirects` is not a list'));
  for (const [i, raw] of list(site.redirects).entries()) {
    const e = (raw ?? {}) as Entry;
    const compiled = compile(minimatch, e);
    const line = lineOf(i, typeof e.glob === 'string' ? 'glob' : typeof e.source === 'string' ? 'source' : 'regex');
    takeRule(e, compiled, line, { minimatch, p2r }, file, out);
    serveRedirect(e, compiled, p2r, file, out.routes);
  }
  for (const raw of list(site.rewrites)) {
    const e = (raw ?? {}) as Entry;
    serveRewrite(e, compile(minimatch, e), file, out);
  }
  if (site.cleanUrls === true) {
    const re = /\.html$/;
    out.redirects.push({ file, for: 'cleanUrls', re, test: (u) => re.test(u) });
  }
  if (site.trailingSlash === false) {
    const re = /^\/.+\/$/;
    out.redirects.push({ file, for: 'trailingSlash: false', re, test: (u) => re.test(u) });
  }
  if (site.trailingSlash === true) {
    // `/about` (about.html) goes to `/about/`: the worker's clean URL for a page.
    const re = /^(?:.*\/)?[^/.]+$/;
    out.redirects.push({ file, for: 'trailingSlash: true', re, test: (u) => re.test(u) });
  }
  return out;
}

/** A `redirects` entry as the rule that takes URLs from the worker; superstatic applies it before any file. */
function takeRule(
  e: Entry,
  compiled: RegExp | Error | undefined,
  line: number | undefined,
  { minimatch, p2r }: { minimatch: typeof Minimatch; p2r: P2R },
  file: string,
  out: FirebaseRouting,
): void {
  const { regex, destination } = e;
  const pattern = globOf(e);
  const placed = { beforeFiles: true as const, ...(line !== undefined ? { line } : {}) };
  try {
    if (compiled instanceof Error) throw compiled;
    if (pattern !== undefined) {
      const g = firebaseGlob(pattern);
      // superstatic matches a rule whose destination names `:segments` with path-to-regexp 1.x first
      // (any case, optional trailing slash, `:x?`, `:x*`, `*`), then with minimatch.
      const asPath = typeof destination === 'string' && /(?:^|\/):/.test(destination) ? p2r(g) : undefined;
      const split = asPath ? splitCapture(p2r, pattern, destination as string) : undefined;
      if (split) out.diagnostics.push({ ...redirectsWarning(file, split), ...(line !== undefined ? { line } : {}) });
      const re = asPath ? new RegExp(`(?:${compiled!.source})|(?:${asPath.source})`, 'i') : compiled!;
      out.redirects.push({
        file,
        for: pattern,
        re,
        test: (u) => minimatch(u, g) || (asPath?.test(u) ?? false),
        ...placed,
      });
    } else if (typeof regex === 'string') {
      const re = compiled!;
      out.redirects.push({ file, for: regex, re, test: (u) => re.test(u), ...placed });
    } else {
      const entry = JSON.stringify(e)?.slice(0, 80);
      out.diagnostics.push(redirectsWarning(file, `entry ${entry} has no \`source\`/\`regex\`; left out`));
    }
  } catch (err) {
    out.redirects.push(takeAll(file, pattern ?? String(regex)));
    const message = `${pattern ?? String(regex)}: ${(err as Error).message} (every URL left to the host)`;
    out.diagnostics.push(redirectsWarning(file, message));
  }
}

/** A `redirects` entry as `objpack serve` applies it. */
function serveRedirect(e: Entry, compiled: RegExp | Error | undefined, p2r: P2R, file: string, out: HostRoutes): void {
  const { regex, destination, type } = e;
  const pattern = globOf(e);
  if ((pattern === undefined && typeof regex !== 'string') || typeof destination !== 'string') return;
  const status = typeof type === 'number' ? type : 301;
  const label = pattern ?? (regex as string);
  if (!REDIRECT.has(status)) return void out.skipped.push({ file, for: label, why: `type ${status}` });
  // superstatic turns a destination `/https:/…` back into the external URL.
  const dest = destination.replace('/http:/', 'http://').replace('/https:/', 'https://');
  const valid = () => {
    if (compiled instanceof Error) throw compiled;
    return compiled!;
  };
  try {
    const captures = /(?:^|\/):/.test(dest);
    if (pattern !== undefined) {
      // What the capture pattern takes never reaches the glob, even where the destination cannot be filled.
      let unless: string | undefined;
      if (captures) {
        const c = firebaseCaptures(p2r, firebaseGlob(pattern), dest);
        for (const v of c.routes) out.routes.push(route(v.re, v.to, status));
        if (c.fails) unless = c.re.source;
      }
      out.routes.push(route(valid(), literal(dest), status, unless !== undefined ? { unless } : {}));
    } else if (!captures) out.routes.push(route(valid(), literal(dest), status));
    else {
      const re = valid();
      for (const c of regexCaptures(p2r, dest))
        out.routes.push(route(re, c.to, status, Object.keys(c.groups).length > 0 ? { groups: c.groups } : {}));
    }
  } catch {
    out.skipped.push({ file, for: label, why: 'not a valid pattern' });
  }
}

/** A `rewrites` entry as `objpack serve` applies it, where no file is. */
function serveRewrite(e: Entry, compiled: RegExp | Error | undefined, file: string, out: FirebaseRouting): void {
  const { regex, destination } = e;
  const pattern = globOf(e);
  const label = pattern ?? (typeof regex === 'string' ? regex : '?');
  if (pattern === undefined && typeof regex !== 'string') return;
  const hostOnly = typeof destination !== 'string' || ABSOLUTE.test(destination) || destination.startsWith('//');
  const { skipped, routes } = out.routes;
  if (hostOnly) skipped.push({ file, for: label, why: 'a function, a Cloud Run service or another site' });
  if (compiled instanceof Error || compiled === undefined) {
    if (!hostOnly) skipped.push({ file, for: label, why: 'not a valid pattern' });
    return;
  }
  routes.push(
    hostOnly
      ? route(compiled, '', HOST_ONLY, { shadowed: true })
      : route(compiled, literal(destination as string), 200, { shadowed: true }),
  );
}
