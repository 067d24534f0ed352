import type { DecoderLimits } from './types.js';

/** Registered-style media type of an OBJP package. */
export const MEDIA_TYPE = 'application/vnd.objpack';
/** File extension of an OBJP package. */
export const FILE_EXTENSION = '.objp';

/** "OBJP" in ASCII. */
export const MAGIC = new Uint8Array([0x4f, 0x42, 0x4a, 0x50]);
export const VERSION_MAJOR = 1;
export const VERSION_MINOR = 0;

/** Bytes of the fixed header (see README "Byte layout"). */
export const HEADER_SIZE = 32;
/** Bytes of one fixed-size attribute record in the attributes subfield. */
export const ATTRIBUTE_SIZE = 48;
/** Bytes of one fixed-size entry in the sizes subfield. */
export const SIZE_FIELD_SIZE = 8;
export const DIGEST_SIZE = 32;

/** Attribute flag: the entry carries only a prefix of the object (fetch the rest with a Range request). */
export const FLAG_PARTIAL = 0x0001;
/** Flags a v1 reader must understand; unknown bits in this mask are rejected, others ignored. */
export const FLAGS_MUST_UNDERSTAND = 0x00ff;

export const MAX_BUILD_ID_BYTES = 64;
export const MAX_CONTENT_TYPE_BYTES = 255;
export const MAX_CONTENT_TYPES = 255;
export const MAX_SHARED_REFS = 1024;

/** Hard ceilings of the v1 format; a decoder's limits may only be lower. */
export const FORMAT_LIMITS: DecoderLimits = {
  maxObjects: 65_535,
  maxIndexBytes: 16 * 1024 * 1024,
  maxNameBytes: 4096,
  maxHeaderBytes: 8192,
  maxDataBytes: Number.MAX_SAFE_INTEGER,
};

export const DEFAULT_LIMITS: DecoderLimits = { ...FORMAT_LIMITS };
