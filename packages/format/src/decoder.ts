import { ByteQueue } from './byte-queue.js';
import { DEFAULT_LIMITS, HEADER_SIZE, MAGIC } from './constants.js';
import { crc32 } from './crc32.js';
import { FormatError, FormatErrorCode } from './errors.js';
import { decodeHeader, type FixedHeader } from './header.js';
import { decodeObjectInfo, minInfoLength } from './object-info.js';
import { createSha256, digestEquals } from './sha256.js';
import type {
  DecoderHandlers,
  DecoderLimits,
  DecoderOptions,
  HashFactory,
  IncrementalHash,
  ObjectEntry,
  PackageIndex,
} from './types.js';

const enum State {
  Header,
  Index,
  Body,
  Done,
  Failed,
}

/**
 * Streaming OBJP decoder with no I/O: `push(chunk)` as bytes arrive, `end()` when the input ends.
 * It fills the object package management table (the index) first, then walks it with the paper's File
 * Entry Pointer (`fep`) and Local File Pointer (`lfp`), handing out body bytes as zero-copy views. O(n) in
 * objects; memory is bounded by the index plus one partial chunk, never by declared sizes.
 */
export class Decoder {
  private readonly queue = new ByteQueue();
  private readonly limits: DecoderLimits;
  private readonly verify: boolean;
  private readonly hashFactory: HashFactory;
  private state = State.Header;
  private header: FixedHeader | undefined;
  private index: PackageIndex | undefined;
  private fep = 0;
  private lfp = 0;
  private hash: IncrementalHash | undefined;
  private failure: unknown;
  private received = 0;
  private ended = false;

  constructor(
    private readonly handlers: DecoderHandlers = {},
    options: DecoderOptions = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.verify = options.verify ?? true;
    this.hashFactory = options.hash ?? createSha256;
  }

  /** The index, once it has been read. */
  get packageIndex(): PackageIndex | undefined {
    return this.index;
  }

  /** Bytes pushed so far. */
  get bytesReceived(): number {
    return this.received;
  }

  /** Feeds the next bytes. Handlers run synchronously inside this call. Throws FormatError on bad input. */
  push(chunk: Uint8Array): void {
    this.checkUsable();
    if (this.ended) throw new FormatError(FormatErrorCode.DECODER_STATE, 'push() after end()');
    this.received += chunk.length;
    this.queue.push(chunk);
    this.run();
  }

  /** Declares the end of input; throws OBJP_TRUNCATED unless the whole package arrived. */
  end(): void {
    this.checkUsable();
    this.ended = true;
    if (this.state !== State.Done) {
      const where = this.state === State.Body ? ` inside ${this.index!.entries[this.fep]!.name}` : '';
      this.fail(new FormatError(FormatErrorCode.TRUNCATED, `input ended after ${this.received} bytes${where}`));
    }
    this.state = State.Done;
  }

  private checkUsable(): void {
    if (this.state === State.Failed) throw this.failure;
  }

  private fail(err: unknown): never {
    this.state = State.Failed;
    this.failure = err;
    throw err;
  }

  private run(): void {
    try {
      for (;;) {
        if (this.state === State.Header) {
          const bytes = this.queue.take(HEADER_SIZE);
          if (!bytes) {
            this.checkMagicPrefix();
            return;
          }
          const h = decodeHeader(bytes, this.limits);
          if (h.indexLength < minInfoLength(h.count)) {
            throw new FormatError(
              FormatErrorCode.BAD_LAYOUT,
              `index of ${h.indexLength} bytes cannot hold ${h.count} objects`,
            );
          }
          this.header = h;
          this.state = State.Index;
        } else if (this.state === State.Index) {
          const h = this.header!;
          const bytes = this.queue.take(h.indexLength);
          if (!bytes) return;
          if (crc32(bytes) !== h.indexCrc)
            throw new FormatError(FormatErrorCode.INDEX_CHECK, 'object information field CRC-32 mismatch');
          const info = decodeObjectInfo(bytes, h.count, h.dataLength, this.limits);
          this.index = {
            version: { major: h.major, minor: h.minor },
            buildId: info.buildId,
            sharedRefs: info.sharedRefs,
            entries: info.entries,
            headerBytes: HEADER_SIZE + h.indexLength,
            dataBytes: h.dataLength,
          };
          this.handlers.onIndex?.(this.index);
          this.state = State.Body;
          this.fep = 0;
          this.startEntry();
        } else if (this.state === State.Body) {
          const entry = this.index!.entries[this.fep]!;
          const view = this.queue.takeSome(entry.size - this.lfp);
          if (!view) return;
          this.lfp += view.length;
          this.hash?.update(view);
          this.handlers.onObjectData?.(entry, view);
          if (this.lfp === entry.size) this.finishEntry(entry);
        } else {
          if (this.queue.length > 0)
            throw new FormatError(FormatErrorCode.TRAILING_DATA, `${this.queue.length} bytes after the data field`);
          return;
        }
      }
    } catch (err) {
      // A handler's own error is passed through unchanged: the caller knows what it threw.
      this.fail(err);
    }
  }

  /**
   * Fails with OBJP_BAD_MAGIC as soon as an arrived byte differs from "OBJP", so a short foreign input (an
   * HTML error page, an empty-ish file) is not reported as a truncated package; a prefix of the magic waits.
   */
  private checkMagicPrefix(): void {
    const n = Math.min(this.queue.length, MAGIC.length);
    for (let i = 0; i < n; i++) {
      if (this.queue.peek(i) !== MAGIC[i])
        throw new FormatError(FormatErrorCode.BAD_MAGIC, 'first bytes are not "OBJP"');
    }
  }

  /** Sets the pointers on row `fep`; zero-length objects complete at once. */
  private startEntry(): void {
    const entries = this.index!.entries;
    while (this.fep < entries.length) {
      const entry = entries[this.fep]!;
      this.lfp = 0;
      this.hash = this.verify ? this.hashFactory() : undefined;
      this.handlers.onObjectStart?.(entry);
      if (entry.size > 0) return;
      this.verifyAndEnd(entry);
      this.fep++;
    }
    this.state = State.Done;
    this.handlers.onEnd?.(this.index!);
  }

  private finishEntry(entry: ObjectEntry): void {
    this.verifyAndEnd(entry);
    this.fep++;
    this.startEntry();
  }

  private verifyAndEnd(entry: ObjectEntry): void {
    if (this.hash && !digestEquals(this.hash.digest(), entry.digest)) {
      throw new FormatError(
        FormatErrorCode.DIGEST_MISMATCH,
        `SHA-256 of ${entry.name} does not match the index`,
        entry.name,
      );
    }
    this.hash = undefined;
    this.handlers.onObjectEnd?.(entry);
  }
}
