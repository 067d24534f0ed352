import { existsSync, readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE } from '@objpack/format';
import { serve, type ObjpackServer, type ServeOptions } from '@objpack/serve';
import { resolveBase } from '../../base-option.js';
import { build, type BuildOptions } from '../../build.js';
import { loadConfig } from '../../config.js';
import type { Diagnostic } from '../../discover/index.js';
import { TEMP_MARK } from '../../emit/atomic-write.js';
import { userPart } from '../../hosts/header-rules.js';
import { ErrorCode, ObjpackError } from '../../errors.js';
import { reportError } from '../errors-out.js';
import type { Logger } from '../logger.js';
import { parseCount } from '../parse-number.js';
import { onSignals } from '../signals.js';
import { formatDiagnostic, formatGrouped } from '../../report/format-diagnostic.js';
import { watchTree } from './watch-tree.js';

/** What the build itself writes: changes to these never trigger a rebuild (that would loop). */
const OWN_OUTPUT = /^(_objpack([/\\]|$)|objpack-|push-manifest\.json$)/;
/**
 * Host configs that hold the user's rules and objpack's (its block, its entries): an edit rebuilds, the
 * build's own rewrite does not (its text is what the build left).
 */
const HOST_FILES = ['_headers', 'vercel.json', 'firebase.json'];
/**
 * A host config's text, of `_headers` only the user's part: the build rewrites its own block when pages come
 * or go, and that write reaches the watcher while the build still runs, before the text it leaves is known.
 */
const readIfAny = (file: string) => {
  try {
    const text = readFileSync(file, 'utf8');
    return path.basename(file) === '_headers' ? userPart(text) : text;
  } catch {
    return undefined;
  }
};
/** Directories never watched: the build's own output, VCS and dependency folders. */
const SKIP_DIR = /^(_objpack|node_modules)$|(^|[/\\])\./;
/** Quiet time after the last change before rebuilding: editors and build tools write in bursts. */
const DEBOUNCE_MS = 150;

/** A TCP port, 0 for any free one: beyond 65535 is a bad flag value (exit 2), not a server failure. */
function parsePort(value: unknown): number | undefined {
  const port = parseCount(value, '--port');
  if (port !== undefined && port > 65535)
    throw new ObjpackError(ErrorCode.USAGE, `--port expects 0–65535, got ${port}`);
  return port;
}

/** A --cert/--key path that names no file is a bad flag value (exit 2), not a server failure. */
function pemFile(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const file = String(value);
  if (!statSync(file, { throwIfNoEntry: false })?.isFile())
    throw new ObjpackError(
      ErrorCode.USAGE,
      `${flag} ${file}: no such file (a PEM file; or --https alone for a self-signed certificate)`,
    );
  return file;
}

export function serveOptions(dir: string, opts: Record<string, unknown>): ServeOptions {
  // Checked here: a bad --base is a usage error (exit 2), not a server failure.
  const base = opts.base === undefined ? undefined : resolveBase({ base: opts.base });
  const prefetch =
    opts.prefetch === false ? false : parseCount(opts.prefetch === true ? undefined : opts.prefetch, '--prefetch');
  return {
    root: path.resolve(dir),
    ...(base !== undefined ? { base } : {}),
    host: opts.host as string,
    port: parsePort(opts.port),
    https: opts.https === true || opts.cert !== undefined || opts.key !== undefined,
    cert: pemFile(opts.cert, '--cert'),
    key: pemFile(opts.key, '--key'),
    http2: opts.http2 as boolean | undefined,
    earlyHints: opts.earlyHints as boolean | undefined,
    packages: opts.packages as boolean | undefined,
    ...(prefetch === undefined ? {} : { prefetch }),
    holdMs: parseCount(opts.holdMs, '--hold-ms'),
    closureHoldMs: parseCount(opts.closureHoldMs, '--closure-hold-ms'),
    closureHoldFrom: parseCount(opts.closureHoldFrom, '--closure-hold-from'),
    maxConnections: parseCount(opts.maxConnections, '--max-connections'),
    dynamic: opts.dynamic as boolean | undefined,
    shutdownTimeoutMs: parseCount(opts.shutdownTimeout, '--shutdown-timeout'),
  };
}

/** The base path the site's last build recorded, if any (a manifest that cannot be read records none). */
function recordedBase(root: string): string | undefined {
  try {
    const { base } = JSON.parse(readFileSync(path.join(root, MANIFEST_FILE), 'utf8')) as { base?: unknown };
    return typeof base === 'string' ? base : undefined;
  } catch {
    return undefined;
  }
}

/** Warnings printed one by one per build; the rest are counted (the report lists them all). */
const MAX_WARNINGS = 50;

/**
 * A build's errors, and its warnings that the previous build did not have: an edit that breaks a
 * reference is told at once, and a rebuild does not repeat the site's standing warnings.
 */
function printDiagnostics(diagnostics: readonly Diagnostic[], shown: Set<string>, logger: Logger): void {
  const now = new Set<string>();
  const fresh: Diagnostic[] = [];
  for (const d of diagnostics) {
    const text = formatDiagnostic(d);
    if (d.severity === 'error') logger.error(text);
    else if (d.severity === 'info') logger.info(text);
    else if (!now.has(text)) {
      now.add(text);
      if (!shown.has(text)) fresh.push(d);
    }
  }
  const grouped = formatGrouped(fresh);
  for (const g of grouped.slice(0, MAX_WARNINGS)) logger.warn(g.line);
  const rest = grouped.slice(MAX_WARNINGS).reduce((n, g) => n + g.count, 0);
  if (rest > 0)
    logger.warn(`… and ${rest} more warnings (all are listed in the build report, .objpack/report.html by default)`);
  shown.clear();
  for (const t of now) shown.add(t);
}

/** Rebuilds through the build library on every burst of source changes, then swaps the server's index. */
function startWatching(
  root: string,
  config: Omit<BuildOptions, 'root'>,
  server: ObjpackServer,
  logger: Logger,
  shown: Set<string>,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  /** Changed paths, each with whether it was a file of the site before this burst of changes. */
  const changed = new Map<string, boolean>();
  const left = new Map<string, string | undefined>();
  const remember = () => {
    for (const f of HOST_FILES) left.set(f, readIfAny(path.join(root, f)));
  };
  remember();
  const rebuild = () => {
    running = running.then(async () => {
      // A name that came and went within the burst is an editor's or tool's temporary file (`sed -i` writes
      // sedXXXXXX and renames it over the file), not an edit: it is neither reported nor rebuilt for.
      const files = [...changed].filter(([f, before]) => before || existsSync(path.join(root, f))).map(([f]) => f);
      changed.clear();
      if (files.length === 0) return;
      const t = performance.now();
      try {
        const r = await build({ ...config, root, out: undefined });
        printDiagnostics(r.diagnostics, shown, logger);
        remember();
        await server.reload();
        logger.info(
          `${files.length === 1 ? files[0] : `${files.length} files`} changed: rebuilt in ` +
            `${Math.round(performance.now() - t)} ms (${r.written.length} files written), server reloaded`,
        );
      } catch (err) {
        // The server keeps serving the last good build.
        reportError(err, logger);
      }
    });
  };
  const watcher = watchTree(
    root,
    (file) => {
      if (!file || OWN_OUTPUT.test(file) || file.includes(TEMP_MARK) || path.basename(file).startsWith('.')) return;
      if (HOST_FILES.includes(file) && readIfAny(path.join(root, file)) === left.get(file)) return;
      if (!changed.has(file)) changed.set(file, watcher.has(file));
      clearTimeout(timer);
      timer = setTimeout(rebuild, DEBOUNCE_MS);
    },
    (dir) => SKIP_DIR.test(dir),
  );
  void watcher.ready.then(() => logger.info(`watching ${root} for changes (${watcher.size} directories)`));
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}

/** What caps connections: the flag, or the open-file limit the default was derived from. */
function capLine(server: ObjpackServer): string {
  const from = server.maxConnectionsFrom;
  if (server.maxConnections === Infinity) return '  no connection cap';
  if (!from) return `  at most ${server.maxConnections} connections (--max-connections)`;
  const limit =
    from.source === 'rlimit' ? `the open-file limit, ${from.files}` : `an assumed open-file limit of ${from.files}`;
  return `  at most ${server.maxConnections} connections (from ${limit}; --max-connections to change)`;
}

/**
 * Serves until SIGINT/SIGTERM, then shuts down gracefully: stop accepting, close idle connections, finish
 * in-flight responses within `--shutdown-timeout`, exit 0. With --watch, builds once, then rebuilds on
 * changes and reloads the server without a restart.
 */
export async function runServe(dir: string, opts: Record<string, unknown>, logger: Logger): Promise<number> {
  let server: ObjpackServer;
  let config: Omit<BuildOptions, 'root'> = {};
  let options: ServeOptions;
  const shown = new Set<string>();
  try {
    options = serveOptions(dir, opts);
    // As build: a wrong directory is a usage error (exit 2), not a server failure.
    const st = await stat(options.root).catch(() => undefined);
    if (!st)
      throw new ObjpackError(ErrorCode.INPUT_NOT_FOUND, `site directory not found: ${options.root}`, options.root);
    if (!st.isDirectory())
      throw new ObjpackError(ErrorCode.INPUT_NOT_DIRECTORY, `not a directory: ${options.root}`, options.root);
    if (opts.watch) {
      config = (await loadConfig(process.cwd())).config;
      // The builds keep the base: --base, else the config's, else the one the last build recorded.
      const base = options.base ?? config.base ?? recordedBase(options.root);
      if (base !== undefined) config = { ...config, base };
      // Serve what the sources are now, not a stale earlier build.
      const r = await build({ ...config, root: options.root, out: undefined });
      printDiagnostics(r.diagnostics, shown, logger);
      logger.info(`built ${r.summary.pages} pages in ${Math.round(r.timings.total)} ms`);
    }
    server = await serve({
      ...options,
      onLog: (e) =>
        e.level === 'error'
          ? logger.error(`${e.code ?? ''} ${e.message}`)
          : e.level === 'warn'
            ? logger.warn(`${e.code ?? ''} ${e.message}`)
            : undefined,
    }).catch((err: unknown) => {
      throw new ObjpackError(ErrorCode.SERVE, (err as Error)?.message ?? String(err), undefined, { cause: err });
    });
  } catch (err) {
    return reportError(err, logger);
  }
  // Handlers first: whoever reads the Local line may signal at once.
  const signals = onSignals(logger, 'exiting without waiting for in-flight responses');
  // Serving a site no build has packaged works, as a plain file server: say so, or it looks like objpack.
  if (!opts.watch && !existsSync(path.join(options.root, MANIFEST_FILE))) {
    logger.warn(
      `${MANIFEST_FILE} not found in ${options.root}: serving its files without packages (run \`objpack build ` +
        `${dir}\` first, or serve with --watch)`,
    );
  }
  // Under a base the site is there, and nothing is above it.
  logger.always(`  Local: ${server.url}${server.base === '/' ? '' : server.base}`);
  logger.info(capLine(server));
  const stopWatching = opts.watch ? startWatching(options.root, config, server, logger, shown) : undefined;
  const signal = await signals.first;
  stopWatching?.();
  logger.info(`${signal}: finishing in-flight responses (send it again to quit at once)`);
  await server.close();
  signals.dispose();
  logger.info('server closed');
  return 0;
}
