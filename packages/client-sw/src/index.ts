export { ObjpackWorker, createObjpackHandler } from './worker/handler.js';
export type { ObjpackOptions, ObjpackEvent } from './options.js';
export { SwErrorCode, ObjpackSwError, errorCode } from './errors.js';
