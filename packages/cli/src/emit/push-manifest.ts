import type { BuildManifest } from '@objpack/format';

/** prpl-server's multi-file push manifest: page URL pattern → { resource: { type, weight } }. */
export function pushManifest(
  manifest: BuildManifest,
): Record<string, Record<string, { type: string; weight: number }>> {
  const out: Record<string, Record<string, { type: string; weight: number }>> = {};
  for (const [url, page] of Object.entries(manifest.pages)) {
    const entry: Record<string, { type: string; weight: number }> = {};
    for (const c of page.critical) entry[c.path] = { type: c.as, weight: 1 };
    out[url] = entry;
  }
  return out;
}
