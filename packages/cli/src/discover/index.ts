/**
 * Discovery: crawl a built site and compute each page's embedded-object closure
 * (HTML → CSS → fonts/images, JS modules, media…), in the order the page needs the bytes.
 */
export type {
  ClosureItem,
  Diagnostic,
  DiscoverCache,
  DiscoverOptions,
  PageClosure,
  PreloadAs,
  SiteFile,
  SiteGraph,
} from './types.js';
export { discoverSite, isPage, walkSite } from './discover-site.js';
export { pageClosure } from './page-closure.js';
export { inCriticalTier, laterReason, LATER_REASONS, REFERENCE_DISPLAY } from './tiers.js';
export type { LaterReason } from './tiers.js';
export { tracePages, launchChromium, recordPage, chromiumPath, CHROMIUM_ARGS } from './trace-pages.js';
export type { TraceOptions, TraceResult, PageRecording } from './trace-pages.js';
export { serveFiles } from './static-server.js';
export type { RunningSite } from './static-server.js';
export { DiscoverCodes, DiscoverError } from './diagnostic-codes.js';
export type { DiscoverCode } from './diagnostic-codes.js';
export { pageUrlPath, parseOrigin } from './site-origin.js';
