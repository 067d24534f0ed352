import path from 'node:path';
import { frameworkBuild, type FrameworkLogger, type IntegrationOptions } from 'objpack';

/** The argument of Eleventy 3's `eleventy.after` event, as far as objpack reads it. */
export interface EleventyAfterEvent {
  directories: { output: string };
  runMode: 'build' | 'watch' | 'serve';
  outputMode: 'fs' | 'json' | 'ndjson';
}

/** What the plugin uses of Eleventy's config API. */
export interface EleventyConfigLike {
  on(event: 'eleventy.after', listener: (event: EleventyAfterEvent) => Promise<void>): unknown;
  /** Eleventy 3's console logger (Eleventy 2 has none). */
  logger: FrameworkLogger;
  pathPrefix?: string;
}

export const NAME = '@objpack/eleventy';

/**
 * `eleventyConfig.addPlugin(objpack, options)`: packages Eleventy's output after a build that wrote files
 * (`eleventy.after`), never after the rebuilds of `--serve` or `--watch`, where the worker would cache a
 * site that is still changing. Eleventy's `pathPrefix` is the site's base. Options are objpack.config keys;
 * they win over Eleventy's settings and the config file.
 */
export default function objpackPlugin(eleventyConfig: EleventyConfigLike, options: IntegrationOptions = {}): void {
  eleventyConfig.on('eleventy.after', async ({ directories, runMode, outputMode }) => {
    if (runMode !== 'build' || outputMode !== 'fs') return;
    const own = eleventyConfig.logger;
    const say = (m: string) => `[objpack] ${m}`;
    const logger: FrameworkLogger = {
      info: (m) => own.info(say(m)),
      warn: (m) => own.warn(say(m)),
      error: (m) => own.error(say(m)),
    };
    await frameworkBuild({
      integration: NAME,
      projectDir: process.cwd(),
      // Eleventy sets pathPrefix (config or --pathprefix, default `/`) before plugins run.
      framework: {
        root: path.resolve(directories.output),
        ...(eleventyConfig.pathPrefix ? { base: eleventyConfig.pathPrefix } : {}),
      },
      options,
      logger,
    });
  });
}
