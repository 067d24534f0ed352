import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildOptions } from './options.js';
import { HOST_TARGETS } from './hosts/index.js';
import { ErrorCode, ObjpackError } from './errors.js';

/** What `objpack.config.*` may set: any build option except the site directory's project and callbacks. */
export type ObjpackConfig = Partial<Omit<BuildOptions, 'onProgress' | 'signal' | 'workerAssets' | 'projectDir'>>;

/** A config file's default export: the options, or a function returning them. */
export type ObjpackConfigExport = ObjpackConfig | (() => ObjpackConfig | Promise<ObjpackConfig>);

/**
 * Types an `objpack.config.{ts,mts,mjs,js}` (and a framework integration's options): returns `config`
 * unchanged, so an editor and `tsc` check the keys and values.
 */
export function defineConfig<T extends ObjpackConfigExport>(config: T): T {
  return config;
}

export const CONFIG_FILES = ['js', 'mjs', 'ts', 'mts', 'json'].map((ext) => `objpack.config.${ext}`);

const KNOWN = new Set([
  'root',
  'out',
  'origin',
  'base',
  'exclude',
  'trace',
  'targets',
  'inject',
  'serviceWorker',
  'unregister',
  'report',
  'reportFile',
  'partialThreshold',
  'cleanUrls',
  'bareDirUrls',
  'cache',
  'concurrency',
  'sessionPages',
  'requestCostBytes',
  'minSharedBytes',
  'mergeCoverage',
  'maxInlinePages',
]);

/**
 * Loads the config: `file` when given, else the first of {@link CONFIG_FILES} in `cwd`. JS and TS configs
 * `export default` an object (or a function returning one). Unknown keys are errors, so a typo never
 * silently does nothing. Returns `{}` when there is no config file.
 */
export async function loadConfig(cwd: string, file?: string): Promise<{ config: ObjpackConfig; file?: string }> {
  let found = file ? path.resolve(cwd, file) : undefined;
  if (!found) {
    for (const name of CONFIG_FILES) {
      const candidate = path.join(cwd, name);
      if (
        await access(candidate).then(
          () => true,
          () => false,
        )
      ) {
        found = candidate;
        break;
      }
    }
  }
  if (!found) return { config: {} };
  let value: unknown;
  try {
    if (found.endsWith('.json')) {
      value = JSON.parse(await readFile(found, 'utf8'));
    } else {
      const mod = await importConfig(found);
      value = typeof mod.default === 'function' ? await (mod.default as () => unknown)() : mod.default;
    }
  } catch (cause) {
    throw new ObjpackError(ErrorCode.CONFIG, `cannot load ${found}: ${(cause as Error)?.message ?? cause}`, found, {
      cause,
    });
  }
  const config = checkConfig(value, found);
  // Relative paths in a config file are relative to the file, as users expect.
  const dir = path.dirname(found);
  if (config.root) config.root = path.resolve(dir, config.root);
  if (config.out) config.out = path.resolve(dir, config.out);
  if (config.reportFile) config.reportFile = path.resolve(dir, config.reportFile);
  return { config, file: found };
}

/**
 * Node 20 cannot import TypeScript (type stripping arrived in Node 22.6, unflagged in 22.18), so `.ts`,
 * `.mts` and `.cts` configs go through jiti, the loader ESLint and Tailwind use for theirs; on every Node
 * alike, so a config behaves the same wherever it runs.
 */
async function importConfig(file: string): Promise<{ default?: unknown }> {
  if (!/\.[cm]?ts$/.test(file)) return (await import(pathToFileURL(file).href)) as { default?: unknown };
  const { createJiti } = await import('jiti');
  return createJiti(import.meta.url, { moduleCache: false, fsCache: false }).import<{ default?: unknown }>(file);
}

/**
 * Checks options from a config file or an integration (`where` names them in errors): an object of known
 * keys, with `targets` among those `--target` takes.
 */
export function checkConfig(value: unknown, where: string): ObjpackConfig {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ObjpackError(ErrorCode.CONFIG, `${where} must give an object of options`, where);
  }
  const unknown = Object.keys(value).filter((k) => !KNOWN.has(k));
  if (unknown.length)
    throw new ObjpackError(ErrorCode.CONFIG, `${where}: unknown option(s) ${unknown.join(', ')}`, where);
  const config = { ...value } as ObjpackConfig;
  // As the CLI's --target choices: a misspelt target would otherwise be a build without it.
  const targets: unknown = config.targets;
  if (
    targets !== undefined &&
    (!Array.isArray(targets) || targets.some((t) => !(HOST_TARGETS as readonly unknown[]).includes(t)))
  ) {
    throw new ObjpackError(
      ErrorCode.CONFIG,
      `${where}: targets must be a list of ${HOST_TARGETS.join(', ')} (got ${JSON.stringify(targets)})`,
      where,
    );
  }
  return config;
}
