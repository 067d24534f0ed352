#!/usr/bin/env node
/**
 * One server under test in its own process (pinned by the parent with taskset), so the load generator
 * never shares its CPU. argv[2] = JSON { kind: 'objpack' | 'sirv' | 'node-floor', root, options }. Prints the port as
 * one JSON line on stdout; on SIGTERM prints stats (objpack) and exits. `node-floor` is a bare
 * http.createServer answering every request with one file from memory (the Node floor for a package).
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
  const server = http.createServer((req, res) =>
    handler(req, res, () => {
      res.statusCode = 404;
      res.end();
    }),
  );
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  close = () =>
    new Promise((r) => {
      server.close(r);
      server.closeAllConnections();
    });
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
} else if (kind === 'node-floor') {
  // The least a Node HTTP server can do per package: one preallocated Buffer, two headers, res.end().
  // Not a product: it shows how much of objpack's CPU per package is Node's HTTP stack and the kernel.
  const { readFileSync } = await import('node:fs');
  const body = readFileSync(`${root}${options.path}`);
  const head = ['content-type', 'application/vnd.objpack', 'content-length', String(body.length)];
  const server = http.createServer((req, res) => {
    res.writeHead(200, head);
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  close = () =>
    new Promise((r) => {
      server.close(r);
      server.closeAllConnections();
    });
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
} else {
  throw new Error(`unknown server kind ${kind}`);
}
process.on('SIGTERM', async () => {
  process.stdout.write(`${JSON.stringify({ stats: stats() })}\n`);
  await close();
  process.exit(0);
});
