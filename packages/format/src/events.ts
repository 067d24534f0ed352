import type { ObjectEntry, PackageIndex } from './types.js';

/** The decoder's callbacks as values, for stream and async-iterator consumers. */
export type DecodeEvent =
  | { type: 'index'; index: PackageIndex }
  | { type: 'start'; entry: ObjectEntry }
  | { type: 'data'; entry: ObjectEntry; bytes: Uint8Array }
  | { type: 'end'; entry: ObjectEntry };
