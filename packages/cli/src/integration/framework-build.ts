import path from 'node:path';
import { build, type BuildOptions, type BuildResult } from '../build.js';
import { checkConfig, loadConfig, type ObjpackConfig } from '../config.js';
import { ErrorCode, ObjpackError } from '../errors.js';
import { formatDiagnostic, formatGrouped } from '../report/format-diagnostic.js';

/** Warning lines passed to the framework's logger (repeats of one grouped); the report lists them all. */
const MAX_WARNINGS = 50;

/** The few methods every framework's logger has (Vite's, Astro's, Docusaurus's, Eleventy's). */
export interface FrameworkLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** An integration's options: the config file's keys, and `config`, a config file to read (false: none). */
export type IntegrationOptions = ObjpackConfig & { config?: string | false };

export interface FrameworkBuildInput {
  /** Names the options in errors (`@objpack/vite options`). */
  integration: string;
  /** The framework's project root: `objpack.config.*` is read there and the report goes beside it. */
  projectDir: string;
  /** What the framework's resolved config says: its output directory (`root`), base, URL style. */
  framework: ObjpackConfig & { root: string };
  /** What the user passed to the integration; these win over the framework and the config file. */
  options?: IntegrationOptions;
  logger: FrameworkLogger;
}

/**
 * `build()` as an integration runs it: the config file's options, then what the framework says, then the
 * integration's own options, each winning over the one before. Warnings go to the framework's logger;
 * build errors and a failed build throw an {@link ObjpackError} whose message starts with its code, so the
 * framework's build fails with it.
 */
export async function frameworkBuild(input: FrameworkBuildInput): Promise<BuildResult> {
  const { config: file = undefined, ...explicit } = input.options ?? {};
  const options = checkConfig(explicit, `${input.integration} options`);
  const loaded = file === false ? { config: {} } : await loadConfig(input.projectDir, file);
  if (loaded.file) input.logger.info(`config: ${path.relative(input.projectDir, loaded.file)}`);
  const merged: BuildOptions = { ...loaded.config, ...input.framework, ...options, projectDir: input.projectDir };
  const result = await build(merged);
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  const grouped = formatGrouped(warnings);
  for (const g of grouped.slice(0, MAX_WARNINGS)) input.logger.warn(g.line);
  const rest = grouped.slice(MAX_WARNINGS).reduce((n, g) => n + g.count, 0);
  if (rest > 0) input.logger.warn(`… and ${rest} more warnings (all are listed in the report)`);
  for (const d of errors) input.logger.error(formatDiagnostic(d));
  const s = result.summary;
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const report =
    result.report === undefined ? '' : `; report: ${path.relative(input.projectDir, result.report) || result.report}`;
  input.logger.info(
    `${count(s.pages, 'page')}, ${count(s.packages.page + s.packages.shared, 'package')} ` +
      `(${s.packages.shared} shared), ` +
      `${count(warnings.length, 'warning')} → ${path.relative(input.projectDir, result.outDir) || '.'}${report}`,
  );
  if (errors.length > 0) {
    const first = formatDiagnostic(errors[0]!);
    throw new ObjpackError(
      ErrorCode.BUILD_ERRORS,
      `${count(errors.length, 'error')} in the objpack build of ${result.outDir} (${first})`,
    );
  }
  return result;
}
