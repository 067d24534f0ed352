import {
  isCarriedHeader,
  isHeaderName,
  isHeaderValue,
  RuleIndex,
  type FirebaseUrls,
  type HostHeaderRule,
  type HostRoute,
} from '@objpack/format';
import { WarningCode, warn } from '../errors.js';
import { hostAliasOf } from '../discover/site-origin.js';
import type { Diagnostic } from '../discover/types.js';
import { hostConfigDirs } from './config-dirs.js';
import type { Host, HostRoutes, HostSite, RedirectRule, SiteRule } from './host.js';
import { HOSTS } from './index.js';
import { readOwnEntries } from './json-config.js';

/** One response header of a page, name in lower case. */
export type PageHeader = [name: string, value: string];

/** What the site's host configs say, each read once and every pattern in them compiled once. */
export interface SiteHosts {
  /** Headers for the page at URL path `url`, in a stable order; empty when none apply. */
  forPage(url: string): PageHeader[];
  /** The header rules, for the manifest (`objpack serve` applies them to every file). */
  rules: HostHeaderRule[];
  /** A vercel.json / firebase.json of the site turns on clean URLs (`/about` serves `/about.html`). */
  cleanUrls: boolean;
  /**
   * A vercel.json / firebase.json of the site serves `/about.html` at `/about/` (clean URLs with `trailingSlash:
   * true`).
   */
  cleanSlashUrls: boolean;
  /**
   * The host serves `/guide/index.html` at `/guide` too (RouteTable.bareDirUrls): a vercel.json / firebase.json
   * of the site says so, or the build targets Vercel alone and no vercel.json says otherwise.
   */
  bareDirUrls: boolean;
  /** A host config or the target decided {@link bareDirUrls}, either way: no need to ask the user. */
  bareDirKnown: boolean;
  /** The site's firebase.json `cleanUrls`/`trailingSlash`, for `objpack serve` (BuildManifest.firebaseUrls). */
  firebaseUrls?: FirebaseUrls;
  /** Rules by which the host answers a URL itself before looking at files. */
  redirects: RedirectRule[];
  /** vercel.json / firebase.json files outside the site that configure it (the project's). */
  projectConfigs: string[];
  /** Every redirect and rewrite `objpack serve` can apply, in the host's order (manifest `hostRoutes`). */
  routes: HostRoute[];
  /**
   * A netlify.toml configures the site: it is Netlify's, not Cloudflare Pages' (both read `_headers`, `_redirects`).
   */
  netlify: boolean;
  diagnostics: Diagnostic[];
}

/**
 * Reads the site's host configs, each host's module in the registry's order: `_headers` and `netlify.toml`
 * with Netlify's own parsers, `vercel.json` and `firebase.json` with their hosts' pattern rules. A page the
 * worker answers from a package must carry the same security headers the host would have sent
 * (Content-Security-Policy, Cross-Origin-Opener/Embedder-Policy, X-Frame-Options…): a page without its CSP,
 * or a cross-origin-isolated app that loses isolation, would be worse off with objpack. `vercel.json` and
 * `firebase.json` usually sit in the project directory, above the built site: they are looked for in
 * `root`, then in `cwd` when `root` is inside it (there, a config must point at `root`). Matching rules
 * combine as the hosts combine them: every match applies and a later rule's value wins.
 */
export async function readHosts(
  root: string,
  opts: { cwd?: string; cleanUrls?: boolean; bareDirUrls?: boolean; targets?: readonly string[] } = {},
): Promise<SiteHosts> {
  const site: HostSite = {
    root,
    dirs: hostConfigDirs(root, opts.cwd),
    targets: opts.targets ?? [],
    own: await readOwnEntries(root),
    diagnostics: [],
  };
  const { diagnostics } = site;
  const rules: SiteRule[] = [];
  const redirects: RedirectRule[] = [];
  const routes: HostRoutes = { routes: [], skipped: [] };
  const projectConfigs: string[] = [];
  let [cleanUrls, cleanSlashUrls, bareDirUrls, bareDirKnown, netlify] = [false, false, false, false, false];
  let firebaseUrls: FirebaseUrls | undefined;
  // Every config found counts, the site's first: after `--target vercel` the site has a vercel.json of
  // objpack's entries only, and the project's own must still be read.
  for (const host of HOSTS as readonly Host[]) {
    for (const r of (await host.read?.(site)) ?? []) {
      if (r.project !== undefined) projectConfigs.push(r.project);
      rules.push(...r.headers);
      redirects.push(...r.redirects);
      routes.routes.push(...r.routes.routes);
      routes.skipped.push(...r.routes.skipped);
      cleanUrls ||= r.cleanUrls === true;
      cleanSlashUrls ||= r.cleanSlashUrls === true;
      bareDirUrls ||= r.bareDirUrls === true;
      bareDirKnown ||= r.bareDirUrls !== undefined;
      netlify ||= r.names === 'netlify';
      firebaseUrls ??= r.firebaseUrls;
    }
  }
  if (routes.skipped.length > 0) {
    const [{ file, for: source, why }] = routes.skipped as [HostRoutes['skipped'][number]];
    const parts = { rules: routes.skipped.length, file, source, why };
    diagnostics.push(warn(WarningCode.HOST_ROUTES_SKIPPED, parts, { file }));
  }
  // `--no-clean-urls` says the host serves no page at its clean URL, with a slash or without.
  if (opts.cleanUrls === false) cleanSlashUrls = false;
  const settled = { cleanUrls, cleanSlashUrls, bareDirUrls, bareDirKnown, ...(firebaseUrls ? { firebaseUrls } : {}) };
  const found = { diagnostics, ...settled, redirects, projectConfigs, routes: routes.routes, netlify };
  if (rules.length === 0) return { forPage: () => [], rules: [], ...found };
  // With clean URLs the host serves about.html as `/about` (or `/about/`) and matches its rules against that
  // path too; with bare directory URLs guide/index.html as `/guide`.
  const aliases = {
    cleanUrls: opts.cleanUrls ?? cleanUrls,
    bareDirUrls: opts.bareDirUrls ?? bareDirUrls,
    cleanSlashUrls,
  };
  return { ...found, rules: rules.map(manifestRule), forPage: pageHeaders(rules, aliases) };
}

/** A rule as the manifest records it for `objpack serve`. */
const manifestRule = (r: SiteRule): HostHeaderRule => ({
  for: r.for,
  match: r.re.source,
  ...(r.re.flags === 'iu' ? {} : { flags: r.re.flags }),
  headers: r.values
    .map(([n, v]): PageHeader => [n.toLowerCase(), v])
    .filter(([n, v]) => isHeaderName(n) && isHeaderValue(v)),
  ...(r.errorPage ? { errorPage: true as const } : {}),
});

/**
 * The headers every matching rule gives a page, a later rule's value winning; rules naming one path looked up by it.
 */
function pageHeaders(
  rules: readonly SiteRule[],
  aliases: { cleanUrls: boolean; bareDirUrls: boolean; cleanSlashUrls: boolean },
): (url: string) => PageHeader[] {
  // Rules naming one path are looked up by it: a `_headers` with a block per page costs a lookup per page.
  const index = new RuleIndex(rules);
  return (url) => {
    const merged = new Map<string, string>();
    const bare = hostAliasOf(url, aliases);
    const named = bare === undefined ? [url] : [url, bare];
    // A rule may name the page decoded (`/café/`): objpack serve tries both, and the worker must send what it sends.
    const urls = [...named, ...named.map(decoded).filter((u) => !named.includes(u))];
    for (const i of index.candidates(urls)) {
      const rule = rules[i]!;
      if (!urls.some((u) => rule.test(u))) continue;
      for (const [rawName, value] of rule.values) {
        const name = rawName.toLowerCase();
        if (!isCarriedHeader(name, value)) continue;
        merged.delete(name);
        merged.set(name, value);
      }
    }
    return [...merged].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  };
}

/** A page URL decoded (its escapes are of UTF-8 and of characters a file name may hold, never `/`). */
function decoded(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
