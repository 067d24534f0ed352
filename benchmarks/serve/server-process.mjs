#!/usr/bin/env node
/**
 * One server under test in its own process (pinned by the parent with taskset), so the load generator
 * never shares its CPU. argv[2] = JSON { kind: 'objpack' | 'sirv', root, options }. Prints the port as
 * one JSON line on stdout; on SIGTERM prints stats (objpack) and exits.
 */
import http from 'node:http';

const { kind, root, options = {} } = JSON.parse(process.argv[2]);
let stats = () => null;
let close;
if (kind === 'objpack') {
  const { serve } = await import('@objpack/serve');
  const server = await serve({ root, port: 0, host: '127.0.0.1', ...options });
  stats = () => server.stats();
  close = () => server.close({ timeoutMs: 1000 });
  process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
} else if (kind === 'sirv') {
  const { default: sirv } = await import('sirv');
  // Production mode: sirv scans the directory once at start-up and precomputes headers.
  const handler = sirv(root, { dev: false, etag: true });
  const server = http.createServer((req, res) => handler(req, res, () => { res.statusCode = 404; res.end(); }));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  close = () => new Promise((r) => { server.close(r); server.closeAllConnections(); });
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
} else {
  throw new Error(`unknown server kind ${kind}`);
}
process.on('SIGTERM', async () => {
  process.stdout.write(`${JSON.stringify({ stats: stats() })}\n`);
  await close();
  process.exit(0);
});
