import { fileURLToPath } from 'node:url';
import { frameworkBuild, type FrameworkLogger, type IntegrationOptions } from 'objpack';
import { urlStyle, type AstroUrlConfig } from './url-style.js';

/** What the integration reads of Astro's resolved config (Astro 4 and 5). */
export interface AstroConfigLike extends AstroUrlConfig {
  root: URL;
  site?: string;
  base: string;
  prefetch?: boolean | object;
  integrations: Array<{ name: string; hooks: Record<string, unknown> }>;
}

/** An Astro integration, as far as this one uses the interface (Astro's `AstroIntegration` accepts it). */
export interface ObjpackAstroIntegration {
  name: string;
  hooks: {
    'astro:config:done'(params: { config: AstroConfigLike; logger: FrameworkLogger }): void;
    'astro:build:done'(params: { dir: URL; logger: FrameworkLogger }): Promise<void>;
  };
}

export const NAME = '@objpack/astro';

/**
 * Packages Astro's static output once the build is done (`astro:build:done`, with Astro's `dir`). Astro's
 * `base`, `site`, `trailingSlash` and `build.format` become objpack's base, origin and URL style; options are
 * objpack.config keys and win over both.
 */
export function objpack(options: IntegrationOptions = {}): ObjpackAstroIntegration {
  let config: AstroConfigLike | undefined;
  return {
    name: NAME,
    hooks: {
      'astro:config:done'({ config: resolved, logger }) {
        config = resolved;
        if (resolved.prefetch) {
          logger.warn(
            "Astro's prefetch is on: it fetches linked pages that the objpack worker fetches again as packages; " +
              'set `prefetch: false`',
          );
        }
        // Integrations run their hooks in order: a later one's build:done sees (and may rewrite) the output
        // after objpack packaged it, and the packages would keep the pages as they were.
        const at = resolved.integrations.findIndex((i) => i.name === NAME);
        const later = resolved.integrations
          .slice(at + 1)
          .filter((i) => 'astro:build:done' in i.hooks)
          .map((i) => i.name);
        if (at >= 0 && later.length > 0) {
          logger.warn(
            `${later.join(', ')} run${later.length === 1 ? 's' : ''} after objpack at astro:build:done and may ` +
              `change the output it packaged: list ${NAME} last in \`integrations\``,
          );
        }
      },
      async 'astro:build:done'({ dir, logger }) {
        if (!config) return;
        await frameworkBuild({
          integration: NAME,
          projectDir: fileURLToPath(config.root),
          framework: {
            root: fileURLToPath(dir),
            base: config.base,
            ...(config.site ? { origin: new URL(config.site).origin } : {}),
            ...urlStyle(config),
          },
          options,
          logger,
        });
      },
    },
  };
}
