import path from 'node:path';
import type { Command } from 'commander';
import { build, type BuildOptions, type BuildResult } from '../../build.js';
import { loadConfig } from '../../config.js';
import type { HostTarget } from '../../hosts/index.js';
import { ExitCode } from '../../errors.js';
import { linkRulesText } from '../../report/summary.js';
import { formatBytes } from '../../report/svg-bars.js';
import { reportErrorJson } from '../errors-out.js';
import type { Logger } from '../logger.js';
import { parseCount } from '../parse-number.js';
import { progressBar } from '../progress-bar.js';
import { onSignals } from '../signals.js';
import { renderTable } from '../table.js';
import { formatDiagnostic, formatGrouped } from '../../report/format-diagnostic.js';

/** Warning lines printed (repeats of one grouped); the rest are counted (the report lists them all). */
const MAX_WARNINGS = 50;

/** Flags that were given on the command line win over the config file; defaults never do. */
function fromFlags(opts: Record<string, unknown>, cmd: Command): Partial<BuildOptions> {
  const given = (name: string) => cmd.getOptionValueSource(name) === 'cli';
  const o: Partial<BuildOptions> = {};
  if (given('out')) o.out = opts.out as string;
  if (given('origin')) o.origin = opts.origin as string;
  if (given('base')) o.base = opts.base as string;
  if (given('trace')) o.trace = opts.trace === true ? true : parseCount(opts.trace, '--trace');
  if (given('target')) o.targets = opts.target as HostTarget[];
  if (given('exclude')) o.exclude = opts.exclude as string[];
  if (given('inject')) o.inject = opts.inject as boolean;
  if (given('sw')) o.serviceWorker = opts.sw as boolean;
  if (given('unregister')) o.unregister = true;
  if (given('partialThreshold')) o.partialThreshold = parseCount(opts.partialThreshold, '--partial-threshold');
  if (given('report')) o.report = opts.report as boolean;
  if (given('reportFile')) o.reportFile = opts.reportFile as string;
  if (given('cleanUrls')) o.cleanUrls = opts.cleanUrls as boolean;
  if (given('bareDirUrls')) o.bareDirUrls = opts.bareDirUrls as boolean;
  if (given('cache')) o.cache = opts.cache as boolean;
  return o;
}

export async function runBuild(
  dir: string,
  opts: Record<string, unknown>,
  cmd: Command,
  logger: Logger,
): Promise<number> {
  let result: BuildResult;
  // The first Ctrl-C stops the build where the previous output stays whole (OBJPACK_E_ABORTED); a second quits.
  const ctrl = new AbortController();
  const signals = onSignals(logger, 'exiting at once');
  void signals.first.then((sig) => {
    logger.endProgress();
    logger.warn(`${sig}: stopping the build, the previous output stays as it is (send it again to quit at once)`);
    ctrl.abort(sig);
  });
  try {
    const { config, file } = await loadConfig(process.cwd(), opts.config as string | undefined);
    if (file) logger.info(`config: ${file}`);
    const onProgress = progressBar(logger);
    const options = { ...config, ...fromFlags(opts, cmd), root: dir, projectDir: process.cwd() };
    result = await build({ ...options, onProgress, signal: ctrl.signal });
  } catch (err) {
    logger.endProgress();
    return reportErrorJson(err, logger, opts.json === true);
  } finally {
    signals.dispose();
  }
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
  const exit = errors.length ? ExitCode.BUILD_ERRORS : ExitCode.OK;
  if (opts.json) {
    const { perPage: _perPage, ...summary } = result.summary;
    logger.out(
      JSON.stringify(
        {
          ok: exit === 0,
          exitCode: exit,
          buildId: result.buildId,
          root: result.root,
          outDir: result.outDir,
          ...(result.report !== undefined ? { report: result.report } : {}),
          summary,
          plan: result.plan.stats,
          written: result.written.length,
          reused: result.reused,
          removed: result.removed.length,
          timingsMs: Object.fromEntries(Object.entries(result.timings).map(([k, v]) => [k, Math.round(v)])),
          diagnostics: result.diagnostics,
        },
        null,
        2,
      ),
    );
    for (const d of errors) logger.error(formatDiagnostic(d));
    return exit;
  }
  // What the build decided for the site (a base found in the pages): one line each, before the warnings.
  for (const d of result.diagnostics) if (d.severity === 'info') logger.info(formatDiagnostic(d));
  const grouped = formatGrouped(warnings);
  for (const g of grouped.slice(0, MAX_WARNINGS)) logger.warn(g.line);
  const rest = grouped.slice(MAX_WARNINGS).reduce((n, g) => n + g.count, 0);
  if (rest > 0) logger.warn(`… and ${rest} more warnings (all are listed in the report and in --json)`);
  for (const d of errors) logger.error(formatDiagnostic(d));
  const s = result.summary;
  const table = renderTable(
    [
      ['pages', String(s.pages)],
      ['objects', String(s.objects)],
      ['packages', `${s.packages.page} page + ${s.packages.shared} shared`],
      ['object bytes', formatBytes(s.objectBytes)],
      ['package bytes', formatBytes(s.packageBytes)],
      ['duplicated bytes', formatBytes(s.duplicatedBytes)],
      ['missing references', String(s.missingReferences)],
      ['requests (all pages)', `${s.requestsBefore} → ${s.requestsAfter}`],
      ['round trips saved', String(s.roundTripsSaved)],
      ['later tier (not packaged)', `${s.later.objects} objects, ${formatBytes(s.later.bytes)}`],
      ...(s.linkRules ? [['Link rules (_headers)', linkRulesText(s.linkRules)]] : []),
      ['warnings / errors', `${s.warnings} / ${s.errors}`],
      ['files written', `${result.written.length} (${result.reused} packages unchanged)`],
      ['time', `${(result.timings.total / 1000).toFixed(2)} s`],
    ],
    ['objpack build', result.buildId],
  );
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const line =
    `objpack: ${count(s.pages, 'page')}, ${count(s.packages.page + s.packages.shared, 'package')}, ` +
    `${count(errors.length, 'error')}, ${count(warnings.length, 'warning')} → ${result.outDir}`;
  const report = !result.report ? '' : `\n  report: ${path.relative(process.cwd(), result.report) || result.report}`;
  logger.always(opts.quiet ? line : `${table}\n  output: ${result.outDir}${report}`);
  return exit;
}
