import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serve, type ServeLogEvent } from './index.js';
import { get } from './test-utils/http.js';
import { makeSite, type FixtureSite } from './test-utils/site.js';

let site: FixtureSite;
beforeEach(() => {
  site = makeSite();
});
afterEach(() => site.cleanup());

describe('edge cases', () => {
  it('reports a malformed manifest and keeps serving files without hints or packages', async () => {
    writeFileSync(join(site.root, 'objpack-manifest.json'), '{"version": 1, "pages": ');
    const logs: ServeLogEvent[] = [];
    const s = await serve({ root: site.root, port: 0, onLog: (e) => logs.push(e) });
    try {
      expect(logs.map((l) => l.code)).toContain('SERVE_BAD_MANIFEST');
      const r = await get(s.url, '/', { headers: { 'x-objpack': 'package' } });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.informational).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("uses the site's own 404.html with status 404, and serves /.well-known/", async () => {
    writeFileSync(join(site.root, '404.html'), '<h1>custom missing</h1>');
    mkdirSync(join(site.root, '.well-known'));
    writeFileSync(join(site.root, '.well-known', 'security.txt'), 'Contact: x');
    const s = await serve({ root: site.root, port: 0 });
    try {
      const r = await get(s.url, '/missing');
      expect(r.status).toBe(404);
      expect(r.body.toString()).toBe('<h1>custom missing</h1>');
      expect((await get(s.url, '/.well-known/security.txt')).body.toString()).toBe('Contact: x');
    } finally {
      await s.close();
    }
  });

  it('rejects bad options with SERVE_BAD_OPTION', async () => {
    await expect(serve({ root: site.root, port: 70000 })).rejects.toMatchObject({ code: 'SERVE_BAD_OPTION' });
    await expect(serve({ root: site.root, prefetch: -1 })).rejects.toMatchObject({ code: 'SERVE_BAD_OPTION' });
  });

  it('listens on the --host it is given (IPv6 loopback) and shows it in the URL', async (ctx) => {
    const v6 = await new Promise<boolean>((resolve) => {
      const probe = createServer()
        .listen(0, '::1', () => probe.close(() => resolve(true)))
        .on('error', () => resolve(false));
    });
    if (!v6) {
      console.warn('SKIPPED --host ::1 test: this machine has no IPv6 loopback');
      ctx.skip();
    }
    const s = await serve({ root: site.root, port: 0, host: '::1' });
    try {
      expect(s.url).toBe(`http://[::1]:${s.port}`);
      expect((await get(s.url, '/style.css')).status).toBe(200);
      // Not on the IPv4 loopback: the interface choice is real.
      const v4 = await new Promise<string>((resolve) => {
        const c = connect(s.port, '127.0.0.1', () => {
          c.destroy();
          resolve('connected');
        }).on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? ''));
      });
      expect(v4).toBe('ECONNREFUSED');
    } finally {
      await s.close();
    }
  });

  it('reports a taken port with SERVE_LISTEN', async () => {
    const a = await serve({ root: site.root, port: 0 });
    try {
      await expect(serve({ root: site.root, port: a.port })).rejects.toMatchObject({ code: 'SERVE_LISTEN' });
    } finally {
      await a.close();
    }
  });
});

describe('files changed after start-up', () => {
  it('streams a disk-backed file that changed size with a truthful Content-Length', async () => {
    const s = await serve({ root: site.root, port: 0, maxMemoryFileBytes: 64 * 1024 });
    try {
      writeFileSync(join(site.root, 'big.bin'), 'now short');
      const r = await get(s.url, '/big.bin');
      expect(r.status).toBe(200);
      expect(r.headers['content-length']).toBe('9');
      expect(r.body.toString()).toBe('now short');
      const ranged = await get(s.url, '/big.bin', { headers: { range: 'bytes=0-3' } });
      expect(ranged.status).toBe(200);
      expect(ranged.body.toString()).toBe('now short');
    } finally {
      await s.close();
    }
  });

  it('reload() picks up changed, added and removed files, keeping unchanged in-memory bodies valid', async () => {
    const s = await serve({ root: site.root, port: 0 });
    try {
      const style = (await get(s.url, '/style.css')).body;
      const app = (await get(s.url, '/app.js')).body;
      const sameSize = Buffer.alloc(style.length, 0x2f); // same size, newer mtime: must not be mistaken for unchanged
      writeFileSync(join(site.root, 'style.css'), sameSize);
      utimesSync(join(site.root, 'style.css'), new Date(), new Date(Date.now() + 5000));
      writeFileSync(join(site.root, 'new.txt'), 'new');
      rmSync(join(site.root, 'guide', 'guide.js'));
      await s.reload();
      expect((await get(s.url, '/style.css')).body.equals(sameSize)).toBe(true);
      expect((await get(s.url, '/app.js')).body.equals(app)).toBe(true);
      expect((await get(s.url, '/new.txt')).body.toString()).toBe('new');
      expect((await get(s.url, '/guide/guide.js')).status).toBe(404);
    } finally {
      await s.close();
    }
  });
});
