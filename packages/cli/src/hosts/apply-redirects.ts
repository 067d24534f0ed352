import { RuleIndex } from '@objpack/format';
import { hostAliasOf, safeDecode } from '../discover/site-origin.js';
import type { RedirectRule } from './host.js';

/** Largest pages × pattern rules product for which pattern rules that take no page are dropped from the route table. */
const FILTER_LIMIT = 4_000_000;

/**
 * Which pages the host's rules take, and which rules the worker needs. `redirected`: pages whose URL as
 * the site links it (`/guide/`, `/about.html`, with clean URLs `/about` or `/about/`, with bare directory URLs
 * `/guide`) a rule takes, with the first such rule (for the build's warning). `rules`: those that take any URL the
 * worker would answer for a page (also `/guide/index.html`, and `/about.html` with clean URLs), as sent or
 * percent-decoded; the rest concern URLs the worker leaves to the network anyway and would only weigh on the route
 * table. Rules naming one path are looked up by it, so 50,000 of them cost what a few do; pattern rules are tested
 * against every page, up to FILTER_LIMIT tests (past it, all of them are kept).
 */
export function applyRedirects(
  urls: readonly string[],
  rules: readonly RedirectRule[],
  {
    cleanUrls,
    bareDirUrls = false,
    cleanSlashUrls = false,
  }: { cleanUrls: boolean; bareDirUrls?: boolean; cleanSlashUrls?: boolean },
  host?: string,
): { redirected: Array<{ url: string; rule: RedirectRule }>; rules: RedirectRule[] } {
  const redirected: Array<{ url: string; rule: RedirectRule }> = [];
  // A domain-level rule for another host than the site's (when `--origin` names it) never applies.
  const live = rules.filter((r) => r.host === undefined || host === undefined || r.host === host.toLowerCase());
  if (live.length === 0) return { redirected, rules: [] };
  const index = new RuleIndex(live);
  // A URL as written and percent-decoded (hosts match either), decoded once per URL, not once per rule.
  const forms = (u: string): string[] => {
    const d = safeDecode(u);
    return d === undefined || d === u ? [u] : [u, d];
  };
  const takes = (r: RedirectRule, us: readonly string[]) => us.some((u) => r.test(u));
  const filter = urls.length * index.patterns.length <= FILTER_LIMIT;
  const used = new Set<RedirectRule>(filter ? [] : index.patterns.map((i) => live[i]!));
  for (const url of urls) {
    const bare = hostAliasOf(url, { cleanUrls, bareDirUrls, cleanSlashUrls });
    const clean = bare === undefined ? undefined : forms(bare);
    const seen = clean ?? forms(url);
    // The host applies the first rule that takes the URL.
    const first = index
      .candidates(seen)
      .find((i) => (clean !== undefined || !live[i]!.cleanOnly) && takes(live[i]!, seen));
    if (first !== undefined) redirected.push({ url: bare ?? url, rule: live[first]! });
    const files = [...forms(url), ...(url.endsWith('/') ? forms(`${url}index.html`) : [])];
    for (const i of index.literals(files)) if (!live[i]!.cleanOnly && takes(live[i]!, files)) used.add(live[i]!);
    if (clean !== undefined) for (const i of index.literals(clean)) if (takes(live[i]!, clean)) used.add(live[i]!);
    if (!filter) continue;
    for (const i of index.patterns) {
      const r = live[i]!;
      if (used.has(r)) continue;
      if ((!r.cleanOnly && takes(r, files)) || (clean !== undefined && takes(r, clean))) used.add(r);
    }
  }
  return { redirected, rules: live.filter((r) => used.has(r)) };
}
