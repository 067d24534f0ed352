import type { Logger } from './logger.js';

/**
 * The first SIGINT/SIGTERM resolves `first`; a second one quits at once, saying `again` (a stuck shutdown
 * must not trap the user). `dispose()` removes the handlers.
 */
export function onSignals(logger: Logger, again: string): { first: Promise<NodeJS.Signals>; dispose: () => void } {
  let got: NodeJS.Signals | undefined;
  let resolve!: (sig: NodeJS.Signals) => void;
  const first = new Promise<NodeJS.Signals>((r) => (resolve = r));
  const on = (sig: NodeJS.Signals) => {
    if (got) {
      logger.warn(`${sig} again: ${again}`);
      process.exit(sig === 'SIGINT' ? 130 : 143);
    }
    got = sig;
    resolve(sig);
  };
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return {
    first,
    dispose: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
}
