import path from 'node:path';
import { globRegExp } from './glob.js';
import { isHeaderList } from './header-list.js';
import { headersWarning } from './host-route.js';
import type { ParsedRules } from './host.js';

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
  if (!Array.isArray(site.headers))
    return { ...out, diagnostics: [headersWarning(file, '`hosting.headers` is not a list')] };
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
        headersWarning(
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
      out.diagnostics.push(headersWarning(file, `${pattern ?? (regex as string)}: ${(err as Error).message}`));
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

/** superstatic's slasher: a leading `/`, kept after a negating `!`. */
const slashed = (g: string): string =>
  g.startsWith('!') ? `!${slashed(g.slice(1))}` : g.startsWith('/') ? g : `/${g}`;
