import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedLoop } from '../experiments/load.mjs';

// closedLoop drives experiments 001 and 002; what matters is how many connections each policy opens.
let server: http.Server;
let origin: string;
let connections = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => res.end('x'));
  server.keepAliveTimeout = 600_000;
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const page = () => ({ paths: ['/p.html', '/a.png', '/b.css'], thinkMs: 5 });

describe('closedLoop', () => {
  it("HTTP/1.1 kept across pages: one connection for all the user's pages", async () => {
    connections = 0;
    const r = await closedLoop({
      origin,
      clients: 1,
      minPages: 3,
      durationMs: 800,
      policy: { mode: 'keepalive', keepAcrossPages: true },
      nextPage: () => ({ ...page(), thinkMs: 1 }),
    });
    expect(r.errors).toBe(0);
    expect(r.latencies.length).toBeGreaterThan(1);
    expect(connections).toBe(1);
  });
  it('closing after each page (001 CHCM, 002 early close): one connection per page', async () => {
    connections = 0;
    const r = await closedLoop({
      origin,
      clients: 1,
      minPages: 3,
      durationMs: 150,
      policy: { mode: 'pipelined', keepAcrossPages: false },
      nextPage: page,
    });
    expect(r.latencies.length).toBeGreaterThan(1);
    expect(connections).toBe(r.latencies.length);
  });
  it('HTTP/1.0: one connection per object; a session end closes a kept connection', async () => {
    connections = 0;
    const r = await closedLoop({
      origin,
      clients: 1,
      minPages: 3,
      durationMs: 150,
      policy: { mode: 'http10', keepAcrossPages: false },
      nextPage: page,
    });
    expect(connections).toBe(3 * r.latencies.length);
    connections = 0;
    const s = await closedLoop({
      origin,
      clients: 1,
      minPages: 3,
      durationMs: 150,
      policy: { mode: 'keepalive', keepAcrossPages: true },
      nextPage: () => ({ ...page(), endSession: true }),
    });
    expect(connections).toBe(s.latencies.length);
  });
});
