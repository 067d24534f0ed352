import path from 'node:path';
import { WarningCode } from '../errors.js';
import type { Diagnostic } from '../discover/types.js';

/** A host header rule as the build applies it: the pattern as written, its compiled form, its headers. */
export interface SiteRule {
  for: string;
  re: RegExp;
  /** Header names as written (matching is case-insensitive; callers lower-case them). */
  values: Array<[string, string]>;
}

export interface ParsedRules {
  rules: SiteRule[];
  diagnostics: Diagnostic[];
}

type HeaderList = Array<{ key: string; value: string }>;

const isHeaderList = (h: unknown): h is HeaderList =>
  Array.isArray(h) && h.every((x) => x !== null && typeof x === 'object' && typeof (x as { key?: unknown }).key === 'string' && typeof (x as { value?: unknown }).value === 'string');

const warn = (file: string, message: string): Diagnostic => ({ code: WarningCode.HOST_HEADERS, severity: 'warning', message: `host headers: ${message}`, file });

/**
 * `vercel.json` `headers`, with Vercel's own source compiler (@vercel/routing-utils). Matched without
 * regard to case, as Vercel routes are unless a build output marks them case-sensitive. An entry with
 * `has`/`missing` conditions depends on the request (cookies, query, host): it is left out, with a warning,
 * rather than applied to every request. `own` are the entries objpack wrote (HOST_ENTRIES_FILE).
 */
export async function vercelRules(config: unknown, own: readonly unknown[], file: string): Promise<ParsedRules> {
  const out: ParsedRules = { rules: [], diagnostics: [] };
  const entries = (config as { headers?: unknown } | null)?.headers;
  if (entries === undefined) return out;
  if (!Array.isArray(entries)) return { rules: [], diagnostics: [warn(file, '`headers` is not a list')] };
  const ours = new Set(own.map((e) => JSON.stringify(e)));
  const { sourceToRegex } = await import('@vercel/routing-utils');
  for (const e of entries as unknown[]) {
    if (ours.has(JSON.stringify(e))) continue;
    const { source, headers, has, missing } = (e ?? {}) as { source?: unknown; headers?: unknown; has?: unknown; missing?: unknown };
    if (typeof source !== 'string' || !isHeaderList(headers)) {
      out.diagnostics.push(warn(file, `entry ${JSON.stringify(e)?.slice(0, 80)} has no string \`source\` and \`headers\` list; left out`));
      continue;
    }
    if (has !== undefined || missing !== undefined) {
      out.diagnostics.push(warn(file, `${source}: rules with \`has\`/\`missing\` depend on the request; not applied to pages served from packages`));
      continue;
    }
    try {
      out.rules.push({ for: source, re: new RegExp(sourceToRegex(source).src, 'i'), values: headers.map((h) => [h.key, h.value]) });
    } catch (err) {
      out.diagnostics.push(warn(file, `${source}: ${(err as Error).message}`));
    }
  }
  return out;
}

/**
 * `firebase.json` `hosting.headers` as Firebase Hosting (superstatic) matches them: `source`/`glob` with
 * minimatch (a leading `/` added when missing), `regex` as a Unicode regular expression. With several
 * `hosting` sites, the one whose `public` directory is `root`; a config in another directory must name `root`
 * as its `public` (it may be another site's).
 */
export async function firebaseRules(config: unknown, own: readonly unknown[], file: string, configDir: string, root: string): Promise<ParsedRules> {
  const out: ParsedRules = { rules: [], diagnostics: [] };
  const hosting = (config as { hosting?: unknown } | null)?.hosting;
  const sites = (Array.isArray(hosting) ? hosting : hosting ? [hosting] : []) as Array<{ public?: unknown; headers?: unknown }>;
  const publishes = (s: { public?: unknown }) => typeof s?.public === 'string' && path.resolve(configDir, s.public) === path.resolve(root);
  const site = sites.find(publishes) ?? (path.resolve(configDir) === path.resolve(root) && sites.length === 1 ? sites[0] : undefined);
  if (!site || site.headers === undefined) return out;
  if (!Array.isArray(site.headers)) return { rules: [], diagnostics: [warn(file, '`hosting.headers` is not a list')] };
  const ours = new Set(own.map((e) => JSON.stringify(e)));
  const { minimatch } = await import('minimatch');
  for (const e of site.headers as unknown[]) {
    if (ours.has(JSON.stringify(e))) continue;
    const { source, glob, regex, headers } = (e ?? {}) as { source?: unknown; glob?: unknown; regex?: unknown; headers?: unknown };
    const pattern = typeof source === 'string' ? source : typeof glob === 'string' ? glob : undefined;
    if ((pattern === undefined && typeof regex !== 'string') || !isHeaderList(headers)) {
      out.diagnostics.push(warn(file, `entry ${JSON.stringify(e)?.slice(0, 80)} has no \`source\`/\`regex\` and \`headers\` list; left out`));
      continue;
    }
    const values = headers.map((h): [string, string] => [h.key, h.value]);
    try {
      if (pattern !== undefined) {
        const re = minimatch.makeRe(pattern.startsWith('/') ? pattern : `/${pattern}`);
        if (re === false) throw new Error('not a valid glob');
        out.rules.push({ for: pattern, re, values });
      } else {
        out.rules.push({ for: regex as string, re: new RegExp(regex as string, 'u'), values });
      }
    } catch (err) {
      out.diagnostics.push(warn(file, `${pattern ?? (regex as string)}: ${(err as Error).message}`));
    }
  }
  return out;
}
