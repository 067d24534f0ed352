import type { PackageRun } from './package-run.js';

/**
 * Packages fetched ahead for likely next pages, kept out of the way of the pages being loaded: they start
 * once the worker has seen no request for a while, each is admitted only while the bytes fetched ahead
 * since the last navigation stay within `prefetchBytes` (its size is known from its response headers), and
 * a navigation cancels every one it does not need. On a slow link a prefetch competes with the page for
 * the same bandwidth, and a click would otherwise wait behind packages of pages the reader did not open.
 *
 * A completed prefetch is kept in memory (within the same budget, oldest out first) until a navigation
 * takes it: its verified bytes then answer the page at once. From Cache Storage each object is a round trip
 * to the browser's storage, one after another on the worker's thread, and that made the second page of a
 * visit paint later than the HTTP cache's copies did.
 */
export class Prefetches {
  private readonly runs = new Set<PackageRun>();
  private spent = 0;
  /** Bytes of each run, from its response headers (0 when unknown). */
  private readonly sizes = new WeakMap<PackageRun, number>();
  /** Completed prefetches not yet taken by a navigation, by package path, oldest first. */
  private readonly done = new Map<string, PackageRun>();
  private doneBytes = 0;

  constructor(
    private readonly budget: number,
    /** Drops a cancelled run from the worker's runs at once, so no navigation picks it up. */
    private readonly forget: (run: PackageRun) => void,
  ) {}

  /** A run a prefetch started: counted once its size is known, cancelled by a navigation that does not need it. */
  add(run: PackageRun): void {
    this.runs.add(run);
    void run.finished.then((stored) => {
      if (this.runs.delete(run) && stored) this.keep(run);
    });
  }

  /** Whether a run of `bytes` may go on: always for a run a navigation took over, else within the budget. */
  admit(run: PackageRun, bytes: number): boolean {
    if (!this.runs.has(run)) return true;
    if (this.spent + bytes > this.budget) return false;
    this.spent += bytes;
    this.sizes.set(run, bytes);
    return true;
  }

  /** Whether a completed prefetch of `path` for `cacheName` waits in memory. */
  holds(path: string, cacheName: string): boolean {
    return this.done.get(path)?.cacheName === cacheName;
  }

  /** The completed prefetch of `path` for `cacheName`, left in memory for a navigation to take. */
  peek(path: string, cacheName: string): PackageRun | undefined {
    const run = this.done.get(path);
    return run?.cacheName === cacheName ? run : undefined;
  }

  /**
   * The completed prefetch of `path` whose objects go to `cacheName` (the navigation's build), taken out of
   * memory for the navigation that binds it; undefined when none or of another build.
   */
  take(path: string, cacheName: string): PackageRun | undefined {
    const run = this.done.get(path);
    if (!run || run.cacheName !== cacheName) return undefined;
    this.drop(path, run);
    return run;
  }

  /** Forgets every completed prefetch (a deploy's clean-up, Clear-Site-Data). */
  clear(): void {
    for (const [path, run] of this.done) this.drop(path, run);
  }

  private keep(run: PackageRun): void {
    const old = this.done.get(run.path);
    if (old) this.drop(run.path, old);
    this.done.set(run.path, run);
    this.doneBytes += this.sizes.get(run) ?? 0;
    for (const [path, oldest] of this.done) {
      if (this.doneBytes <= this.budget) break;
      this.drop(path, oldest);
    }
  }

  private drop(path: string, run: PackageRun): void {
    this.done.delete(path);
    this.doneBytes -= this.sizes.get(run) ?? 0;
  }

  /** A navigation starts: the runs of its packages (`keep`) become its own, every other one is cancelled. */
  navigation(keep: ReadonlySet<string>): void {
    this.spent = 0;
    for (const run of this.runs) {
      this.runs.delete(run);
      if (keep.has(run.path)) continue;
      this.forget(run);
      run.abort();
    }
  }
}
