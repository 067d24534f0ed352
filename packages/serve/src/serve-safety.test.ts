import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ObjpackServer, type ServeLogEvent } from './index.js';
import { fdCount, settledFdCount } from './test-utils/fds.js';
import { get, raw, statusOf } from './test-utils/http.js';
import { makeSite, type FixtureSite } from './test-utils/site.js';

let site: FixtureSite;
let server: ObjpackServer;
const logs: ServeLogEvent[] = [];

beforeAll(async () => {
  site = makeSite();
  server = await serve({ root: site.root, port: 0, maxMemoryFileBytes: 64 * 1024, onLog: (e) => logs.push(e) });
});
afterAll(async () => {
  await server.close();
  site.cleanup();
});

const request = (path: string) => raw(server.port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);

describe('path traversal', () => {
  const attacks = [
    '/../secret.txt',
    '/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e%2fsecret.txt',
    '/%252e%252e/secret.txt',
    '/..%5csecret.txt',
    '/..\\secret.txt',
    '/guide/..%5c..%5csecret.txt',
    '/%c0%ae%c0%ae/secret.txt',
    '/%c0%ae%c0%ae%c0%afsecret.txt',
    '/style.css%00.png',
    '/%00',
    '/guide/../../secret.txt',
    '/./../secret.txt',
    '//../secret.txt',
    '/escape.txt',
    '/escape-dir/secret.txt',
    '/escape-dir/site/style.css',
    'http://x/../secret.txt',
    '/%e0%80%ae%e0%80%ae/secret.txt',
    '/%',
    '/%zz',
  ];
  for (const attack of attacks) {
    it(`refuses ${JSON.stringify(attack)}`, async () => {
      const reply = await request(attack);
      expect(reply).not.toContain('TOP SECRET');
      expect([400, 404]).toContain(statusOf(reply));
    });
  }

  it('still serves a symlink that stays inside the root', async () => {
    const r = await get(server.url, '/inside-link.css');
    expect(r.status).toBe(200);
    expect(r.body.equals(site.files['/style.css']!)).toBe(true);
  });

  it('reports skipped symlinks that leave the root', () => {
    expect(logs.some((l) => l.code === 'SERVE_SKIPPED' && l.path === '/escape.txt')).toBe(true);
  });
});

describe('dotfiles', () => {
  for (const p of ['/.env', '/.git/config', '/.git/', '/sub/.hidden', '/%2egit/config', '/%2eenv', '/sub/%2ehidden']) {
    it(`never serves ${p}`, async () => {
      const reply = await request(p);
      expect([400, 404]).toContain(statusOf(reply));
      expect(reply).not.toMatch(/SECRET=1|\[core\]|hidden$/);
    });
  }
});

describe('header values', () => {
  it('drops manifest paths that would inject headers into Link and Early Hints', async () => {
    const r = await get(server.url, '/');
    expect(r.headers['set-cookie']).toBeUndefined();
    for (const info of r.informational) expect(info.headers['set-cookie']).toBeUndefined();
    expect(String(r.headers.link)).not.toMatch(/[\r\n]/);
    expect(String(r.headers.link)).toContain('evil%0D%0ASet-Cookie:%20x=1.js');
  });
});

describe('slow and aborting clients', () => {
  it('closes a connection that never finishes its headers (headersTimeout)', async () => {
    const slow = await serve({ root: site.root, port: 0, headersTimeoutMs: 200, requestTimeoutMs: 400 });
    try {
      const reply = await new Promise<string>((resolve) => {
        const s = connect(slow.port, '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nHost: x\r\n'));
        let text = '';
        s.on('data', (c) => (text += c.toString()));
        s.on('close', () => resolve(text));
      });
      expect(statusOf(reply)).toBe(408);
    } finally {
      await slow.close();
    }
  });

  it('leaks no file descriptors when clients abort mid-response', async () => {
    const warm = await get(server.url, '/big.bin', { headers: { range: 'bytes=0-0' } });
    expect(warm.status).toBe(206);
    const before = fdCount();
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve) => {
        const s: Socket = connect(server.port, '127.0.0.1', () => s.write('GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n'));
        let got = 0;
        s.on('data', (c) => {
          got += c.length;
          if (got > 64 * 1024) s.destroy();
        });
        s.on('close', () => resolve());
      });
    }
    expect(await settledFdCount(before)).toBeLessThanOrEqual(before);
  });

  it('leaks no file descriptors when a connection dies with pipelined responses queued', async () => {
    // The second and third responses wait behind the first; the client leaves after the first bytes.
    const three =
      'GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(2) +
      'GET /big.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=10-1500000\r\n\r\n';
    await get(server.url, '/big.bin', { method: 'HEAD' });
    const before = fdCount();
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve) => {
        const s: Socket = connect(server.port, '127.0.0.1', () => s.write(three));
        s.once('data', () => s.destroy());
        s.on('close', () => resolve());
      });
    }
    expect(await settledFdCount(before)).toBeLessThanOrEqual(before);
    // The connection still serves files from disk.
    expect((await get(server.url, '/big.bin')).body.length).toBe(site.files['/big.bin']!.length);
  });
});
