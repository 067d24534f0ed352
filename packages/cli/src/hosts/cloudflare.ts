import { cloudflareHeaders, cloudflareProblems, cloudflareWarning } from './cloudflare-headers.js';
import { linkPatternWarning } from './header-patterns.js';
import type { Host, HostBuild, HostOutput } from './host.js';

/**
 * Cloudflare Pages: the `_headers` and `_redirects` it shares with Netlify are read by the Netlify module
 * (with Cloudflare's matching where the build targets Cloudflare alone); `--target cloudflare` writes a
 * `_headers` within Cloudflare's limits in place of the default one.
 */
export const cloudflare = {
  name: 'cloudflare' as const,
  output: { file: '_headers', make: cloudflareOutput },
} satisfies Host;

function cloudflareOutput({ headers: { own, pages, truncated }, existingHeaders, targets }: HostBuild): HostOutput {
  const made = cloudflareHeaders(own, pages, existingHeaders);
  const warnings: HostOutput['warnings'] = cloudflareProblems(made.text, made, own.length).map(cloudflareWarning);
  const pattern = linkPatternWarning(made.patterns, 'Cloudflare Pages', targets);
  if (pattern) warnings.push(pattern);
  return {
    file: '_headers',
    text: made.text,
    truncated: mergeTruncated(truncated, made.truncated),
    linkRules: { pages: made.pageRules, of: pages.length, cut: made.cut },
    warnings,
  };
}

/** Pages whose Link lost entries to 8 KB or to Cloudflare's lines, each once with all it lost. */
function mergeTruncated(
  ...lists: Array<ReadonlyArray<{ page: string; dropped: number }>>
): Array<{ page: string; dropped: number }> {
  const by = new Map<string, number>();
  for (const list of lists) for (const t of list) by.set(t.page, (by.get(t.page) ?? 0) + t.dropped);
  return [...by].map(([page, dropped]) => ({ page, dropped }));
}
