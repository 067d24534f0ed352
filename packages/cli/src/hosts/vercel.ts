import path from 'node:path';
import { WarningCode, warn } from '../errors.js';
import type { HeaderRule, Host, HostReading, JsonConfig } from './host.js';
import { nothing, readConfigs, replaceOurs, toJsonHeaders } from './json-config.js';
import { vercelRules } from './vercel-headers.js';
import { vercelRouting } from './vercel-routes.js';

const FILE = 'vercel.json';

/**
 * Vercel: `vercel.json` of the site, or of the project around it when it deploys the site, read for its
 * `headers`, its routing (getTransformedRoutes) and its URL settings; `--target vercel` merges objpack's
 * header rules into the site's `vercel.json`.
 */
export const vercel = {
  name: 'vercel' as const,
  async read(site) {
    const readings: HostReading[] = [];
    // A vercel.json that may be this site's (HOST_CONFIG_SKIPPED) may set `trailingSlash: true`: no default then.
    let said = false;
    for await (const read of readConfigs(site, FILE, (text) => JSON.parse(text) as unknown)) {
      if (read === undefined) {
        readings.push(nothing());
        continue;
      }
      const { dir, shown, text, config } = read;
      const deploys = vercelDeploys(config, dir, site.root);
      if (deploys !== true) {
        if (deploys === 'unsure') {
          const rel = path.relative(dir, site.root).split(path.sep).join('/');
          const parts = { config: path.join(dir, FILE), site: rel };
          site.diagnostics.push(warn(WarningCode.HOST_CONFIG_SKIPPED, parts, { file: shown }));
          said = true;
        }
        readings.push({ ...nothing(), unsure: deploys === 'unsure' });
        continue;
      }
      const { rules, diagnostics, ...urls } = await vercelRules(
        config,
        dir === site.root ? (site.own[FILE] ?? []) : [],
        shown,
      );
      const routing = await vercelRouting(config, shown, text);
      site.diagnostics.push(...diagnostics, ...routing.diagnostics);
      said ||= urls.bareDirUrls !== undefined;
      readings.push({
        headers: rules,
        redirects: routing.redirects,
        routes: routing.routes,
        ...urls,
        ...(dir !== site.root ? { project: path.join(dir, FILE) } : {}),
      });
    }
    // Vercel serves a directory's index at `/guide` (no redirect) unless `trailingSlash: true`, with or without
    // a vercel.json: trailing-slash-guide's deploys of each setting (github.com/slorber/trailing-slash-guide),
    // and @vercel/routing-utils adds a redirect to `/guide/` only for `trailingSlash: true`.
    // `--target vercel` alone names the host; beside another target the site may be served by one that redirects.
    if (!said && site.targets.length > 0 && site.targets.every((t) => t === 'vercel'))
      readings.push({ ...nothing(), bareDirUrls: true });
    return readings;
  },
  output: {
    file: FILE,
    make: ({ headers: { rules } }) => ({
      file: FILE,
      json: (existing, previous) => vercelConfig(rules, existing, previous),
      warnings:
        rules.length > VERCEL_MAX_RULES
          ? [warn(WarningCode.HOST_CONFIG_LIMIT, { rules: rules.length, max: VERCEL_MAX_RULES })]
          : [],
    }),
  },
} satisfies Host;

/** Vercel limits a project to 1024 header routes (vercel.json `headers`). */
export const VERCEL_MAX_RULES = 1024;

/**
 * `vercel.json` with objpack's header rules appended. `previous` are the entries the last build added
 * (HOST_ENTRIES_FILE): those go, every other entry stays, even one for the same source — Vercel applies
 * every matching entry, so a user's CSP for `/` and objpack's Link for `/` both hold.
 */
export function vercelConfig(
  rules: readonly HeaderRule[],
  existing: Record<string, unknown> = {},
  previous: readonly unknown[] = [],
): JsonConfig {
  // path-to-regexp syntax: escape its operators in literal paths; '/dir/*' becomes '/dir/(.*)'.
  const source = (p: string) => (p.endsWith('/*') ? `${escapeP2R(p.slice(0, -1))}(.*)` : escapeP2R(p));
  const ours = toJsonHeaders(rules, source);
  return { config: { ...existing, headers: replaceOurs(existing.headers, previous, ours) }, ours };
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

const escapeP2R = (p: string) => p.replace(/[:()*+?{}\\]/g, (c) => `\\${c}`);
