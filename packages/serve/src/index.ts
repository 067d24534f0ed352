/**
 * @objpack/serve — the public surface. `serve()` is what `objpack serve` calls; everything else here is a
 * type or the error catalog.
 */
export { serve, type ObjpackServer, type ServerStats } from './server.js';
export type { ServeOptions, ServeLogEvent } from './options.js';
export { ServeError, ServeErrorCode, isServeError } from './errors.js';
export type { PrefetchStats } from './prefetch.js';
export type { ConnectionStats } from './connections.js';
export type { FileLimit } from './fd-limit.js';
export type { RequestStats } from './context.js';
