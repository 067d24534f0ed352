export {
  MEDIA_TYPE,
  FILE_EXTENSION,
  FORMAT_LIMITS,
  DEFAULT_LIMITS,
  FLAG_PARTIAL,
  HEADER_SIZE,
  ATTRIBUTE_SIZE,
} from './constants.js';
export { Decoder } from './decoder.js';
export { encodePackage, encodePackageSync, encodeIndex, type EncoderOptions } from './encoder.js';
export { createDecoderStream, decodeStream } from './web-stream.js';
export type { DecodeEvent } from './events.js';
export { FormatError, FormatErrorCode, isFormatError } from './errors.js';
export { sha256, createSha256, digestEquals } from './sha256.js';
export { digestToSri, sriToDigest, toBase64, fromBase64, toHex } from './sri.js';
export { crc32 } from './crc32.js';
export { validateName } from './validate.js';
export { canonicalPath, nameFormPath } from './name-form.js';
export { checkBasePath, underBase, type BasePathCheck } from './base-path.js';
export type {
  ObjectEntry,
  PackageIndex,
  IncrementalHash,
  HashFactory,
  BodySource,
  EncoderObject,
  EncoderInput,
  DecoderLimits,
  DecoderHandlers,
  DecoderOptions,
} from './types.js';
export {
  MANIFEST_FILE,
  ROUTES_FILE,
  PACKAGE_DIR,
  MANIFEST_VERSION,
  UTF8_HTML,
  type BuildManifest,
  type FirebaseUrls,
  type HostHeaderRule,
  type HostRedirectRule,
  type HostRoute,
  type HostRouteOptions,
  type RedirectScope,
  type ManifestPage,
  type ManifestObject,
  type ManifestPackage,
  type RouteTable,
  type PreloadAs,
  type PreloadHint,
  type PreloadCors,
  type PreloadEntry,
} from './manifest.js';
export { isCarriedHeader, isHeaderName, isHeaderValue, NOT_CARRIED_HEADERS } from './header-field.js';
export { MAX_LINK_HEADER_BYTES, preloadLinkEntry, preloadLinkValue, joinLinkValue, isAnnounced } from './link-value.js';
export { RuleIndex, literalPath } from './rule-index.js';
