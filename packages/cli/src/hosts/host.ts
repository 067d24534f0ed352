import type { BuildManifest, FirebaseUrls, HostRoute } from '@objpack/format';
import type { Diagnostic } from '../discover/types.js';
import type { HeaderRule, HeaderRules } from './header-rules.js';

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

/**
 * The host's redirects and rewrites as `objpack serve` applies them (manifest `hostRoutes`), and the rules
 * it cannot apply (`skipped`: a function, a proxy, a condition on the visitor), which the build names in a
 * warning. Destinations become HostRoute templates (`$1`, `${name}`, `$$`).
 */
export interface HostRoutes {
  routes: HostRoute[];
  skipped: Array<{ file: string; for: string; why: string }>;
}

/** What a host config says of the URLs the host serves pages at. */
export interface HostUrls {
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

/** A JSON config's header rules and what it says of the host's URLs. */
export interface ParsedRules extends HostUrls {
  rules: SiteRule[];
  diagnostics: Diagnostic[];
}

/** What one host config of the site says, every pattern in it compiled once. */
export interface HostReading extends HostUrls {
  headers: SiteRule[];
  redirects: RedirectRule[];
  routes: HostRoutes;
  /** The config is outside the site (the project's) and configures it. */
  project?: string;
  /** The config names the site's host (a netlify.toml: the site is Netlify's, not Cloudflare Pages'). */
  names?: string;
  /** The config may be this site's but was not applied: the host's URL defaults are not assumed either. */
  unsure?: boolean;
}

/** The site as every host reader sees it. */
export interface HostSite {
  root: string;
  /** Where host configs are looked for, the site first (hostConfigDirs). */
  dirs: readonly string[];
  /** `--target` hosts. */
  targets: readonly string[];
  /** The `headers` entries objpack wrote to each host JSON config of the site (HOST_ENTRIES_FILE). */
  own: Readonly<Record<string, unknown[]>>;
  /** Where readers report what they cannot read or apply, in the order they read it. */
  diagnostics: Diagnostic[];
}

/** A warning about a host file the build writes, made from the diagnostics catalog. */
export type HostWarning = Diagnostic;

/** `--target cloudflare`: `pages` with a Link rule in `_headers`, `of` those with preloads, `cut` for want of room. */
export interface LinkRules {
  pages: number;
  of: number;
  cut: number;
}

/** What a host's output is made from: the finished manifest's header rules and what the build knows of the site. */
export interface HostBuild {
  manifest: BuildManifest;
  headers: HeaderRules;
  /** `_headers` as the output directory holds it before this build (the user's rules outside objpack's block). */
  existingHeaders: string;
  targets: readonly string[];
  /** A netlify.toml or `--target netlify` says the site is Netlify's. */
  netlify: boolean;
}

/**
 * One file a host reads: `text` to write as it is, or `json` to merge into the config the output directory
 * holds (`previous`: the entries objpack wrote there last time; a string says why the file is left alone).
 */
export interface HostOutput {
  file: string;
  text?: string;
  json?(existing: Record<string, unknown>, previous: readonly unknown[]): JsonConfig | string;
  warnings: HostWarning[];
  /** Pages whose Link header lost entries to the host's limits. */
  truncated?: Array<{ page: string; dropped: number }>;
  linkRules?: LinkRules;
}

/** A `headers` entry of `vercel.json` / `firebase.json`. */
export interface JsonHeaderEntry {
  source: string;
  headers: Array<{ key: string; value: string }>;
}

/** A host JSON config with objpack's entries in it, and those entries (for HOST_ENTRIES_FILE). */
export interface JsonConfig {
  config: Record<string, unknown>;
  ours: JsonHeaderEntry[];
}

/**
 * A static host objpack knows: how it reads the site's config (once, into rules whose patterns are compiled
 * once) and the file it is given. A new host is a module exporting one of these and a line in hosts/index.ts.
 */
export interface Host {
  /** The `--target` name. */
  name: string;
  /** The host's configs of the site, one reading each; absent for a host whose config objpack does not read. */
  read?(site: HostSite): Promise<HostReading[]>;
  /**
   * The file the host reads objpack's header rules from. Written when `--target` names the host, or on every
   * build (`always`) unless a targeted host writes the same file.
   */
  output?: { file: string; always?: true; make(build: HostBuild): HostOutput };
}

export type { HeaderRule, HeaderRules };
