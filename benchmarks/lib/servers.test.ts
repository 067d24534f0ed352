import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage } from './page-client.mjs';
import { nginxBinary } from './nginx.mjs';
import { startServer } from './servers.mjs';

let root: string;
const paths = Array.from({ length: 5 }, (_, i) => `/f${i}.txt`);
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'objpack-servers-'));
  for (const p of paths) await writeFile(join(root, p), 'x'.repeat(4096));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const hasNginx = Boolean(nginxBinary());
if (!hasNginx) console.warn('SKIPPED nginx server test: nginx not found (run `node scripts/system-tools.mjs`)');

describe('bench servers report their own request count, response time and CPU', () => {
  for (const kind of ['objpack', 'sirv', 'standin'] as const) {
    it(`${kind} (child process)`, async () => {
      const srv = await startServer(kind, { root, dir: root });
      try {
        await srv.reset();
        const r = await fetchPage({ origin: srv.url, paths, mode: 'http10' });
        expect(r.objects).toBe(5);
        const st = await srv.stats();
        expect(st.requests).toBe(5);
        expect(st.connections).toBe(5);
        expect(st.responseMs).toBeGreaterThan(0);
        expect(st.cpuMs).toBeGreaterThan(0);
        await srv.reset();
        expect((await srv.stats()).requests).toBe(0);
        // CPU is the server process's own: a busy client (this process) adds nothing to it.
        await srv.reset();
        const until = performance.now() + 300;
        while (performance.now() < until) {
          /* spin */
        }
        expect((await srv.stats()).cpuMs).toBeLessThan(150);
      } finally {
        await srv.close();
      }
    });
  }
  it('objpack behind the memory-bound emulation (002): misses, hits and warm-up come back over IPC', async () => {
    const srv = await startServer('objpack', {
      root,
      dir: root,
      options: { memoryBytes: 0, prefetch: false },
      memoryModel: { memoryBytes: 3 * 4096, idleConnBytes: 100, activeConnBytes: 100, seekMs: 0, bytesPerMs: 1e9 },
    });
    try {
      await srv.reset(['/f0.txt']);
      await fetchPage({ origin: srv.url, paths, mode: 'keepalive' });
      await fetchPage({ origin: srv.url, paths: paths.slice(3), mode: 'keepalive' });
      const st = await srv.stats();
      // f0 was warmed; f1–f4 miss; the cache (3 files minus connection memory) still holds f3 and f4.
      expect(st.memory).toMatchObject({ hits: 3, misses: 4 });
      expect(st.requests).toBe(7);
    } finally {
      await srv.close();
    }
  });
  it.skipIf(!hasNginx)('nginx (access log and /proc)', async () => {
    const srv = await startServer('nginx', { root, dir: root });
    try {
      await srv.reset();
      await fetchPage({ origin: srv.url, paths, mode: 'keepalive' });
      await new Promise((r) => setTimeout(r, 50));
      const st = await srv.stats();
      expect(st.requests).toBe(5);
      expect(st.cpuMs).toBeGreaterThan(0);
    } finally {
      await srv.close();
    }
  });
});
