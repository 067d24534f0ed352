import path from 'node:path';
import { firebaseRules, firebaseSite } from './firebase-headers.js';
import { parseFirebaseJson } from './firebase-json.js';
import { firebaseRouting } from './firebase-routes.js';
import type { HeaderRule, Host, HostReading, JsonConfig } from './host.js';
import { nothing, readConfigs, replaceOurs, toJsonHeaders } from './json-config.js';

const FILE = 'firebase.json';

/**
 * Firebase Hosting: the `firebase.json` site that publishes the built directory (the site's own config, or
 * the project's), read for its `headers`, `redirects`, `rewrites` and URL settings as superstatic applies
 * them; `--target firebase` merges objpack's header rules into the site's `firebase.json`.
 */
export const firebase = {
  name: 'firebase' as const,
  async read(site) {
    const readings: HostReading[] = [];
    for await (const read of readConfigs(site, FILE, parseFirebaseJson)) {
      if (read === undefined) {
        readings.push(nothing());
        continue;
      }
      const { dir, shown, text, config } = read;
      const own = dir === site.root ? (site.own[FILE] ?? []) : [];
      const { rules, diagnostics, ...urls } = await firebaseRules(config, own, shown, dir, site.root);
      const hosting = firebaseSite(config, dir, site.root);
      const all = (config as { hosting?: unknown } | null)?.hosting;
      const at = Array.isArray(all) ? ['hosting', all.indexOf(hosting)] : ['hosting'];
      const routing = hosting ? await firebaseRouting(hosting, shown, text, at) : { ...nothing(), diagnostics: [] };
      site.diagnostics.push(...diagnostics, ...routing.diagnostics);
      readings.push({
        headers: rules,
        redirects: routing.redirects,
        routes: routing.routes,
        ...urls,
        ...(hosting !== undefined && dir !== site.root ? { project: path.join(dir, FILE) } : {}),
      });
    }
    return readings;
  },
  output: {
    file: FILE,
    make: ({ headers: { rules } }) => ({
      file: FILE,
      json: (existing, previous) => firebaseConfig(rules, existing, previous),
      warnings: [],
    }),
  },
} satisfies Host;

/**
 * `firebase.json` with the rules under `hosting.headers` (glob sources), merged as in vercelConfig. With
 * several `hosting` sites, the one that publishes this directory (`public` '.'); none is an error message.
 */
export function firebaseConfig(
  rules: readonly HeaderRule[],
  existing: Record<string, unknown> = {},
  previous: readonly unknown[] = [],
): JsonConfig | string {
  const source = (p: string) => (p.endsWith('/*') ? `${escapeGlob(p.slice(0, -1))}**` : escapeGlob(p));
  const ours = toJsonHeaders(rules, source);
  const merged = (site: Record<string, unknown>) => ({ ...site, headers: replaceOurs(site.headers, previous, ours) });
  const isSite = (h: unknown): h is Record<string, unknown> => h !== null && typeof h === 'object' && !Array.isArray(h);
  if (Array.isArray(existing.hosting)) {
    const sites = existing.hosting as unknown[];
    const at = sites.findIndex((h) => isSite(h) && (h.public === '.' || h.public === '' || h.public === './'));
    if (at < 0) return 'several hosting sites and none with "public": "." (this directory): left as it is';
    return {
      config: { ...existing, hosting: sites.map((h, i) => (i === at ? merged(h as Record<string, unknown>) : h)) },
      ours,
    };
  }
  return {
    config: { ...existing, hosting: merged(isSite(existing.hosting) ? existing.hosting : { public: '.' }) },
    ours,
  };
}

// `(` `)` too: minimatch (superstatic) reads `+(…)` and `@(…)` as extglobs, so /a+(b).html matched /ab.html, not
// itself.
const escapeGlob = (p: string) => p.replace(/[*?[\]{}!()\\]/g, (c) => `\\${c}`);
