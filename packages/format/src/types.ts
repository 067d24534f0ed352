/** One object as the decoder reports it: a row of the paper's object package management table. */
export interface ObjectEntry {
  /** Position in delivery order (0-based): the paper's File Entry Pointer value for this row. */
  readonly index: number;
  /**
   * URL path, optionally with a query, percent-encoded as a browser requests it: `/img/caf%C3%A9.png?v=3` (README
   * §1.2).
   */
  readonly name: string;
  /** Media type for the `Content-Type` header, e.g. `text/css; charset=utf-8`. */
  readonly contentType: string;
  /** Further response headers (lower-case names), validated: no CR, LF or NUL. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** Bytes of this object carried in the package. */
  readonly size: number;
  /** Size of the whole object; larger than `size` only when `partial`. */
  readonly totalSize: number;
  /** The entry carries only the first `size` bytes: fetch the rest with `Range: bytes=size-`. */
  readonly partial: boolean;
  /** SHA-256 of the carried bytes (32 bytes). */
  readonly digest: Uint8Array;
  /** Offset of the body inside the data field (sum of the preceding sizes). */
  readonly offset: number;
}

/** The object information field, complete before any body byte is delivered. */
export interface PackageIndex {
  readonly version: { readonly major: number; readonly minor: number };
  /** Build the package belongs to ('' when none). Printable ASCII, at most 64 bytes. */
  readonly buildId: string;
  /** URL paths of shared packages that this package relies on (content-hashed, cache forever). */
  readonly sharedRefs: readonly string[];
  readonly entries: readonly ObjectEntry[];
  /** Bytes before the data field: fixed header plus object information field. */
  readonly headerBytes: number;
  /** Bytes of the data field (sum of all entry sizes). */
  readonly dataBytes: number;
}

/** An incremental hash (SHA-256). The default is the built-in pure-TypeScript one. */
export interface IncrementalHash {
  update(bytes: Uint8Array): void;
  digest(): Uint8Array;
}
export type HashFactory = () => IncrementalHash;

/** Source of an object's bytes for the encoder. */
export type BodySource =
  | Uint8Array
  /** Called once per pass; must yield the same bytes every time (a file read stream, say). */
  | (() => AsyncIterable<Uint8Array> | Iterable<Uint8Array>);

/** One object to encode. */
export interface EncoderObject {
  /** `URL.pathname + URL.search` form: printable ASCII, non-ASCII percent-encoded (README §1.2 "Names"). */
  name: string;
  contentType: string;
  headers?: ReadonlyArray<readonly [string, string]>;
  body: BodySource;
  /** Required for a streamed body (a Uint8Array body knows its size). */
  size?: number;
  /** Whole-object size when the body is only a prefix (sets the partial flag). */
  totalSize?: number;
  /** SHA-256 of the body; computed (with a first pass over a streamed body) when absent. */
  digest?: Uint8Array;
}

export interface EncoderInput {
  buildId?: string;
  sharedRefs?: readonly string[];
  objects: readonly EncoderObject[];
}

/** Limits a decoder enforces as soon as a length is read, before any allocation. */
export interface DecoderLimits {
  maxObjects: number;
  maxIndexBytes: number;
  maxNameBytes: number;
  maxHeaderBytes: number;
  maxDataBytes: number;
}

/** Callbacks, in stream order. All are synchronous; throwing from one aborts the decoder. */
export interface DecoderHandlers {
  /** The management table is complete (the paper's step 7). */
  onIndex?(index: PackageIndex): void;
  onObjectStart?(entry: ObjectEntry): void;
  /** A view of body bytes as they arrive; zero-copy into the pushed chunk where possible. */
  onObjectData?(entry: ObjectEntry, bytes: Uint8Array): void;
  /** All bytes arrived and, unless `verify: false`, the digest matched. */
  onObjectEnd?(entry: ObjectEntry): void;
  /** The whole package was read. */
  onEnd?(index: PackageIndex): void;
}

export interface DecoderOptions {
  /** Verify every object's SHA-256 before `onObjectEnd` (default true). */
  verify?: boolean;
  /** Hash implementation; Node's adapter passes node:crypto for speed. */
  hash?: HashFactory;
  limits?: Partial<DecoderLimits>;
}
