import { CommanderError } from 'commander';
import { DiscoverError } from '../discover/diagnostic-codes.js';
import { ExitCode, isObjpackError } from '../errors.js';
import type { Logger } from './logger.js';

/** Prints an error once, with its code and hint, and returns the exit code it stands for. */
export function reportError(err: unknown, logger: Logger): number {
  if (err instanceof CommanderError) {
    // commander already printed the message (or the help / version text).
    return err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
  }
  if (isObjpackError(err)) {
    logger.error(`${err.message}\n  hint: ${err.hint}`);
    return err.exitCode;
  }
  if (err instanceof DiscoverError) {
    logger.error(`${err.code}: ${err.message}`);
    return /ROOT_|BAD_ORIGIN/.test(err.code) ? ExitCode.USAGE : ExitCode.BUILD_ERRORS;
  }
  const code = (err as { code?: unknown })?.code;
  logger.error(`${typeof code === 'string' ? `${code}: ` : ''}${(err as Error)?.stack ?? String(err)}`);
  return ExitCode.BUILD_ERRORS;
}

/**
 * {@link reportError}, and with `--json` the error as JSON on stdout too (`ok: false`, as a build with
 * errors prints it), so `objpack build dist/ --json > summary.json` leaves JSON for a reader either way.
 */
export function reportErrorJson(err: unknown, logger: Logger, json: boolean): number {
  const exitCode = reportError(err, logger);
  if (json) {
    const code = (err as { code?: unknown })?.code;
    const error = {
      ...(typeof code === 'string' ? { code } : {}),
      message: (err as Error)?.message ?? String(err),
      ...(isObjpackError(err) ? { hint: err.hint } : {}),
    };
    logger.out(JSON.stringify({ ok: false, exitCode, error }, null, 2));
  }
  return exitCode;
}
