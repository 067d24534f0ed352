/**
 * Entry of the classic worker `objpack-sw.js` (bundled as an IIFE, so `importScripts('/objpack-sw.js')`
 * works inside an existing worker). Options come from `self.objpackOptions`, set before importScripts.
 */
import type { ObjpackOptions } from './options.js';
import { ObjpackWorker } from './worker/handler.js';

declare const self: ServiceWorkerGlobalScope & { objpackOptions?: ObjpackOptions; objpack?: ObjpackWorker };

const worker = new ObjpackWorker(self, self.objpackOptions);
self.objpack = worker;
self.addEventListener('install', (e) => worker.handleInstall(e));
self.addEventListener('activate', (e) => worker.handleActivate(e));
self.addEventListener('message', (e) => worker.handleMessage(e));
self.addEventListener('fetch', (e) => {
  worker.handleFetch(e);
});
