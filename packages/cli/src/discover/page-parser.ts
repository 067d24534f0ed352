/**
 * Reads and parses pages on worker threads (one per core, up to `concurrency`), or on the calling thread
 * when there is one core or when running from TypeScript sources (tests), where no compiled worker exists.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { jsReady } from './js-extract.js';
import { extractPage } from './page-extract.js';
import type { PageExtract } from './page-extract.js';
import { contentHash, decodeHtml } from './read-site-file.js';

export interface PageJob {
  id: number;
  file: string;
  hash: boolean;
}

export type PageResult =
  | { id: number; hash: string; extract: PageExtract; error?: undefined }
  | { id: number; error: { code?: string; message: string } };

/** Pages parsed on the calling thread before worker threads are started. */
const IN_PROCESS_FIRST = 48;

export class PageParser {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, { worker: Worker; job: PageJob; done: (r: PageResult) => void }>();
  private nextId = 0;
  private turn = 0;
  private started = false;

  private constructor(
    private readonly wanted: number,
    private readonly url: URL,
  ) {}

  /**
   * Threads start once a build has more than a few pages to parse: an incremental rebuild that re-parses a
   * handful of pages is faster without paying for thread start-up.
   */
  private start(): void {
    this.started = true;
    if (this.wanted === 0 || !existsSync(fileURLToPath(this.url))) return;
    for (let i = 0; i < this.wanted; i++) {
      // A parser thread holds one page at a time: a small young generation makes it collect garbage early
      // instead of growing the build's resident memory.
      const w = new Worker(this.url, { resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 8 } });
      w.on('message', (r: PageResult) => {
        const p = this.pending.get(r.id);
        this.pending.delete(r.id);
        p?.done(r);
      });
      w.on('error', () => this.retire(w));
      w.on('exit', () => this.retire(w));
      this.workers.push(w);
    }
  }

  /**
   * `concurrency` counts threads including the calling one, which resolves references and assembles
   * closures while the others parse: 1 → no worker, N → N − 1 parser threads (default: one parser per core, ≤ 4).
   */
  static async create(concurrency?: number, workerUrl = new URL('./page-worker.js', import.meta.url)): Promise<PageParser> {
    await jsReady;
    const n = Math.max(1, Math.min(concurrency ?? Math.min(availableParallelism() + 1, 5), 16));
    return new PageParser(n - 1, workerUrl);
  }

  /** Threads parsing besides the calling one (0 when parsing in-process). */
  get threads(): number {
    return this.workers.length;
  }

  /** Parallelism worth keeping in flight. */
  get width(): number {
    return Math.max(1, this.wanted) * 4;
  }

  parse(file: string, hash: boolean): Promise<PageResult> {
    const id = this.nextId++;
    if (!this.started && id >= IN_PROCESS_FIRST) this.start();
    if (this.workers.length === 0) return parseHere(id, file, hash);
    const worker = this.workers[this.turn++ % this.workers.length] as Worker;
    const job: PageJob = { id, file, hash };
    return new Promise((done) => {
      this.pending.set(id, { worker, job, done });
      worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  /**
   * A thread that died (out of memory on a huge page, a crash) leaves the pool; its pages are parsed on the
   * calling thread instead, so a build never hangs on an answer that cannot come.
   */
  private retire(worker: Worker): void {
    const i = this.workers.indexOf(worker);
    if (i !== -1) this.workers.splice(i, 1);
    for (const [id, p] of this.pending) {
      if (p.worker !== worker) continue;
      this.pending.delete(id);
      void parseHere(id, p.job.file, p.job.hash).then(p.done);
    }
  }
}

async function parseHere(id: number, file: string, hash: boolean): Promise<PageResult> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { id, error: { ...(e.code !== undefined ? { code: e.code } : {}), message: e.message } };
  }
  return { id, hash: hash ? contentHash(bytes) : '', extract: extractPage(decodeHtml(bytes)) };
}
