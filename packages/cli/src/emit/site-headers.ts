import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Header } from '@netlify/headers-parser';
import {
  isCarriedHeader,
  isHeaderName,
  isHeaderValue,
  RuleIndex,
  type FirebaseUrls,
  type HostHeaderRule,
  type HostRoute,
} from '@objpack/format';
import { userPart } from './host-config.js';
import { hostConfigDirs } from './host-config-files.js';
import { parseFirebaseJson } from './firebase-json.js';
import { readOwnEntries } from './host-entries.js';
import { firebaseRules, firebaseSite, vercelRules, type ParsedRules, type SiteRule } from './host-json-rules.js';
import { cloudflareRuleRegExp } from './cloudflare-rule.js';
import { firebaseRedirects, netlifyRedirects, vercelRedirects, type RedirectRule } from './host-redirects.js';
import { firebaseRoutes, vercelRoutes, type HostRoutes } from './host-routes.js';
import { WarningCode } from '../errors.js';
import { hostAliasOf } from '../discover/site-origin.js';
import type { Diagnostic } from '../discover/types.js';

/** One response header of a page, name in lower case. */
export type PageHeader = [name: string, value: string];

/** The headers the site's host config gives each page, for pages served from packages. */
export interface SiteHeaders {
  /** Headers for the page at URL path `url`, in a stable order; empty when none apply. */
  forPage(url: string): PageHeader[];
  /** The rules themselves, for the manifest (`objpack serve` applies them to every file). */
  rules: HostHeaderRule[];
  /** A vercel.json / firebase.json of the site turns on clean URLs (`/about` serves `/about.html`). */
  cleanUrls: boolean;
  /** A vercel.json / firebase.json of the site serves `/about.html` at `/about/` (clean URLs with `trailingSlash: true`). */
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
  /** Rules by which the host answers a URL itself before looking at files (host-redirects.ts). */
  redirects: RedirectRule[];
  /** vercel.json / firebase.json files outside the site that configure it (the project's). */
  projectConfigs: string[];
  /** Every redirect and rewrite `objpack serve` can apply, in the host's order (manifest `hostRoutes`). */
  routes: HostRoute[];
  /** A netlify.toml configures the site: it is Netlify's, not Cloudflare Pages' (both read `_headers`, `_redirects`). */
  netlify: boolean;
  diagnostics: Diagnostic[];
}

/**
 * Reads the site's host header rules: `_headers` (Netlify, Cloudflare Pages) and `netlify.toml` `[[headers]]`
 * with Netlify's own parser, `vercel.json` and `firebase.json` with their hosts' pattern rules (see
 * host-json-rules.ts). A page the worker answers from a package must carry the same security headers the
 * host would have sent (Content-Security-Policy, Cross-Origin-Opener/Embedder-Policy, X-Frame-Options…): a
 * page without its CSP, or a cross-origin-isolated app that loses isolation, would be worse off with objpack.
 * `vercel.json` and `firebase.json` usually sit in the project directory, above the built site: they are
 * looked for in `root`, then in `cwd` when `root` is inside it (there, a config must point at `root`).
 * Matching rules combine as the hosts combine them: every match applies and a later rule's value wins;
 * the files are taken in the order above.
 */
export async function loadSiteHeaders(
  root: string,
  opts: { cwd?: string; cleanUrls?: boolean; bareDirUrls?: boolean; targets?: readonly string[] } = {},
): Promise<SiteHeaders> {
  const diagnostics: Diagnostic[] = [];
  const dirs = hostConfigDirs(root, opts.cwd);
  const toml = await netlifyToml(root, dirs);
  // `_headers` is read by Netlify and Cloudflare Pages, which match its paths differently: a netlify.toml or
  // `--target netlify` names Netlify, `--target cloudflare` alone Cloudflare; unknown, Netlify's parser decides.
  const cloudflare =
    toml === undefined && !opts.targets?.includes('netlify') && opts.targets?.includes('cloudflare') === true;
  const netlifyHost = toml !== undefined || opts.targets?.includes('netlify') === true;
  const rules: SiteRule[] = [
    ...(await netlifyRules(root, toml, diagnostics, cloudflare ? 'cloudflare' : netlifyHost ? 'netlify' : undefined)),
  ];
  const routes: HostRoutes = { routes: [], skipped: [] };
  const redirects = await netlifyRedirects(root, toml, diagnostics, routes);
  const own = await readOwnEntries(root);
  // Every config found counts, the site's first: after `--target vercel` the site has a vercel.json of
  // objpack's entries only, and the project's own must still be read.
  let cleanUrls = false;
  let cleanSlashUrls = false;
  let bareDirUrls = false;
  let bareDirKnown = false;
  let vercelSaid = false;
  let firebaseUrls: FirebaseUrls | undefined;
  const projectConfigs: string[] = [];
  for (const file of ['vercel.json', 'firebase.json'] as const) {
    for (const dir of dirs.filter((d) => existsSync(path.join(d, file)))) {
      const parsed = await jsonConfigRules(file, dir, root, own, diagnostics);
      if (parsed.applies && dir !== root) projectConfigs.push(path.join(dir, file));
      rules.push(...parsed.rules);
      redirects.push(...(parsed.redirects ?? []));
      routes.routes.push(...(parsed.routes?.routes ?? []));
      routes.skipped.push(...(parsed.routes?.skipped ?? []));
      cleanUrls ||= parsed.cleanUrls === true;
      cleanSlashUrls ||= parsed.cleanSlashUrls === true;
      bareDirUrls ||= parsed.bareDirUrls === true;
      bareDirKnown ||= parsed.bareDirUrls !== undefined;
      // A vercel.json that may be this site's (HOST_CONFIG_SKIPPED) may set `trailingSlash: true`: no default then.
      vercelSaid ||= file === 'vercel.json' && (parsed.bareDirUrls !== undefined || parsed.unsure === true);
      firebaseUrls ??= parsed.firebaseUrls;
    }
  }
  if (routes.skipped.length > 0) {
    const [{ file, for: source, why }] = routes.skipped as [HostRoutes['skipped'][number]];
    const n = routes.skipped.length;
    const message = `${n} host rule${n === 1 ? ' needs' : 's need'} the host itself (${file} \`${source}\`: ${why}): objpack serve answers 502 where the host runs a function or a proxy, and leaves out rules that depend on the visitor`;
    diagnostics.push({ code: WarningCode.HOST_ROUTES_SKIPPED, severity: 'warning', message, file });
  }
  // Vercel serves a directory's index at `/guide` (no redirect) unless `trailingSlash: true`, with or without
  // a vercel.json: trailing-slash-guide's deploys of each setting (github.com/slorber/trailing-slash-guide),
  // and @vercel/routing-utils adds a redirect to `/guide/` only for `trailingSlash: true`.
  // `--target vercel` alone names the host; beside another target the site may be served by one that redirects.
  const vercel = (opts.targets?.length ?? 0) > 0 && opts.targets!.every((t) => t === 'vercel');
  if (vercel && !vercelSaid) {
    bareDirUrls = true;
    bareDirKnown = true;
  }
  // `--no-clean-urls` says the host serves no page at its clean URL, with a slash or without.
  if (opts.cleanUrls === false) cleanSlashUrls = false;
  const fb = firebaseUrls ? { firebaseUrls } : {};
  const netlify = toml !== undefined;
  if (rules.length === 0)
    return {
      forPage: () => [],
      rules: [],
      diagnostics,
      cleanUrls,
      cleanSlashUrls,
      bareDirUrls,
      bareDirKnown,
      ...fb,
      redirects,
      projectConfigs,
      routes: routes.routes,
      netlify,
    };
  // With clean URLs the host serves about.html as `/about` (or `/about/`) and matches its rules against that
  // path too; with bare directory URLs guide/index.html as `/guide`.
  const clean = opts.cleanUrls ?? cleanUrls;
  const bareDirs = opts.bareDirUrls ?? bareDirUrls;
  // Rules naming one path are looked up by it: a `_headers` with a block per page costs a lookup per page.
  const index = new RuleIndex(rules);
  return {
    diagnostics,
    cleanUrls,
    cleanSlashUrls,
    bareDirUrls,
    bareDirKnown,
    ...fb,
    redirects,
    projectConfigs,
    routes: routes.routes,
    netlify,
    rules: rules.map((r) => ({
      for: r.for,
      match: r.re.source,
      ...(r.re.flags === 'iu' ? {} : { flags: r.re.flags }),
      headers: r.values
        .map(([n, v]): PageHeader => [n.toLowerCase(), v])
        .filter(([n, v]) => isHeaderName(n) && isHeaderValue(v)),
      ...(r.errorPage ? { errorPage: true as const } : {}),
    })),
    forPage(url: string): PageHeader[] {
      const merged = new Map<string, string>();
      const bare = hostAliasOf(url, { cleanUrls: clean, bareDirUrls: bareDirs, cleanSlashUrls });
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
    },
  };
}

/**
 * Whether a Netlify rule path holds a character every browser percent-encodes in a request path (non-ASCII,
 * space, `"` `<` `>` `` ` `` `{` `}`: the URL standard's path percent-encode set): Netlify tests its rules on
 * the path as requested (netlify-cli headersForPath on the request URL's pathname, with the parser's RegExp
 * of the path as written; its docs: special characters in paths must be URL-encoded), so such a rule never
 * applies there. Warned about, with the spelling that does.
 */
function neverSent(rulePath: string, diagnostics: Diagnostic[]): boolean {
  if (!/[^\x21-\x7e]|["<>`{}]/.test(rulePath)) return false;
  let encoded = rulePath;
  try {
    encoded = new URL(`//${rulePath}`, 'relative://').pathname;
  } catch {
    // Named as written.
  }
  const message = `host headers: the rule for ${rulePath} never applies on Netlify, which compares the path as the browser requests it (percent-encoded); write it as ${encoded}`;
  diagnostics.push({ code: WarningCode.HOST_HEADERS, severity: 'warning', message, file: '_headers' });
  return true;
}

/** A page URL decoded (its escapes are of UTF-8 and of characters a file name may hold, never `/`). */
function decoded(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/** The rules of one `vercel.json` / `firebase.json` in `dir`, minus the entries objpack wrote there (`own`). */
async function jsonConfigRules(
  file: 'vercel.json' | 'firebase.json',
  dir: string,
  root: string,
  own: Record<string, unknown[]>,
  diagnostics: Diagnostic[],
): Promise<ParsedRules & { redirects?: RedirectRule[]; routes?: HostRoutes; applies?: boolean; unsure?: boolean }> {
  const shown = path.relative(root, path.join(dir, file)) || file;
  let config: unknown;
  let text: string;
  try {
    text = await readFile(path.join(dir, file), 'utf8');
    config = file === 'firebase.json' ? await parseFirebaseJson(text) : JSON.parse(text);
  } catch (err) {
    diagnostics.push({
      code: WarningCode.HOST_HEADERS,
      severity: 'warning',
      message: `host headers not read: ${(err as Error).message}`,
      file: shown,
    });
    return { rules: [], diagnostics: [] };
  }
  const ours = dir === root ? (own[file] ?? []) : [];
  let parsed;
  let redirected;
  let routes: HostRoutes;
  if (file === 'vercel.json') {
    const deploys = vercelDeploys(config, dir, root);
    if (deploys !== true) {
      if (deploys === 'unsure') {
        const rel = path.relative(dir, root).split(path.sep).join('/');
        const message = `${path.join(dir, file)} names no outputDirectory and ${rel}/ is not where a framework Vercel knows writes its site (dist, build, public, _site, out…): its headers, redirects and URL settings were not applied to this site; if Vercel deploys ${rel}/ from there, add "outputDirectory": "${rel}" to it`;
        diagnostics.push({ code: WarningCode.HOST_CONFIG_SKIPPED, severity: 'warning', message, file: shown });
      }
      return { rules: [], diagnostics: [], unsure: deploys === 'unsure' };
    }
    parsed = await vercelRules(config, ours, shown);
    redirected = await vercelRedirects(config, shown, text);
    routes = await vercelRoutes(config, shown);
  } else {
    parsed = await firebaseRules(config, ours, shown, dir, root);
    const site = firebaseSite(config, dir, root);
    const hosting = (config as { hosting?: unknown } | null)?.hosting;
    const at = Array.isArray(hosting) ? ['hosting', hosting.indexOf(site)] : ['hosting'];
    redirected = site ? await firebaseRedirects(site, shown, text, at) : { rules: [], diagnostics: [] };
    routes = site ? await firebaseRoutes(site, shown) : { routes: [], skipped: [] };
  }
  diagnostics.push(...parsed.diagnostics, ...redirected.diagnostics);
  return {
    ...parsed,
    redirects: redirected.rules,
    routes,
    applies: file === 'vercel.json' || firebaseSite(config, dir, root) !== undefined,
  };
}

/**
 * Output directories of the frameworks Vercel detects (@vercel/frameworks `outputDirectory`), relative to
 * the project: where a site is when the project's vercel.json does not say.
 */
const VERCEL_OUTPUTS =
  /^(?:dist|build|public|out|_site|www|storybook-static|\.output\/public|__sapper__\/export|\.vercel\/output\/static|(?:docs\/|src\/)?\.(?:vitepress|vuepress)\/dist|dist\/[^/]+(?:\/browser)?|build\/[^/]+)$/;

/**
 * Whether the vercel.json in `dir` configures the site in `root`: its own, or the project's when its
 * `outputDirectory` is `root`. Without one, Vercel takes the detected framework's output directory, so a
 * site in such a directory is taken as the project's and one elsewhere (a docs site another host serves,
 * a fixture) is 'unsure': that config's clean or bare directory URLs would make the worker answer URLs
 * its own host redirects.
 */
function vercelDeploys(config: unknown, dir: string, root: string): boolean | 'unsure' {
  if (path.resolve(dir) === path.resolve(root)) return true;
  const outDir = (config as { outputDirectory?: unknown } | null)?.outputDirectory;
  if (typeof outDir === 'string') return path.resolve(dir, outDir) === path.resolve(root);
  return VERCEL_OUTPUTS.test(path.relative(dir, root).split(path.sep).join('/')) || 'unsure';
}

/**
 * The `netlify.toml` that configures the site: its own, else the project's (`dirs`, see hostConfigDirs)
 * unless that one's `build.publish` names another directory. Netlify reads it from the base directory,
 * usually the repository root, above the published `dist/`.
 */
export async function netlifyToml(root: string, dirs: readonly string[]): Promise<string | undefined> {
  for (const dir of dirs) {
    const file = path.join(dir, 'netlify.toml');
    if (!existsSync(file)) continue;
    if (dir === root) return file;
    let build: { base?: unknown; publish?: unknown } | undefined;
    try {
      const { parse } = await import('smol-toml');
      build = (parse(await readFile(file, 'utf8')) as { build?: typeof build }).build;
    } catch {
      // Netlify's parsers report a malformed file; here it is taken as the site's.
    }
    const base = typeof build?.base === 'string' ? build.base : '';
    if (typeof build?.publish === 'string' && path.resolve(dir, base, build.publish) !== path.resolve(root)) continue;
    return file;
  }
  return undefined;
}

/** `_headers` in `root` and `[[headers]]` of the site's `netlify.toml` (`toml`), with Netlify's parser. */
async function netlifyRules(
  root: string,
  toml: string | undefined,
  diagnostics: Diagnostic[],
  host: 'netlify' | 'cloudflare' | undefined,
): Promise<SiteRule[]> {
  let text: string;
  try {
    text = await readFile(path.join(root, '_headers'), 'utf8');
  } catch {
    text = '';
  }
  // objpack's own block (Link preloads, cache lifetimes) carries nothing a page's response needs, and on a
  // 10,000-page site it is 10,000 rules: only the user's lines are parsed.
  const user = userPart(text);
  if (!toml && !user.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'))) return [];
  let rules: Header[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'objpack-headers-'));
  try {
    const headersFile = path.join(dir, '_headers');
    await writeFile(headersFile, user);
    const { parseAllHeaders } = await import('@netlify/headers-parser');
    const parsed = await parseAllHeaders({
      headersFiles: [headersFile],
      netlifyConfigPath: toml,
      configHeaders: [],
      minimal: false,
    });
    rules = parsed.headers.filter((h): h is Header => 'forRegExp' in h);
    for (const e of parsed.errors)
      diagnostics.push({
        code: WarningCode.HOST_HEADERS,
        severity: 'warning',
        message: `host headers: ${e.message.split('\n')[0]}`,
        file: '_headers',
      });
  } catch (err) {
    diagnostics.push({
      code: WarningCode.HOST_HEADERS,
      severity: 'warning',
      message: `host headers not read: ${(err as Error).message}`,
      file: '_headers',
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (host === 'netlify') rules = rules.filter((r) => !neverSent(r.for, diagnostics));
  return rules.map((r) => {
    const re = host === 'cloudflare' ? cloudflareRuleRegExp(r.for) : r.forRegExp;
    return { for: r.for, re, test: (u) => re.test(u), values: Object.entries(r.values) };
  });
}
