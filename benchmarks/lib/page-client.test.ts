import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
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
const SIZE = 4096,
  FILES = 12;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'objpack-client-'));
  const { groups } = await paperFileGroups({ sizes: [SIZE], sets: 1, files: FILES }, root);
  paths = groups[0]!.sets[0]!.files.map((f) => `/4k/set-00/${f.name}`);
  const objects = await Promise.all(
    paths.map(async (p) => ({
      name: p,
      contentType: 'text/plain',
      body: new Uint8Array(await readFile(join(root, p))),
    })),
  );
  await writeFile(join(root, 'set-00.objp'), encodePackageSync({ objects }));
  server = await serveStandin({ root });
});
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

describe('fetchPage', () => {
  for (const [mode, connections, expected] of [
    ['http10', undefined, FILES],
    ['keepalive', 1, 1],
    ['keepalive', 6, 6],
    ['pipelined', undefined, 1],
    ['package', undefined, 1],
  ] as const) {
    it(
      `${mode}${connections ? ` ×${connections}` : ''}: ` + `every object arrives over ${expected} connection(s)`,
      async () => {
        const r = await fetchPage({
          origin: server.url,
          paths,
          mode,
          connections,
          packagePath: '/set-00.objp',
          Decoder,
        });
        expect(r.objects).toBe(FILES);
        expect(r.bytes).toBe(FILES * SIZE);
        if (mode === 'keepalive' && connections === 6) expect(r.connections).toBeLessThanOrEqual(6);
        else expect(r.connections).toBe(expected);
        expect(r.ms).toBeGreaterThan(0);
        expect(r.firstByteMs).toBeLessThanOrEqual(r.ms);
        expect(r.dispatcher).toBeNull();
      },
    );
  }

  it('package mode rejects a package that lacks objects', async () => {
    await expect(
      fetchPage({
        origin: server.url,
        paths: [...paths, '/missing'],
        mode: 'package',
        packagePath: '/set-00.objp',
        Decoder,
      }),
    ).rejects.toThrow(/expected 13/);
  });

  it('reports HTTP errors', async () => {
    await expect(fetchPage({ origin: server.url, paths: ['/nope.txt'], mode: 'keepalive' })).rejects.toThrow(/404/);
  });

  it('keeps the connection when closeWhenDone is false', async () => {
    const r = await fetchPage({
      origin: server.url,
      paths: paths.slice(0, 2),
      mode: 'keepalive',
      closeWhenDone: false,
    });
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

  it(
    'pipelined: sends every request before the first ' + 'response (the server answers only once all arrived)',
    async () => {
      // A raw server that withholds every response until it has read all N requests: a client that waits
      // for a response before sending the next request never finishes (the test times out).
      const N = 5;
      let maxUnanswered = 0;
      const raw = net.createServer((sock) => {
        let buf = '';
        sock.on('data', (c) => {
          buf += c.toString('latin1');
          const seen = buf.split('\r\n\r\n').length - 1;
          maxUnanswered = Math.max(maxUnanswered, seen);
          if (seen === N) for (let i = 0; i < N; i++) sock.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
        });
      });
      await new Promise<void>((r) => raw.listen(0, '127.0.0.1', () => r()));
      try {
        const port = (raw.address() as net.AddressInfo).port;
        const r = await fetchPage({
          origin: `http://127.0.0.1:${port}`,
          paths: Array.from({ length: N }, (_, i) => `/o${i}`),
          mode: 'pipelined',
        });
        expect(r.objects).toBe(N);
        expect(r.connections).toBe(1);
        expect(maxUnanswered).toBe(N);
      } finally {
        await new Promise<void>((r) => raw.close(() => r()));
      }
    },
    10_000,
  );

  it(
    "closes its connection as soon as the page's last object " +
      "has arrived (001), whatever the server's holding time",
    async () => {
      const { default: http } = await import('node:http');
      const srv = http.createServer((req, res) => res.end('x'));
      srv.keepAliveTimeout = 600_000; // the server would hold the connection for 10 minutes
      const closed: Promise<void>[] = [];
      srv.on('connection', (s) => closed.push(new Promise<void>((r) => s.once('close', () => r()))));
      await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
      try {
        const origin = `http://127.0.0.1:${(srv.address() as net.AddressInfo).port}`;
        for (const mode of ['keepalive', 'pipelined'] as const) {
          const r = await fetchPage({ origin, paths: ['/a', '/b', '/c'], mode });
          expect(r.objects).toBe(3);
          expect(r.dispatcher).toBeNull();
        }
        expect(closed).toHaveLength(2);
        await Promise.all(closed); // the client closed both: the server's 10-minute hold never ran out
      } finally {
        srv.closeAllConnections();
        await new Promise<void>((r) => srv.close(() => r()));
      }
    },
    10_000,
  );
});
