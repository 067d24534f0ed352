import type { FirebaseUrls, HostHeaderRule, HostRedirectRule, HostRoute } from '@objpack/format';
import { WarningCode, warn } from '../errors.js';
import type { Diagnostic } from '../discover/types.js';
import { applyRedirects } from './apply-redirects.js';
import type { HostTarget } from './index.js';
import type { SiteHosts } from './read-hosts.js';

/**
 * What the build knows of the site's host, settled once the pages are known and handed to the stages that
 * write it: the manifest's host record, the route table's URL aliases and which host files to write.
 */
export interface HostProfile {
  /** `--target` hosts. */
  targets: readonly HostTarget[];
  /**
   * A netlify.toml or `--target netlify` says the site is Netlify's: its `_headers` has none of Cloudflare's limits.
   */
  netlify: boolean;
  /** The site's host header rules, recorded in the manifest for `objpack serve`. */
  hostHeaders: readonly HostHeaderRule[];
  /** Host rules that take URLs before the files (manifest `hostRedirects`, route table `redirects`). */
  hostRedirects: readonly HostRedirectRule[];
  /** Every host redirect and rewrite `objpack serve` applies (manifest `hostRoutes`; not in the route table). */
  hostRoutes: readonly HostRoute[];
  /** The host serves `/about.html` at `/about`. */
  cleanUrls: boolean;
  /** The host serves `/about.html` at `/about/`. */
  cleanSlashUrls: boolean;
  /** The host serves `/guide/index.html` at `/guide`. */
  bareDirUrls: boolean;
  /** firebase.json's `cleanUrls`/`trailingSlash`, which `objpack serve` applies as superstatic looks files up. */
  firebaseUrls?: FirebaseUrls;
}

/**
 * The profile of a site's hosts for these pages, with the options' say over the configs' (`--clean-urls`,
 * `--bare-dir-urls`): which pages the host redirects before its files (one warning naming the first), and
 * the rules the worker needs of them. `host`: the site's host (`--origin`), for domain-level rules.
 */
export function settleHosts(
  site: SiteHosts,
  options: { cleanUrls?: boolean; bareDirUrls?: boolean; targets?: readonly HostTarget[]; host?: string },
  pageUrls: readonly string[],
): { profile: HostProfile; diagnostics: Diagnostic[] } {
  const cleanUrls = options.cleanUrls ?? site.cleanUrls;
  const bareDirUrls = options.bareDirUrls ?? site.bareDirUrls;
  const { cleanSlashUrls } = site;
  const diagnostics: Diagnostic[] = [];
  const { redirected, rules } = applyRedirects(
    pageUrls,
    site.redirects,
    { cleanUrls, bareDirUrls, cleanSlashUrls },
    options.host,
  );
  if (redirected.length > 0) {
    const { url, rule } = redirected[0]!;
    const parts = { pages: redirected.length, url, file: rule.file, rule: rule.for };
    diagnostics.push(warn(WarningCode.PAGES_REDIRECTED, parts, { file: rule.file }));
  }
  const targets = options.targets ?? [];
  const profile: HostProfile = {
    targets,
    // `--target netlify` names the host as a netlify.toml does.
    netlify: site.netlify || targets.includes('netlify'),
    hostHeaders: site.rules,
    hostRedirects: rules.map((r) => ({
      file: r.file,
      for: r.for,
      match: r.re.source,
      flags: r.re.flags,
      ...(r.host !== undefined ? { host: r.host } : {}),
      ...(r.cleanOnly ? { cleanOnly: true as const } : {}),
    })),
    hostRoutes: site.routes,
    cleanUrls,
    cleanSlashUrls,
    bareDirUrls,
    ...(site.firebaseUrls ? { firebaseUrls: site.firebaseUrls } : {}),
  };
  return { profile, diagnostics };
}
