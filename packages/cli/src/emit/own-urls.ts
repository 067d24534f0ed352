import { ROUTES_FILE, RuleIndex } from '@objpack/format';
import { WarningCode, warn } from '../errors.js';
import { safeDecode } from '../discover/site-origin.js';
import type { Diagnostic } from '../discover/types.js';
import type { RedirectRule } from '../hosts/host.js';
import { registerPath, workerPath } from '../inject/inject.js';

/** The URLs objpack's worker needs from the host, as the build writes them. */
export interface OwnUrls {
  /** The worker and its registration script were written (not `--no-sw`). */
  worker: boolean;
  /** Page and shared package URLs. */
  packages: readonly string[];
  /** The base path the site is served under (default `/`): objpack's URLs lie under it. */
  base?: string;
}

/** What breaks when the host answers one of objpack's URLs itself. */
function consequence(url: string, base: string): string {
  if (url === workerPath(base)) return 'browsers never get the service worker, so it never installs';
  if (url === registerPath(base)) return 'pages never register the service worker';
  if (url === `${base}${ROUTES_FILE}`) return 'the worker never gets its route table, so it answers no page';
  return 'the worker gets something else than its packages, so every navigation it answers falls back to the network';
}

/** How to keep objpack's URLs out of a rule, in the host's own terms (`b`: the base path). */
function remedy(rule: RedirectRule, b: string): string {
  if (rule.file.endsWith('vercel.json')) {
    return (
      `leave objpack's paths out of its source (\`${b}((?!_objpack/|objpack-).*)\`), ` +
      'or make it a `rewrites` entry, ' +
      'which Vercel applies only where no file is'
    );
  }
  if (rule.file.endsWith('firebase.json'))
    return "leave objpack's paths out of its source: superstatic applies `redirects` before any file";
  const to = (path: string, force: string) => `\`${b}${path}  ${b}${path.replace('*', ':splat')}  200${force}\``;
  const keep = (force: string) =>
    `${to('objpack-sw.js', force)}, ${to('objpack-register.js', force)} and ${to('_objpack/*', force)}`;
  if (!rule.beforeFiles) {
    return `put ${keep('')} before it (Cloudflare takes no \`!\`), or leave objpack's paths out of its source`;
  }
  return `put ${keep('!')} before it, or drop its \`!\` if it should yield to files`;
}

/**
 * Host rules that take one of objpack's own URLs before the site's files (RedirectRule.beforeFiles: a
 * forced Netlify rule such as `/* /index.html 200!`, a vercel.json redirect or legacy route of `/(.*)`, a
 * firebase.json redirect; RedirectRule.beforeFilesOn: any `_redirects` rule Cloudflare Pages accepts, as it
 * applies them all before its files): the worker's script, its registration, its route table or the packages
 * never reach the browser, and the site silently works without objpack. One warning per rule, with its file
 * and line and the first such URL it takes (worker files first). A URL goes to the first rule that takes it
 * on that host, so a rewrite of objpack's paths to themselves before the rule (`/_objpack/*  /_objpack/:splat
 * 200!`) keeps them. Rules that yield to files (unforced rules on Netlify, Vercel and Firebase `rewrites`)
 * never take a file objpack wrote and are not checked; neither are rules for another host than the site's
 * (`host`). A `_redirects` without a netlify.toml may be either host's: its unforced rules are named for
 * Cloudflare Pages, where they do take objpack's files.
 */
export function ownUrlShadows(rules: readonly RedirectRule[], own: OwnUrls, host?: string): Diagnostic[] {
  const forHost = rules.filter((r) => r.host === undefined || host === undefined || r.host === host.toLowerCase());
  const base = own.base ?? '/';
  const worker = own.worker ? [workerPath(base), registerPath(base)] : [];
  const urls = [...worker, `${base}${ROUTES_FILE}`, ...own.packages];
  // Each host tries its own rules: Cloudflare Pages never applies a forced (`!`) rule, Netlify an unforced one only
  // where no file is.
  const taken = new Map([
    ...firstTakers(
      forHost.filter((r) => r.beforeFiles),
      urls,
    ),
    ...firstTakers(
      forHost.filter((r) => r.beforeFilesOn),
      urls,
    ),
  ]);
  return forHost
    .filter((r) => taken.has(r))
    .map((rule) => {
      const url = taken.get(rule)!;
      const where = rule.beforeFiles
        ? ''
        : ` on ${rule.beforeFilesOn} (which applies \`_redirects\` before its files; Netlify applies a rule without ` +
          `\`!\` only where no file is, and a netlify.toml tells the build the site is Netlify's)`;
      const parts = {
        rule: rule.written ?? rule.for,
        url,
        where,
        effect: consequence(url, base),
        fix: remedy(rule, base),
      };
      return warn(WarningCode.HOST_ROUTE_SHADOWS_OWN, parts, {
        file: rule.file,
        ...(rule.line !== undefined ? { line: rule.line } : {}),
      });
    });
}

/**
 * For each rule of `live` (one host's, in its order), the first of `urls` it is the first rule to take without serving
 * it its own file.
 */
function firstTakers(live: readonly RedirectRule[], urls: readonly string[]): Map<RedirectRule, string> {
  const taken = new Map<RedirectRule, string>();
  if (live.length === 0) return taken;
  const index = new RuleIndex(live);
  for (const url of urls) {
    const decoded = safeDecode(url);
    const forms = decoded === undefined || decoded === url ? [url] : [url, decoded];
    // The host applies the first rule that takes the URL; one that serves the URL its own file keeps it.
    const first = index
      .candidates(forms)
      .map((i) => live[i]!)
      .find((r) => forms.some((u) => r.test(u)));
    if (first && !taken.has(first) && !forms.some((u) => first.keeps?.(u))) taken.set(first, url);
  }
  return taken;
}
