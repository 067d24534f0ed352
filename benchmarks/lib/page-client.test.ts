import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decoder, encodePackageSync } from '@objpack/format';
import { paperFileGroups } from '../../fixtures/generators/file-groups.mjs';
import { serveStandin } from './standin-server.mjs';
import { fetchPage } from './page-client.mjs';
import { startDelayProxy } from './delay-proxy.mjs';

let root: string;
let server: Awaited<ReturnType<typeof serveStandin>>;
let paths: string[];
const SIZE = 4096, FILES = 12;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'objpack-client-'));
  const { groups } = await paperFileGroups({ sizes: [SIZE], sets: 1, files: FILES }, root);
  paths = groups[0]!.sets[0]!.files.map((f) => `/4k/set-00/${f.name}`);
  const objects = await Promise.all(paths.map(async (p) => ({ name: p, contentType: 'text/plain', body: new Uint8Array(await readFile(join(root, p))) })));
  await writeFile(join(root, 'set-00.objp'), encodePackageSync({ objects }));
  server = await serveStandin({ root });
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

describe('fetchPage', () => {
  for (const [mode, connections, expected] of [
    ['http10', undefined, FILES], ['keepalive', 1, 1], ['keepalive', 6, 6], ['pipelined', undefined, 1], ['package', undefined, 1],
  ] as const) {
    it(`${mode}${connections ? ` ×${connections}` : ''}: every object arrives over ${expected} connection(s)`, async () => {
      const r = await fetchPage({ origin: server.url, paths, mode, connections, packagePath: '/set-00.objp', Decoder });
      expect(r.objects).toBe(FILES);
      expect(r.bytes).toBe(FILES * SIZE);
      if (mode === 'keepalive' && connections === 6) expect(r.connections).toBeLessThanOrEqual(6);
      else expect(r.connections).toBe(expected);
      expect(r.ms).toBeGreaterThan(0);
      expect(r.firstByteMs).toBeLessThanOrEqual(r.ms);
      expect(r.dispatcher).toBeNull();
    });
  }

  it('package mode rejects a package that lacks objects', async () => {
    await expect(fetchPage({ origin: server.url, paths: [...paths, '/missing'], mode: 'package', packagePath: '/set-00.objp', Decoder }))
      .rejects.toThrow(/expected 13/);
  });

  it('reports HTTP errors', async () => {
    await expect(fetchPage({ origin: server.url, paths: ['/nope.txt'], mode: 'keepalive' })).rejects.toThrow(/404/);
  });

  it('keeps the connection when closeWhenDone is false', async () => {
    const r = await fetchPage({ origin: server.url, paths: paths.slice(0, 2), mode: 'keepalive', closeWhenDone: false });
    expect(r.dispatcher).not.toBeNull();
    await r.dispatcher!.destroy();
  });

  it('through the delay proxy, HTTP/1.0 pays at least 2 RTTs per object, one package about 2 in all', async () => {
    const proxy = await startDelayProxy({ targetPort: server.port, rttMs: 20 });
    try {
      const origin = `http://127.0.0.1:${proxy.port}`;
      const h10 = await fetchPage({ origin, paths: paths.slice(0, 4), mode: 'http10' });
      expect(h10.ms).toBeGreaterThanOrEqual(4 * 2 * 20 - 4);
      const pkg = await fetchPage({ origin, paths, mode: 'package', packagePath: '/set-00.objp', Decoder });
      expect(pkg.ms).toBeGreaterThanOrEqual(2 * 20 - 2);
      expect(pkg.objects).toBe(FILES);
    } finally {
      await proxy.close();
    }
  });
});
