#!/usr/bin/env node
/**
 * The server of the soak (soak.mjs), forked with --expose-gc: argv[2] = JSON { root, options, serveModule }
 * (`serveModule`: the file of a @objpack/serve build to import, another commit's included). Sends
 * { port } once listening; answers 'sample' with its heap after a full GC, its RSS and the server's stats.
 */
import { pathToFileURL } from 'node:url';

const { root, options = {}, serveModule } = JSON.parse(process.argv[2]);
const { serve } = await import(serveModule ? pathToFileURL(serveModule).href : '@objpack/serve');
const server = await serve({ root, port: 0, host: '127.0.0.1', ...options });
process.on('message', (m) => {
  if (m === 'sample') {
    globalThis.gc?.();
    const mem = process.memoryUsage();
    process.send({ heapUsed: mem.heapUsed, rss: mem.rss, stats: server.stats() });
  } else if (m === 'close') {
    void server.close({ timeoutMs: 1000 }).then(() => process.exit(0));
  }
});
process.send({ port: server.port });
