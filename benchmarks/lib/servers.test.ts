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
afterAll(async () => { await rm(root, { recursive: true, force: true }); });

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
      } finally {
        await srv.close();
      }
    });
  }
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
