import { frameworkBuild, type FrameworkLogger, type IntegrationOptions } from 'objpack';
import { prefixed } from './vite-plugin.js';

/** What `withObjpack` reads of VitePress's `SiteConfig` (the argument of `buildEnd`). */
export interface VitePressSiteConfig {
  root: string;
  outDir: string;
  cleanUrls: boolean;
  site: { base: string };
  logger: FrameworkLogger;
}

/** The part of a VitePress config `withObjpack` touches. */
export interface VitePressConfigLike {
  buildEnd?: (siteConfig: never) => unknown;
}

/**
 * Wraps a `.vitepress/config` so objpack runs in `buildEnd`, once VitePress has written every page (the
 * user's own `buildEnd` runs first). VitePress's `outDir`, `site.base`, `cleanUrls` and root come from its
 * site config.
 */
export function withObjpack<T extends VitePressConfigLike>(config: T, options: IntegrationOptions = {}): T {
  const own = config.buildEnd as ((siteConfig: VitePressSiteConfig) => unknown) | undefined;
  return {
    ...config,
    async buildEnd(siteConfig: VitePressSiteConfig) {
      await own?.(siteConfig);
      await frameworkBuild({
        integration: '@objpack/vite withObjpack',
        projectDir: siteConfig.root,
        framework: { root: siteConfig.outDir, base: siteConfig.site.base, cleanUrls: siteConfig.cleanUrls },
        options,
        logger: prefixed(siteConfig.logger),
      });
    },
  };
}
