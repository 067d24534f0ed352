import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { raw } from './test-utils/http.js';
import { until, useFixtureServers } from './test-utils/fixture-servers.js';

const fixture = useFixtureServers();
const start = fixture.start;

/** A keep-alive connection that sends requests one at a time. */
function keepAlive(port: number) {
  const s = connect(port, '127.0.0.1');
  let buf = '';
  let waiting: (() => void) | undefined;
  const closed = new Promise<void>((r) => s.on('close', () => r()));
  s.on('data', (c) => {
    buf += c.toString('latin1');
    waiting?.();
  });
  return {
    closed,
    isOpen: () => !s.destroyed && !s.readableEnded,
    async get(path: string, extra = '') {
      buf = '';
      s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}\r\n`);
      // Wait for a complete response (headers + Content-Length bytes).
      await new Promise<void>((resolve) => {
        waiting = () => {
          const end = buf.indexOf('\r\n\r\n');
          const len = Number(/content-length: (\d+)/i.exec(buf)?.[1] ?? -1);
          if (end !== -1 && len >= 0 && buf.length - end - 4 >= len) resolve();
        };
        waiting();
      });
      return buf;
    },
    destroy: () => s.destroy(),
  };
}

describe('closure-aware keep-alive', () => {
  it('drops the holding time once the whole closure was sent on the connection, at half the cap', async () => {
    // One open connection is half of a cap of 2: the server is busy enough for the short hold.
    const s = await start({ maxConnections: 2, holdMs: 60_000, closureHoldMs: 50, earlyHints: false });
    const c = keepAlive(s.port);
    await c.get('/guide/');
    await c.get('/style.css');
    expect(s.stats().connections.closureComplete).toBe(0);
    await c.get('/guide/guide.js');
    await c.closed; // the server closes it; with holdMs alone this would take a minute
    expect(s.stats().connections.closureComplete).toBe(1);
    expect(s.stats().connections.shortHoldCloses).toBe(1);
  });

  it('keeps the normal holding time while the server has room, closure sent or not', async () => {
    const s = await start({ maxConnections: 100, holdMs: 60_000, closureHoldMs: 50, earlyHints: false });
    const c = keepAlive(s.port);
    for (const path of ['/guide/', '/style.css', '/guide/guide.js']) await c.get(path);
    await new Promise((r) => setTimeout(r, 400));
    expect(c.isOpen()).toBe(true);
    expect(s.stats().connections).toMatchObject({ closureComplete: 1, shortHoldCloses: 0 });
    c.destroy();
  });

  it('counts a package (page + shared) as the whole closure', async () => {
    const s = await start({ holdMs: 60_000, closureHoldMs: 50, closureHoldFrom: 0 });
    const c = keepAlive(s.port);
    await c.get('/_objpack/pages/guide/index.html.objp');
    await c.get('/_objpack/shared/00112233aabbccdd.objp');
    await c.closed;
    expect(s.stats().connections.closureComplete).toBe(1);
  });

  it('keeps the normal holding time while objects are still missing', async () => {
    const s = await start({ holdMs: 60_000, closureHoldMs: 50, closureHoldFrom: 0, earlyHints: false });
    const c = keepAlive(s.port);
    await c.get('/guide/');
    await c.get('/style.css');
    await new Promise((r) => setTimeout(r, 400));
    expect(c.isOpen()).toBe(true);
    expect(s.stats().connections.shortHoldCloses).toBe(0);
    c.destroy();
  });

  it('evicts an idle connection for a new one at the cap, and refuses when none is idle', async () => {
    const s = await start({ maxConnections: 2, holdMs: 60_000 });
    const a = keepAlive(s.port);
    await a.get('/style.css');
    const b = keepAlive(s.port);
    await b.get('/style.css');
    const c = keepAlive(s.port);
    expect(await c.get('/style.css')).toMatch(/^HTTP\/1\.1 200/);
    await a.closed;
    expect(s.stats().connections.evicted).toBe(1);
    // Two connections that have not sent a request yet are not idle: a third is refused with 503.
    b.destroy();
    c.destroy();
    await until(() => s.stats().connections.open === 0);
    const x = connect(s.port, '127.0.0.1');
    const y = connect(s.port, '127.0.0.1');
    await until(() => s.stats().connections.open === 2);
    const reply = await raw(s.port, 'GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 503/);
    expect(s.stats().connections.refused).toBe(1);
    x.destroy();
    y.destroy();
  });
});
