import { watch } from 'node:fs';
import path from 'node:path';
import { serve, type ServeOptions } from '@objpack/serve';
import { build } from '../../build.js';
import { loadConfig } from '../../config.js';
import { TEMP_MARK } from '../../emit/atomic-write.js';
import { ErrorCode, ObjpackError } from '../../errors.js';
import { reportError } from '../errors-out.js';
import type { Logger } from '../logger.js';
import { parseCount } from '../parse-number.js';
import { formatDiagnostic } from './format-diagnostic.js';

/** What the build itself writes: changes to these never trigger a rebuild (that would loop). */
const OWN_OUTPUT = /^(_objpack[/\\]|objpack-|push-manifest\.json$|_headers$|vercel\.json$|firebase\.json$)/;

export function serveOptions(dir: string, opts: Record<string, unknown>): ServeOptions {
  const prefetch = opts.prefetch === false ? false : parseCount(opts.prefetch === true ? undefined : opts.prefetch, '--prefetch');
  return {
    root: path.resolve(dir),
    host: opts.host as string,
    port: parseCount(opts.port, '--port'),
    https: opts.https === true || opts.cert !== undefined || opts.key !== undefined,
    cert: opts.cert as string | undefined,
    key: opts.key as string | undefined,
    http2: opts.http2 as boolean | undefined,
    earlyHints: opts.earlyHints as boolean | undefined,
    packages: opts.packages as boolean | undefined,
    ...(prefetch === undefined ? {} : { prefetch }),
    holdMs: parseCount(opts.holdMs, '--hold-ms'),
    closureHoldMs: parseCount(opts.closureHoldMs, '--closure-hold-ms'),
    maxConnections: parseCount(opts.maxConnections, '--max-connections'),
    dynamic: opts.dynamic as boolean | undefined,
  };
}

/** Serves until SIGINT/SIGTERM; with --watch, rebuilds incrementally on changes and reloads the server. */
export async function runServe(dir: string, opts: Record<string, unknown>, logger: Logger): Promise<number> {
  let server;
  try {
    const options = serveOptions(dir, opts);
    if (opts.watch) {
      // Serve what the sources are now, not a stale earlier build.
      const { config } = await loadConfig(process.cwd());
      const r = await build({ ...config, root: options.root, out: undefined });
      logger.info(`built ${r.summary.pages} pages in ${Math.round(r.timings.total)} ms`);
    }
    server = await serve({
      ...options,
      onLog: (e) => (e.level === 'error' ? logger.error(`${e.code ?? ''} ${e.message}`) : e.level === 'warn' ? logger.warn(`${e.code ?? ''} ${e.message}`) : undefined),
    }).catch((err: unknown) => {
      throw new ObjpackError(ErrorCode.SERVE, (err as Error)?.message ?? String(err), undefined, { cause: err });
    });
  } catch (err) {
    return reportError(err, logger);
  }
  logger.always(`  Local: ${server.url}`);
  let watcher: ReturnType<typeof watch> | undefined;
  if (opts.watch) {
    const root = path.resolve(dir);
    const { config } = await loadConfig(process.cwd());
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    const rebuild = () => {
      running = running.then(async () => {
        const t = performance.now();
        try {
          const r = await build({ ...config, root, out: undefined });
          for (const d of r.diagnostics.filter((x) => x.severity === 'error')) logger.error(formatDiagnostic(d));
          await server.reload();
          logger.info(`rebuilt in ${Math.round(performance.now() - t)} ms (${r.written.length} files written), server reloaded`);
        } catch (err) {
          reportError(err, logger);
        }
      });
    };
    watcher = watch(root, { recursive: true }, (_event, name) => {
      const file = String(name ?? '');
      if (!file || OWN_OUTPUT.test(file) || file.includes(TEMP_MARK) || path.basename(file).startsWith('.')) return;
      clearTimeout(timer);
      timer = setTimeout(rebuild, 150);
    });
    logger.info(`watching ${root}`);
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  watcher?.close();
  await server.close();
  return 0;
}
