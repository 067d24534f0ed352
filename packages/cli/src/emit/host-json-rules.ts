import path from 'node:path';
import type { FirebaseUrls } from '@objpack/format';
import type { minimatch as Minimatch } from 'minimatch';
import { WarningCode } from '../errors.js';
import type { Diagnostic } from '../discover/types.js';

/** A host header rule as the build applies it: the pattern as written, its compiled form, its headers. */
export interface SiteRule {
  for: string;
  /** The pattern as a RegExp, for the manifest (`objpack serve` applies it to every file). */
  re: RegExp;
  /** Whether the rule applies to a URL path, exactly as the host decides it (for page headers). */
  test(urlPath: string): boolean;
  /** Header names as written (matching is case-insensitive; callers lower-case them). */
  values: Array<[string, string]>;
  /** The host matches the rule against its custom 404 page's path too (HostHeaderRule.errorPage). */
  errorPage?: true;
}

export interface ParsedRules {
  rules: SiteRule[];
  diagnostics: Diagnostic[];
  /** The config turns on clean URLs (`cleanUrls: true`): the host serves `/about.html` at `/about`. */
  cleanUrls?: boolean;
  /** Clean URLs with `trailingSlash: true`: the host serves `/about.html` at `/about/` (RouteTable.cleanSlashUrls). */
  cleanSlashUrls?: boolean;
  /**
   * The host serves `/guide/index.html` at `/guide` without redirecting to `/guide/` (RouteTable.bareDirUrls);
   * absent when the config does not say (a vercel.json of objpack's own entries).
   */
  bareDirUrls?: boolean;
  /** firebase.json's `cleanUrls`/`trailingSlash` as set (BuildManifest.firebaseUrls): `{}` for neither. */
  firebaseUrls?: FirebaseUrls;
}

type HeaderList = Array<{ key: string; value: string }>;

const isHeaderList = (h: unknown): h is HeaderList =>
  Array.isArray(h) &&
  h.every(
    (x) =>
      x !== null &&
      typeof x === 'object' &&
      typeof (x as { key?: unknown }).key === 'string' &&
      typeof (x as { value?: unknown }).value === 'string',
  );

const warn = (file: string, message: string): Diagnostic => ({
  code: WarningCode.HOST_HEADERS,
  severity: 'warning',
  message: `host headers: ${message}`,
  file,
});

/**
 * `vercel.json` `headers`, with Vercel's own source compiler (@vercel/routing-utils). Matched without
 * regard to case, as Vercel routes are unless a build output marks them case-sensitive. An entry with
 * `has`/`missing` conditions depends on the request (cookies, query, host): it is left out, with a warning,
 * rather than applied to every request. `own` are the entries objpack wrote (HOST_ENTRIES_FILE).
 */
export async function vercelRules(config: unknown, own: readonly unknown[], file: string): Promise<ParsedRules> {
  // With `trailingSlash: true` as well, the host sends `/about` to `/about/` and serves about.html there
  // (vercel/routing-utils convertCleanUrls and convertTrailingSlash; Vercel's own deploys show it).
  const { cleanUrls: clean, trailingSlash } = (config ?? {}) as { cleanUrls?: unknown; trailingSlash?: unknown };
  const cleanUrls = clean === true && trailingSlash !== true;
  const entries = (config as { headers?: unknown } | null)?.headers;
  // Vercel serves a directory's index at `/guide` too unless `trailingSlash: true` sends it to `/guide/`. A
  // vercel.json that `--target vercel` wrote (objpack's entries only) says nothing about the host's settings.
  const mine = new Set(own.map((e) => JSON.stringify(e)));
  const objpacks =
    Object.keys(config ?? {}).every((k) => k === 'headers') &&
    Array.isArray(entries) &&
    entries.length > 0 &&
    entries.every((e) => mine.has(JSON.stringify(e)));
  const out: ParsedRules = {
    rules: [],
    diagnostics: [],
    cleanUrls,
    ...(objpacks ? {} : { bareDirUrls: trailingSlash !== true }),
    ...(clean === true && trailingSlash === true ? { cleanSlashUrls: true } : {}),
  };
  if (entries === undefined) return out;
  if (!Array.isArray(entries)) return { ...out, diagnostics: [warn(file, '`headers` is not a list')] };
  const { sourceToRegex } = await import('@vercel/routing-utils');
  for (const e of entries as unknown[]) {
    if (mine.has(JSON.stringify(e))) continue;
    const { source, headers, has, missing } = (e ?? {}) as {
      source?: unknown;
      headers?: unknown;
      has?: unknown;
      missing?: unknown;
    };
    if (typeof source !== 'string' || !isHeaderList(headers)) {
      out.diagnostics.push(
        warn(file, `entry ${JSON.stringify(e)?.slice(0, 80)} has no string \`source\` and \`headers\` list; left out`),
      );
      continue;
    }
    if (has !== undefined || missing !== undefined) {
      out.diagnostics.push(
        warn(
          file,
          `${source}: rules with \`has\`/\`missing\` depend on the request; not applied to pages served from packages`,
        ),
      );
      continue;
    }
    try {
      const re = new RegExp(sourceToRegex(source).src, 'i');
      out.rules.push({ for: source, re, test: (u) => re.test(u), values: headers.map((h) => [h.key, h.value]) });
    } catch (err) {
      out.diagnostics.push(warn(file, `${source}: ${(err as Error).message}`));
    }
  }
  return out;
}

/**
 * `firebase.json` `hosting.headers` as Firebase Hosting (superstatic) matches them: `minimatch(path, glob)`
 * with a leading `/` added to a `source` that lacks one (after a leading `!`), a `glob` as written, `regex`
 * as a Unicode regular expression. minimatch accepts a trailing slash the pattern does not have (`/about`
 * matches `/about/`, `/docs/*` matches `/docs/guide/`), which its `makeRe` does not: the RegExp recorded
 * for `objpack serve` is widened to match; page headers use minimatch itself. With several `hosting` sites,
 * the one whose `public` directory is `root`; a config in another directory must name `root` as its
 * `public` (it may be another site's).
 */
export async function firebaseRules(
  config: unknown,
  own: readonly unknown[],
  file: string,
  configDir: string,
  root: string,
): Promise<ParsedRules> {
  const out: ParsedRules = { rules: [], diagnostics: [] };
  const site = firebaseSite(config, configDir, root);
  if (!site) return out;
  out.cleanUrls = site.cleanUrls === true && site.trailingSlash !== true;
  // superstatic (files.js) serves `/about/` from about.html when no `/about/index.html` is there, and
  // redirects `/about` to it.
  if (site.cleanUrls === true && site.trailingSlash === true) out.cleanSlashUrls = true;
  // superstatic (files.js) serves a directory's index at `/guide` with `trailingSlash: false`, and with
  // `cleanUrls` when `trailingSlash` is unset; otherwise it redirects to `/guide/`.
  out.bareDirUrls = site.trailingSlash === false || (site.trailingSlash === undefined && site.cleanUrls === true);
  // Recorded with neither key set too: Firebase's defaults are a file lookup of their own (`/about` is no
  // page, `/guide` redirects to `/guide/`), not objpack serve's aliases.
  out.firebaseUrls = {
    ...(site.cleanUrls === true ? { cleanUrls: true as const } : {}),
    ...(typeof site.trailingSlash === 'boolean' ? { trailingSlash: site.trailingSlash } : {}),
  };
  if (site.headers === undefined) return out;
  if (!Array.isArray(site.headers)) return { ...out, diagnostics: [warn(file, '`hosting.headers` is not a list')] };
  const ours = new Set(own.map((e) => JSON.stringify(e)));
  const { minimatch } = await import('minimatch');
  for (const e of site.headers as unknown[]) {
    if (ours.has(JSON.stringify(e))) continue;
    const { source, glob, regex, headers } = (e ?? {}) as {
      source?: unknown;
      glob?: unknown;
      regex?: unknown;
      headers?: unknown;
    };
    const pattern = typeof source === 'string' ? source : typeof glob === 'string' ? glob : undefined;
    if ((pattern === undefined && typeof regex !== 'string') || !isHeaderList(headers)) {
      out.diagnostics.push(
        warn(
          file,
          `entry ${JSON.stringify(e)?.slice(0, 80)} has no \`source\`/\`regex\` and \`headers\` list; left out`,
        ),
      );
      continue;
    }
    const values = headers.map((h): [string, string] => [h.key, h.value]);
    try {
      if (pattern !== undefined) {
        const g = typeof source === 'string' ? slashed(pattern) : pattern;
        out.rules.push({
          for: pattern,
          re: globRegExp(minimatch, g),
          test: (u) => minimatch(u, g),
          values,
          errorPage: true,
        });
      } else {
        const re = new RegExp(regex as string, 'u');
        out.rules.push({ for: regex as string, re, test: (u) => re.test(u), values, errorPage: true });
      }
    } catch (err) {
      out.diagnostics.push(warn(file, `${pattern ?? (regex as string)}: ${(err as Error).message}`));
    }
  }
  return out;
}

/** A `firebase.json` hosting site: the one whose `public` directory is `root` (one site in `root` itself: that one). */
export type FirebaseHosting = {
  public?: unknown;
  headers?: unknown;
  redirects?: unknown;
  rewrites?: unknown;
  cleanUrls?: unknown;
  trailingSlash?: unknown;
};

export function firebaseSite(config: unknown, configDir: string, root: string): FirebaseHosting | undefined {
  const hosting = (config as { hosting?: unknown } | null)?.hosting;
  const sites = (Array.isArray(hosting) ? hosting : hosting ? [hosting] : []) as FirebaseHosting[];
  const publishes = (s: FirebaseHosting) =>
    typeof s?.public === 'string' && path.resolve(configDir, s.public) === path.resolve(root);
  return (
    sites.find(publishes) ??
    (path.resolve(configDir) === path.resolve(root) && sites.length === 1 ? sites[0] : undefined)
  );
}

/** A minimatch glob as the RegExp `objpack serve` and the worker test paths with, agreeing with minimatch(). */
export function globRegExp(minimatch: typeof Minimatch, glob: string): RegExp {
  const re = minimatch.makeRe(glob);
  if (re === false) throw new Error('not a valid glob');
  return new RegExp(forServe(glob, re.source), re.flags);
}

/** superstatic's slasher: a leading `/`, kept after a negating `!`. */
const slashed = (g: string): string =>
  g.startsWith('!') ? `!${slashed(g.slice(1))}` : g.startsWith('/') ? g : `/${g}`;

/**
 * minimatch's RegExp for `glob` brought in line with minimatch(): one trailing slash the glob does not end
 * with is accepted, and a final globstar needs its slash (`/blog/**` matches `/blog/`, not `/blog`); the
 * negated form (`^(?!…).+$`) is fixed inside. host-json-rules.test.ts checks it against minimatch().
 */
function forServe(glob: string, src: string): string {
  const negated = /^\^\(\?!(.*)\)\.\+\$$/.exec(src);
  if (negated) return `^(?!${forServe(glob.slice(1), negated[1]!)}).+$`;
  if (!src.endsWith('$') || src.endsWith('\\$')) return src;
  let body = src.slice(0, -1);
  if (glob.endsWith('/**') && body.endsWith(')?')) body = body.slice(0, -1);
  // Wildcards never match a segment's leading dot (`/.well-known/`, which objpack serve serves); makeRe's
  // lookahead misses the first segment after a leading '/'. A glob naming a dot segment is left as made.
  if (!glob.includes('/.') && body.startsWith('^')) body = `^(?!(?:.*\\/)?\\.)${body.slice(1)}`;
  return glob.endsWith('/') ? `${body}$` : `${body}\\/?$`;
}
