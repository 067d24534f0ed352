import type { WorkerAssets } from '../emit/sw-assets.js';
import type { BuildOptions, BuildProgress, BuildResult } from '../options.js';

/**
 * What every stage of a build reads: the options settled once (paths resolved, defaults applied, the worker
 * files loaded), the same for the full pipeline and the incremental patch.
 */
export interface BuildContext {
  /** The caller's options, with `base` resolved (base-option.ts). */
  options: BuildOptions;
  /** The site directory, absolute and real. */
  root: string;
  outDir: string;
  /** The build writes into the site itself (no `--out`). */
  inPlace: boolean;
  /** What the walk leaves out: the user's excludes, objpack's own files, `--out` and the report inside the site. */
  exclude: string[];
  /** The worker files to write; none with `serviceWorker: false`. */
  workerAssets: WorkerAssets | undefined;
  /** Pages get the registration tag. */
  inject: boolean;
  partialThreshold: number;
  concurrency: number;
  /** Everything besides the site's files that the outputs depend on (incremental/fingerprint.ts). */
  fingerprint: string;
  /** The report's absolute path; none without a report. */
  report: string | undefined;
  signal: AbortSignal | undefined;
  progress(p: BuildProgress): void;
  /** When the build started (performance.now()). */
  t0: number;
}

export type Timings = BuildResult['timings'];

export const noTimings = (): Timings => ({ discover: 0, trace: 0, hash: 0, plan: 0, write: 0, total: 0 });
