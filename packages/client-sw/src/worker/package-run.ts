import {
  Decoder,
  digestToSri,
  FormatError,
  FormatErrorCode,
  type ObjectEntry,
  type PackageIndex,
} from '@objpack/format';
import { errorCode, ObjpackSwError, SwErrorCode } from '../errors.js';
import { httpCachedScript } from './code-cache.js';
import type { Claim, HavePlan } from './delta.js';
import { fillFromHeld, mergeDelta } from './delta-merge.js';
import { fetchPackage } from './fetch-package.js';
import { htmlEntry } from './html-entry.js';
import { withHostCaching } from './host-cache.js';
import { verify, verifyNow, warmHash } from './object-digest.js';
import { objectResponse } from './object-response.js';
import type { RunSpec } from './run-spec.js';
import { Slot } from './slot.js';
import type { HeldRecord } from './store.js';

const SLICE = 16 * 1024;
/**
 * Bytes a package must bring per packageStallMs window to keep its watchdog quiet. If any byte re-armed it,
 * a host trickling a byte a second would hold a page for ever; 16 KiB per 10 s (1.6 KB/s) is twenty times
 * below a 2G link's rate, and a legitimate tail shorter than this still has the whole window to arrive.
 */
export const MIN_PROGRESS_BYTES = 16 * 1024;

/** Longest a package's Cache Storage writes wait for a quiet worker (ms after its first verified object). */
const MAX_WRITE_DELAY_MS = 2000;

/**
 * One package being fetched and unpacked progressively (paper 000 §3.3): the index creates a slot per
 * object before any body byte arrives, so a request for any object can wait on exactly that object.
 * Each verified object is written to Cache Storage; the package's record is written last.
 */
export class PackageRun {
  readonly index: Promise<PackageIndex>;
  /** true once every object is verified and stored; false on any failure. Never rejects. */
  readonly finished: Promise<boolean>;
  readonly slots = new Map<string, Slot>();
  private readonly ctrl = new AbortController();
  private resolveIndex!: (i: PackageIndex) => void;
  private rejectIndex!: (e: unknown) => void;
  cacheName = '';
  buildId = '';
  /** The index has arrived: `slots` names every object of the package. */
  indexed = false;
  /** Caches that held copies are read from while this run fills a delta: cleanup must keep them. */
  readonly borrowsFrom = new Set<string>();
  /** Objects a delta left out, filled from held copies. */
  private readonly borrowed = new Set<string>();

  constructor(readonly spec: RunSpec) {
    this.index = new Promise((res, rej) => ((this.resolveIndex = res), (this.rejectIndex = rej)));
    this.index.catch(() => {});
    this.finished = this.run().then(
      (stored) => stored,
      (err) => {
        this.failAll(err);
        spec.options.onEvent({ type: 'fallback', url: spec.path, code: errorCode(err) });
        return false;
      },
    );
  }

  get path(): string {
    return this.spec.path;
  }

  abort(): void {
    this.ctrl.abort();
  }

  private failAll(err: unknown): void {
    this.rejectIndex(err);
    for (const s of this.slots.values()) s.fail(err);
  }

  private async run(): Promise<boolean> {
    const plan = this.spec.have?.();
    if (!plan) return this.attempt(undefined);
    try {
      return await this.attempt(plan);
    } catch (err) {
      // Nothing reached the page yet: ask for the whole package (then, if that fails too, the network).
      if (this.indexed || this.ctrl.signal.aborted) throw err;
      this.spec.options.onEvent({
        type: 'fallback',
        url: this.spec.path,
        code: SwErrorCode.DELTA,
        detail: errorCode(err),
      });
      this.borrowsFrom.clear();
      this.borrowed.clear();
      return this.attempt(undefined);
    }
  }

  private async attempt(want: HavePlan | undefined): Promise<boolean> {
    const { spec } = this;
    // A watchdog over the transfer: no headers, or under MIN_PROGRESS_BYTES, for packageStallMs aborts the run.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stalled = false;
    let sinceArm = 0;
    const arm = () => {
      clearTimeout(timer);
      sinceArm = 0;
      if (spec.options.packageStallMs === 0) return;
      timer = setTimeout(() => {
        stalled = true;
        this.ctrl.abort();
      }, spec.options.packageStallMs);
    };
    const progress = (bytes: number) => {
      sinceArm += bytes;
      if (sinceArm >= MIN_PROGRESS_BYTES) arm();
    };
    const disarm = () => clearTimeout(timer);
    const why = (err: unknown) =>
      stalled ? new ObjpackSwError(SwErrorCode.PACKAGE_STALLED, spec.path, { cause: err }) : err;
    try {
      return await this.transfer(want, { arm, progress, disarm, why });
    } finally {
      disarm();
    }
  }

  private async transfer(
    want: HavePlan | undefined,
    {
      arm,
      progress,
      disarm,
      why,
    }: { arm(): void; progress(bytes: number): void; disarm(): void; why(err: unknown): unknown },
  ): Promise<boolean> {
    const { spec } = this;
    arm();
    const fetching = fetchPackage(spec.path, spec.origin, spec.options, this.ctrl.signal, {
      revalidate: spec.kind === 'page',
      have: want?.header,
      observe: spec.observe,
    }).catch((err: unknown) => Promise.reject(why(err)));
    if (spec.kind === 'page') warmHash();
    const fetched = await fetching;
    arm();
    const { response } = fetched;
    if (spec.admit && !spec.admit(Number(response.headers.get('content-length')) || 0)) {
      this.ctrl.abort();
      throw new ObjpackSwError(SwErrorCode.ABORTED, spec.path);
    }
    const plan = fetched.delta ? want : undefined;
    if (want)
      spec.options.onEvent({ type: 'delta', url: spec.path, detail: plan ? `delta ${want.claims.size}` : 'full' });
    spec.options.onEvent({ type: 'package-start', url: spec.path });
    let cache: Cache | undefined;
    let puts: Promise<void> = Promise.resolve();
    let gate: Promise<void> | undefined;
    let storeOk = true;
    const record: HeldRecord = { buildId: '', sharedRefs: [], objects: [] };
    const store = (entry: ObjectEntry, bytes: Uint8Array) => {
      if (entry.partial) return; // a prefix is not the object: only whole objects go into Cache Storage
      const key = spec.store.key(entry.name);
      const buildId = this.buildId;
      // Serving comes first: the writes start once the page has stopped asking (bounded wait).
      gate ??= spec.quiet?.(performance.now() + MAX_WRITE_DELAY_MS) ?? Promise.resolve();
      const ready = gate;
      puts = puts.then(async () => {
        await ready;
        if (storeOk && spec.retired?.()) {
          storeOk = false;
          spec.options.onEvent({ type: 'cache-error', url: entry.name, code: SwErrorCode.ABORTED, detail: 'retired' });
        }
        if (!storeOk) return;
        try {
          cache ??= await caches.open(this.cacheName);
          // Made only now: a Response copies its bytes, work that would make the page's requests wait while
          // the package is still coming in. A shared script the HTTP cache holds goes in as that copy.
          const host = spec.kind === 'shared' ? await httpCachedScript(key, entry, bytes) : undefined;
          await cache.put(key, host ?? objectResponse(entry, bytes, buildId));
          record.objects.push({ name: entry.name, digest: digestToSri(entry.digest) });
          spec.options.onEvent({ type: 'object-cached', url: entry.name });
        } catch (err) {
          // Quota or a broken cache: keep serving from memory, never mark the package as held.
          storeOk = false;
          spec.options.onEvent({ type: 'cache-error', url: entry.name, code: errorCode(err) });
        }
      });
    };
    let fresh = false;
    let corrupt = false;
    const checks: Array<Promise<void>> = [];
    /** Verifies an object's bytes; only verified bytes are served and stored. */
    const complete = async (slot: Slot, bytes: Uint8Array): Promise<void> => {
      const { entry } = slot;
      // Web Crypto answers in a later task, after the rest of a large network chunk has been decoded;
      // the HTML holds its page back until verified, so it is hashed right here (≈ 0.5 ms per 35 KB).
      const ok = slot.urgent ? verifyNow(bytes, entry.digest) : await verify(bytes, entry.digest);
      // The page's HTML is whole: let it go out before the rest of a large chunk is decoded.
      if (slot.urgent) fresh = true;
      if (ok) return store(entry, slot.end(bytes));
      corrupt = true;
      const err = new FormatError(FormatErrorCode.DIGEST_MISMATCH, entry.name, entry.name);
      slot.fail(err);
      spec.options.onEvent({ type: 'fallback', url: entry.name, code: err.code });
    };
    const decoder = new Decoder(
      {
        onIndex: (received) => {
          if (plan && !plan.builds.includes(received.buildId)) {
            // Claims were made from this build's manifest: a delta of another build could name other bytes.
            throw new ObjpackSwError(SwErrorCode.DELTA, `${spec.path} ${received.buildId}`);
          }
          const index = plan ? this.merge(received, plan) : received;
          fresh = true;
          spec.options.onEvent({ type: 'package-index', url: spec.path, detail: String(index.entries.length) });
          for (const e of index.entries) this.slots.set(e.name, new Slot(withHostCaching(e, spec.cacheControl)));
          for (const name of this.borrowed) this.slots.get(name)!.borrowed = true;
          const html = spec.kind === 'page' ? htmlEntry(index) : undefined;
          if (html) this.slots.get(html.name)!.urgent = true;
          this.buildId = index.buildId;
          this.cacheName = spec.cacheFor(index);
          record.buildId = index.buildId;
          record.sharedRefs = [...index.sharedRefs];
          this.indexed = true;
          this.resolveIndex(index);
          for (const slot of this.slots.values()) {
            if (slot.borrowed)
              checks.push(
                this.fill(slot, plan!.claims.get(slot.entry.name)!, complete).then(
                  (ok) => void (ok || (corrupt = true)),
                ),
              );
          }
        },
        onObjectData: (entry, bytes) => this.slots.get(entry.name)!.data(bytes),
        onObjectEnd: (entry) => {
          const slot = this.slots.get(entry.name)!;
          checks.push(complete(slot, slot.assemble()));
        },
      },
      { verify: false },
    );
    const reader = response.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        progress(value.length);
        // In slices, yielding once the index is in and once the HTML is whole: the navigation gets its HTML
        // before the rest of a large first chunk is cut into objects.
        for (let at = 0; at < value.length; at += SLICE) {
          decoder.push(at === 0 && value.length <= SLICE ? value : value.subarray(at, at + SLICE));
          if (fresh) {
            fresh = false;
            await new Promise((r) => setTimeout(r, 0));
          }
        }
      }
      decoder.end();
    } catch (err) {
      reader.cancel().catch(() => {});
      throw why(err);
    }
    // The transfer is over: verification and Cache Storage writes take their own time.
    disarm();
    await Promise.all(checks);
    // Never leave a request waiting on an object that will not come: it goes to the network instead.
    for (const slot of this.slots.values()) {
      if (slot.state === 'done' || slot.state === 'failed') continue;
      corrupt = true;
      slot.fail(new ObjpackSwError(SwErrorCode.OBJECT_ABSENT, slot.entry.name));
    }
    await puts;
    spec.options.onEvent({ type: 'package-end', url: spec.path });
    if (!storeOk || corrupt) return false;
    if (spec.kind === 'page') record.html = htmlEntry(await this.index)?.name;
    this.borrowsFrom.clear();
    return spec.store.markHeld(this.cacheName, spec.path, record).then(
      () => {
        spec.onHeld?.(this.cacheName, record);
        return true;
      },
      () => false,
    );
  }

  /** Fills a left-out object from its held copy, verified again like any other object. */
  private fill(slot: Slot, claim: Claim, complete: (slot: Slot, bytes: Uint8Array) => Promise<void>): Promise<boolean> {
    return fillFromHeld(this.spec, slot, claim, complete);
  }

  /** The whole package's index from a delta's: left-out objects become slots filled from held copies. */
  private merge(received: PackageIndex, plan: HavePlan): PackageIndex {
    const { index, borrowed, borrowsFrom } = mergeDelta(received, plan);
    for (const name of borrowed) this.borrowed.add(name);
    for (const name of borrowsFrom) this.borrowsFrom.add(name);
    return index;
  }
}
