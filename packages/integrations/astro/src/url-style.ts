import type { ObjpackConfig } from 'objpack';

/** What objpack reads of Astro's resolved config for page URLs. */
export interface AstroUrlConfig {
  trailingSlash: 'always' | 'never' | 'ignore';
  build: { format: 'file' | 'directory' | 'preserve' };
}

/**
 * The URLs Astro's pages link each other by, as objpack's options: with `trailingSlash: 'never'` links name
 * `/about`, served from `about/index.html` (format `directory`: a bare directory URL) or `about.html`
 * (format `file`: a clean URL); `'always'` links `/about/`. `'ignore'` and `preserve` say nothing of the
 * links, and objpack's own warnings tell from the pages.
 */
export function urlStyle(config: AstroUrlConfig): Pick<ObjpackConfig, 'cleanUrls' | 'bareDirUrls'> {
  const { trailingSlash, build } = config;
  if (build.format === 'directory' && trailingSlash !== 'ignore') return { bareDirUrls: trailingSlash === 'never' };
  if (build.format === 'file' && trailingSlash === 'never') return { cleanUrls: true };
  return {};
}
