import type { BuildProgress } from '../build.js';
import type { Logger } from './logger.js';

const LABEL: Record<BuildProgress['phase'], string> = {
  discover: 'crawling',
  trace: 'tracing in Chromium',
  hash: 'hashing',
  plan: 'planning',
  write: 'writing',
  done: 'done',
};

/** A build progress callback drawing `[#####-----] 52% crawling 1234/2345` on a TTY, at most ~12 times a second. */
export function progressBar(logger: Logger): (p: BuildProgress) => void {
  let last = 0;
  return (p) => {
    if (!logger.isTTY) return;
    if (p.phase === 'done') return logger.endProgress();
    const now = Date.now();
    if (now - last < 80 && p.done !== p.total) return;
    last = now;
    const ratio = p.total ? Math.min(1, p.done / p.total) : 0;
    const width = 24;
    const filled = Math.round(ratio * width);
    logger.progress(
      `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ` +
        `${LABEL[p.phase]} ${p.done}/${p.total}`,
    );
  };
}
