import { isHeaderList } from './header-list.js';
import type { ParsedRules } from './host.js';
import { headersWarning } from './host-route.js';

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
  if (!Array.isArray(entries)) return { ...out, diagnostics: [headersWarning(file, '`headers` is not a list')] };
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
        headersWarning(
          file,
          `entry ${JSON.stringify(e)?.slice(0, 80)} has no string \`source\` and \`headers\` list; left out`,
        ),
      );
      continue;
    }
    if (has !== undefined || missing !== undefined) {
      out.diagnostics.push(
        headersWarning(
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
      out.diagnostics.push(headersWarning(file, `${source}: ${(err as Error).message}`));
    }
  }
  return out;
}
