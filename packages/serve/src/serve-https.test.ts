import { connect, constants } from 'node:http2';
import { get as httpsGet } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ObjpackServer } from './index.js';
import { fdCount, settledFdCount } from './test-utils/fds.js';
import { makeSite, type FixtureSite } from './test-utils/site.js';

let site: FixtureSite;
let server: ObjpackServer;
beforeAll(async () => {
  site = makeSite();
  server = await serve({ root: site.root, port: 0, https: true });
});
afterAll(async () => {
  await server.close();
  site.cleanup();
});

describe('https with a self-signed certificate', () => {
  it('serves HTTP/2 with 103 Early Hints and packages', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(server.http2).toBe(true);
    const session = connect(server.url, { rejectUnauthorized: false });
    try {
      const fetch = (path: string, headers: Record<string, string> = {}) =>
        new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer; hints: unknown[] }>(
          (resolve, reject) => {
            const hints: unknown[] = [];
            const req = session.request({ ':path': path, ...headers });
            const chunks: Buffer[] = [];
            let head: Record<string, unknown> = {};
            req.on('headers', (h) => hints.push(h));
            req.on('response', (h) => (head = h));
            req.on('data', (c: Buffer) => chunks.push(c));
            req.on('end', () =>
              resolve({
                status: Number(head[constants.HTTP2_HEADER_STATUS]),
                headers: head,
                body: Buffer.concat(chunks),
                hints,
              }),
            );
            req.on('error', reject);
            req.end();
          },
        );
      const page = await fetch('/');
      expect(page.status).toBe(200);
      expect(page.body.equals(site.files['/index.html']!)).toBe(true);
      expect(page.hints.length).toBe(1);
      expect(String((page.hints[0] as Record<string, unknown>).link)).toContain(
        '</font.woff2>; rel=preload; as=font; crossorigin',
      );
      const pkg = await fetch('/', { 'x-objpack': 'package' });
      expect(pkg.headers['content-type']).toBe('application/vnd.objpack');
      expect(pkg.body.equals(site.files['/_objpack/pages/index.html.objp']!)).toBe(true);
    } finally {
      session.close();
    }
  });

  it("shortens an HTTP/2 session's idle time once the closure was sent", async () => {
    const s = await serve({
      root: site.root,
      port: 0,
      https: true,
      holdMs: 60_000,
      closureHoldMs: 50,
      closureHoldFrom: 0,
    });
    try {
      const session = connect(s.url, { rejectUnauthorized: false });
      const closed = new Promise<void>((r) => session.on('close', () => r()));
      for (const path of ['/guide/', '/style.css', '/guide/guide.js']) {
        await new Promise<void>((resolve, reject) => {
          const req = session.request({ ':path': path });
          req.resume();
          req.on('end', () => resolve());
          req.on('error', reject);
          req.end();
        });
      }
      await closed; // with holdMs alone the session would idle for a minute
      expect(s.stats().connections).toMatchObject({ closureComplete: 1, shortHoldCloses: 1 });
    } finally {
      await s.close();
    }
  });

  it('evicts an idle HTTP/2 session with GOAWAY to admit a new connection at the cap', async () => {
    const s = await serve({ root: site.root, port: 0, https: true, maxConnections: 1, holdMs: 60_000 });
    const get = (session: ReturnType<typeof connect>, path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = session.request({ ':path': path });
        let status = 0;
        req.on('response', (h) => (status = Number(h[constants.HTTP2_HEADER_STATUS])));
        req.resume();
        req.on('end', () => resolve(status));
        req.on('error', reject);
        req.end();
      });
    const a = connect(s.url, { rejectUnauthorized: false });
    let b: ReturnType<typeof connect> | undefined;
    try {
      const goaway = new Promise<void>((r) => a.once('goaway', () => r()));
      const aClosed = new Promise<void>((r) => a.once('close', () => r()));
      expect(await get(a, '/style.css')).toBe(200);
      b = connect(s.url, { rejectUnauthorized: false }); // over the cap: a's idle session must make room
      expect(await get(b, '/style.css')).toBe(200);
      await goaway;
      await aClosed;
      expect(s.stats().connections).toMatchObject({ evicted: 1, refused: 0 });
    } finally {
      a.destroy();
      b?.close();
      await s.close();
    }
  });

  it('leaks no file descriptors when HTTP/2 streams are cancelled while their file opens', async () => {
    const session = connect(server.url, { rejectUnauthorized: false });
    try {
      // A first whole response: the session and the server's lazily made state exist before counting.
      await new Promise<void>((resolve, reject) => {
        const req = session.request({ ':path': '/big.bin' });
        req.resume();
        req.on('end', () => resolve());
        req.on('error', reject);
      });
      const before = fdCount();
      const cancelled: Array<Promise<void>> = [];
      for (let i = 0; i < 40; i++) {
        const req = session.request({ ':path': '/big.bin', ...(i % 2 ? { range: 'bytes=5-2000000' } : {}) });
        req.on('error', () => {});
        req.resume();
        cancelled.push(new Promise((resolve) => req.on('close', () => resolve())));
        // RST_STREAM at different moments of the server's open → fstat → stream sequence.
        setTimeout(() => req.close(constants.NGHTTP2_CANCEL), i % 4);
      }
      await Promise.all(cancelled);
      expect(await settledFdCount(before)).toBeLessThanOrEqual(before);
    } finally {
      session.close();
    }
  });

  it('still speaks HTTP/1.1 over TLS', async () => {
    const body = await new Promise<Buffer>((resolve, reject) => {
      httpsGet(`${server.url}/style.css`, { rejectUnauthorized: false, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      }).on('error', reject);
    });
    expect(body.equals(site.files['/style.css']!)).toBe(true);
  });

  it('serves HTTPS without HTTP/2 when asked', async () => {
    const h1 = await serve({ root: site.root, port: 0, https: true, http2: false });
    try {
      expect(h1.http2).toBe(false);
      const status = await new Promise<number>((resolve, reject) => {
        httpsGet(`${h1.url}/`, { rejectUnauthorized: false, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        }).on('error', reject);
      });
      expect(status).toBe(200);
      expect(h1.stats().connections.total).toBe(1);
    } finally {
      await h1.close();
    }
  });

  it('rejects a certificate without its key', async () => {
    await expect(serve({ root: site.root, cert: '/nope.pem' })).rejects.toMatchObject({ code: 'SERVE_BAD_OPTION' });
    await expect(serve({ root: site.root, cert: '/nope.pem', key: '/nope.key' })).rejects.toMatchObject({
      code: 'SERVE_TLS',
    });
    await expect(serve({ root: '/definitely/not/here' })).rejects.toMatchObject({ code: 'SERVE_BAD_ROOT' });
  });
});
