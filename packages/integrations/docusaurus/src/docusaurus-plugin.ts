import docusaurusLogger from '@docusaurus/logger';
import { frameworkBuild, type IntegrationOptions, type ObjpackConfig } from 'objpack';
import { localesToBuild, outputRoot } from './locales.js';

/** What the plugin reads of the props Docusaurus passes to `postBuild` (Docusaurus 3). */
export interface PostBuildProps {
  siteDir: string;
  outDir: string;
  baseUrl: string;
  siteConfig: { url: string; trailingSlash?: boolean };
  i18n: {
    defaultLocale: string;
    locales: string[];
    currentLocale: string;
    localeConfigs: Record<string, { baseUrl?: string }>;
  };
}

/** A Docusaurus plugin, as far as this one uses the interface. */
export interface ObjpackDocusaurusPlugin {
  name: string;
  postBuild(props: PostBuildProps): Promise<void>;
}

export const NAME = '@objpack/docusaurus';

// A CommonJS module: Node gives ESM its `module.exports`, whose `default` is the logger.
const logger = docusaurusLogger.default;

/**
 * Docusaurus's `trailingSlash` as objpack's URL style: `false` writes `guide.html` and links `/guide` (a
 * clean URL); `true` links `/guide/`; unset, pages are `guide/index.html` linked as `/guide`, which only
 * some hosts serve (objpack's warning says so).
 */
export function urlStyle(trailingSlash: boolean | undefined): Pick<ObjpackConfig, 'cleanUrls' | 'bareDirUrls'> {
  if (trailingSlash === false) return { cleanUrls: true };
  if (trailingSlash === true) return { bareDirUrls: false };
  return {};
}

/**
 * `plugins: [['@objpack/docusaurus', options]]`: Docusaurus builds each locale into its own folder and
 * calls `postBuild` once per locale; objpack runs once, after the last, over the whole output (one worker,
 * one manifest for every locale). Options are objpack.config keys; they win over Docusaurus's config.
 */
export default function objpackPlugin(
  _context: unknown,
  options: IntegrationOptions & { id?: string } = {},
): ObjpackDocusaurusPlugin {
  // Docusaurus adds the plugin instance's `id` to its options.
  const { id: _id, ...objpackOptions } = options;
  return {
    name: NAME,
    async postBuild(props) {
      const { i18n } = props;
      const order = localesToBuild(process.argv, i18n.locales, i18n.defaultLocale);
      if (order.includes(i18n.currentLocale) && order.at(-1) !== i18n.currentLocale) return;
      const siteBase = i18n.localeConfigs[i18n.defaultLocale]?.baseUrl ?? props.baseUrl;
      const say = (m: string) => `[objpack] ${m}`;
      await frameworkBuild({
        integration: NAME,
        projectDir: props.siteDir,
        framework: {
          root: outputRoot(props.outDir, props.baseUrl, siteBase),
          base: siteBase,
          origin: new URL(props.siteConfig.url).origin,
          ...urlStyle(props.siteConfig.trailingSlash),
        },
        options: objpackOptions,
        logger: {
          info: (m) => logger.info(say(m)),
          warn: (m) => logger.warn(say(m)),
          error: (m) => logger.error(say(m)),
        },
      });
    },
  };
}
