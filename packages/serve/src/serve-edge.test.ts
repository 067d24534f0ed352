import { mkdirSync, writeFileSync } from 'node:fs';
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

  it('uses the site\'s own 404.html with status 404, and serves /.well-known/', async () => {
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
});
