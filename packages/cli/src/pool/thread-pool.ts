/**
 * The build's thread pool: reads and parses pages, stylesheets and modules, hashes site files and encodes
 * packages (pool-jobs.ts) on worker threads (one per core, up to `concurrency`), or on the calling thread
 * when there is one core or when running from TypeScript sources (tests), where no compiled worker exists.
 * Page parses go before file hashes: discovery waits on parses, hashes are needed only once the closures
 * are known.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileDigest } from '../discover/file-digest.js';
import { jsReady } from '../discover/js-extract.js';
import { finishJob, fromWriteFailure } from '../emit/write-job.js';
import type { WriteDone, WriteJob } from '../emit/write-job.js';
import { runHere } from './pool-jobs.js';
import type { AnyResult, AssetKind, AssetResult, DigestResult, PageJob, PageResult, WriteResult } from './pool-jobs.js';

/** Pages parsed on the calling thread before worker threads are started. */
const IN_PROCESS_FIRST = 48;
/** Batches a worker holds at once: enough to never sit idle between messages, few enough to keep priorities. */
const PER_WORKER = 2;
/**
 * Jobs per message, by kind (a batch holds one kind, so a page's parse never waits behind file hashes).
 * One message per job costs the calling thread, which bounds discovery, a large share of its time in
 * postMessage and 'message' events (benchmarks/build/README.md).
 */
const BATCH = { page: 4, asset: 4, digest: 16, write: 4 } as const;

interface Pending {
  job: PageJob;
  done(r: AnyResult): void;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, Pending>;
  /** Batches sent and not yet answered. */
  batches: number;
}

export class ThreadPool {
  private readonly slots: Slot[] = [];
  private readonly assets: Pending[] = [];
  private readonly pages: Pending[] = [];
  private readonly digests: Pending[] = [];
  private readonly writes: Pending[] = [];
  private nextId = 0;
  private started = false;
  private closed = false;

  private constructor(
    private readonly wanted: number,
    private readonly url: URL,
  ) {}

  /**
   * Threads start once a build has more than a few jobs: an incremental rebuild that re-parses a handful
   * of pages is faster without paying for thread start-up.
   */
  private start(): void {
    this.started = true;
    if (this.wanted === 0 || !existsSync(fileURLToPath(this.url))) return;
    for (let i = 0; i < this.wanted; i++) {
      const worker = spawnWorker(this.url);
      if (!worker) return; // no thread can start: jobs run on the calling thread
      const slot: Slot = { worker, jobs: new Map(), batches: 0 };
      // An idle thread must not keep the process alive (a caller that forgets close(), `node -e`); a busy one does.
      worker.unref();
      worker.on('message', (rs: AnyResult[]) => {
        // close() answers what is in flight; an unref() here would end the process mid-terminate
        if (this.closed) return;
        const answered: Array<[Pending | undefined, AnyResult]> = rs.map((r) => {
          const p = slot.jobs.get(r.id);
          slot.jobs.delete(r.id);
          return [p, r];
        });
        slot.batches--;
        if (slot.jobs.size === 0) worker.unref();
        this.pump();
        for (const [p, r] of answered) p?.done(r);
      });
      worker.on('error', () => this.retire(slot));
      worker.on('exit', () => this.retire(slot));
      this.slots.push(slot);
    }
  }

  /**
   * `concurrency` counts threads including the calling one, which resolves references and assembles
   * closures while the others parse: 1 → no worker, N → N − 1 parser threads (default: one parser per core, ≤ 4).
   */
  static async create(
    concurrency?: number,
    workerUrl = new URL('./pool-worker.js', import.meta.url),
  ): Promise<ThreadPool> {
    await jsReady;
    const n = Math.max(1, Math.min(concurrency ?? Math.min(availableParallelism() + 1, 5), 16));
    return new ThreadPool(n - 1, workerUrl);
  }

  /** Threads parsing besides the calling one (0 when parsing in-process). */
  get threads(): number {
    return this.slots.length;
  }

  /** Parallelism worth keeping in flight. */
  get width(): number {
    // Enough pages in flight to fill each thread's batches (see BATCH) while this thread assembles closures.
    return this.wanted === 0 ? 4 : this.wanted * 8;
  }

  /**
   * Reads and parses a page; `hash` adds its content hash (see `pageHash` for `ignore`), `final` the digest
   * of the HTML the build will ship (see finalHtml), from the same read.
   */
  parse(file: string, hash: boolean, ignore?: string, final?: 'inject' | 'plain', base?: string): Promise<PageResult> {
    const job: PageJob = {
      id: this.nextId++,
      kind: 'page',
      file,
      hash,
      ...(ignore !== undefined ? { ignore } : {}),
      ...(final !== undefined ? { final } : {}),
      ...(base !== undefined ? { base } : {}),
    };
    return this.submit(job, this.pages) as Promise<PageResult>;
  }

  /** Reads and parses a stylesheet, a module or a classic script (`hash`: with its content hash); before pages. */
  asset(file: string, as: AssetKind, hash: boolean): Promise<AssetResult> {
    const job: PageJob = { id: this.nextId++, kind: 'asset', file, as, hash };
    return this.submit(job, this.assets) as Promise<AssetResult>;
  }

  /** Hashes a file (and the first `sendBytes` of it) on a worker thread when there is one. */
  digest(file: string, sendBytes: number, stat: { size: number; mtimeMs: number; ino?: number }): Promise<FileDigest> {
    const job: PageJob = { id: this.nextId++, kind: 'digest', file, sendBytes, stat };
    return (this.submit(job, this.digests) as Promise<DigestResult>).then((r) => {
      if (r.error)
        throw Object.assign(new Error(r.error.message), r.error.code !== undefined ? { code: r.error.code } : {});
      return r.digest;
    });
  }

  /**
   * Encodes a package (and reads its page, see WriteJob) on a worker thread when there is one, then
   * writes the files here. Failures reject with an ObjpackError (its own code, or OBJPACK_E_WRITE).
   */
  write(job: WriteJob): Promise<WriteDone> {
    // Only what the worker reads, with each digest in its own 32-byte buffer: a Buffer.from() view into
    // Node's 8 KB pool would be cloned with the whole pool.
    const objects = job.objects.map((o) => ({ ...o, digest: Uint8Array.from(o.digest) }));
    const pending: PageJob = { id: this.nextId++, kind: 'write', job: { ...job, objects } };
    return (this.submit(pending, this.writes) as Promise<WriteResult>).then((r) => {
      if (r.failure) throw fromWriteFailure(r.failure, job.target);
      if (r.error || !r.done) throw fromWriteFailure(r.error ?? { message: 'no answer' }, job.target);
      return finishJob(job, r.done);
    });
  }

  private submit(job: PageJob, queue: Pending[]): Promise<AnyResult> {
    if (!this.started && job.id >= IN_PROCESS_FIRST) this.start();
    if (this.slots.length === 0) return runHere(job);
    return new Promise((done) => {
      queue.push({ job, done });
      this.pump();
    });
  }

  /** Answers queued (not yet started) hashes of files nobody needs any more, without doing them. */
  dropDigests(unwanted: (file: string) => boolean): void {
    const keep: Pending[] = [];
    for (const p of this.digests.splice(0)) {
      if (p.job.kind === 'digest' && unwanted(p.job.file))
        p.done({ id: p.job.id, error: { code: 'ECANCELED', message: 'not needed' } });
      else keep.push(p);
    }
    this.digests.push(...keep);
  }

  /** Hands queued jobs in batches, stylesheets and modules first, then pages, to threads with room. */
  private pump(): void {
    for (const slot of this.slots) {
      while (slot.batches < PER_WORKER) {
        const queue = [this.assets, this.pages, this.digests, this.writes].find((q) => q.length > 0);
        if (!queue) return;
        // Share a short queue between the threads rather than hand it all to the first.
        const size = Math.min(BATCH[queue[0]!.job.kind], Math.ceil(queue.length / this.slots.length));
        const batch = queue.splice(0, size);
        if (slot.jobs.size === 0) slot.worker.ref();
        for (const p of batch) slot.jobs.set(p.job.id, p);
        slot.batches++;
        slot.worker.postMessage(batch.map((p) => p.job));
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const s of slots)
      for (const p of s.jobs.values())
        p.done({ id: p.job.id, error: { code: 'ECANCELED', message: 'thread pool closed' } });
    // terminate() of an unref'd thread does not keep the loop alive: awaiting it could end the process.
    await Promise.all(slots.map((s) => (s.worker.ref(), s.worker.terminate())));
    // Nobody waits for what is still queued (a build that failed early): answer it without doing it.
    for (const p of [
      ...this.assets.splice(0),
      ...this.pages.splice(0),
      ...this.digests.splice(0),
      ...this.writes.splice(0),
    ])
      p.done({ id: p.job.id, error: { code: 'ECANCELED', message: 'thread pool closed' } });
  }

  /**
   * A thread that died (out of memory on a huge page, a crash) leaves the pool; its jobs run on the calling
   * thread instead (and the queue too once no thread is left), so a build never hangs on an answer that
   * cannot come.
   */
  private retire(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i !== -1) this.slots.splice(i, 1);
    const orphans = [...slot.jobs.values()];
    slot.jobs.clear();
    slot.batches = 0;
    if (this.slots.length === 0)
      orphans.push(
        ...this.assets.splice(0),
        ...this.pages.splice(0),
        ...this.digests.splice(0),
        ...this.writes.splice(0),
      );
    for (const p of orphans) {
      if (this.closed) p.done({ id: p.job.id, error: { code: 'ECANCELED', message: 'thread pool closed' } });
      else void runHere(p.job).then(p.done);
    }
    this.pump();
  }
}

/**
 * A pool thread with the parent's Node flags, minus those a worker refuses (`Worker` throws on V8 and
 * per-process flags such as `--max-old-space-size`, `--stack-size` or `--title`: `node
 * --max-old-space-size=4096 …/objpack build` failed outright); undefined if no thread can start.
 */
function spawnWorker(url: URL): Worker | undefined {
  // A parser thread holds a couple of pages at a time: a small young generation makes it collect garbage
  // early instead of growing the build's resident memory.
  const resourceLimits = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 8 };
  let execArgv = workerExecArgv(process.execArgv);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return new Worker(url, { execArgv, resourceLimits });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') return undefined;
      // The message lists the refused flags ("…flags: --a, --b=1"); one that names none falls back to no flags.
      const refused = new Set((err as Error).message.split(': ').slice(1).join(': ').split(', '));
      const kept = execArgv.filter((a) => !refused.has(a));
      execArgv = kept.length < execArgv.length ? kept : [];
    }
  }
  return undefined;
}

/**
 * The parent's Node flags minus those about its own entry point: a worker inheriting `--input-type=module`
 * from `node --input-type=module -e …` fails to load its (file) module with ERR_INPUT_TYPE_NOT_ALLOWED.
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if (a.startsWith('--input-type=')) continue;
    if (a === '--input-type' || a === '-e' || a === '--eval' || a === '-p' || a === '--print') {
      i++; // and its value
      continue;
    }
    if (a.startsWith('--eval=') || a.startsWith('--print=')) continue;
    out.push(a);
  }
  return out;
}
