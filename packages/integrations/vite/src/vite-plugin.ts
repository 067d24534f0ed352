import path from 'node:path';
import { frameworkBuild, type FrameworkLogger, type IntegrationOptions } from 'objpack';

/** What the plugin reads of Vite's resolved config (the same in Vite 5, 6 and 7). */
export interface ViteResolvedConfig {
  root: string;
  base: string;
  build: { outDir: string; ssr?: boolean | string };
  logger: FrameworkLogger;
  /** Set by VitePress on the config of its own Vite builds. */
  vitepress?: unknown;
}

/** A Vite plugin, as far as this one uses the interface (Vite's own `Plugin` type accepts it). */
export interface ObjpackVitePlugin {
  name: string;
  apply: 'build';
  enforce: 'post';
  configResolved(config: ViteResolvedConfig): void;
  closeBundle: {
    order: 'post';
    sequential: true;
    handler(this: { environment?: { config: { consumer?: string } } }): Promise<void>;
  };
}

/** Messages through Vite's logger, marked as objpack's (Vite's logger names no plugin). */
export function prefixed(logger: FrameworkLogger): FrameworkLogger {
  return {
    info: (m) => logger.info(`[objpack] ${m}`),
    warn: (m) => logger.warn(`[objpack] ${m}`),
    error: (m) => logger.error(`[objpack] ${m}`),
  };
}

/**
 * Packages the client build's output once Vite has written it (`closeBundle`, after every other plugin).
 * Server builds (SSR, and Vite 6+ environments whose consumer is the server) are skipped: their output is
 * no site. Vite's `base`, when a path, is the site's base. Options are objpack.config keys; they win over
 * the config file and over Vite's config.
 */
export function objpack(options: IntegrationOptions = {}): ObjpackVitePlugin {
  let config: ViteResolvedConfig | undefined;
  return {
    name: 'objpack',
    apply: 'build',
    enforce: 'post',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (!config || config.build.ssr || (this.environment && this.environment.config.consumer !== 'client')) return;
        const logger = prefixed(config.logger);
        // VitePress renders its pages after Vite's bundle: this output has none yet.
        if (config.vitepress !== undefined) {
          logger.warn(
            'VitePress writes its pages after this hook: ' +
              'use withObjpack(config) from @objpack/vite in .vitepress/config instead',
          );
          return;
        }
        await frameworkBuild({
          integration: '@objpack/vite',
          projectDir: config.root,
          // A relative base (`./`) leaves the site's path open: objpack then takes it from the pages, or `/`.
          framework: {
            root: path.resolve(config.root, config.build.outDir),
            ...(config.base.startsWith('/') ? { base: config.base } : {}),
          },
          options,
          logger,
        });
      },
    },
  };
}
