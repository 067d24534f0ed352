import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ObjpackServer } from './index.js';
import { raw, statusOf } from './test-utils/http.js';
import { makeSite, type FixtureSite } from './test-utils/site.js';

const PRLIMIT = '/usr/bin/prlimit';
const canLimit = existsSync(PRLIMIT) && existsSync('/proc/self/limits');
if (!canLimit) console.warn('SKIPPING the open-file-limit test: it needs Linux and util-linux prlimit');

let site: FixtureSite;
beforeAll(() => {
  site = makeSite();
});
afterAll(() => site.cleanup());

/** Opens `n` connections that send nothing (never idle, so never evicted); resolves once all are up. */
async function openSilent(port: number, n: number): Promise<Socket[]> {
  return Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const s = connect(port, '127.0.0.1', () => resolve(s));
          s.on('error', reject);
        }),
    ),
  );
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 300 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
};

describe.skipIf(!canLimit)('the default connection cap', () => {
  it("is derived from the process's open-file limit, and answered with 503 beyond it", async () => {
    const hard = /^Max open files\s+\S+\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))![1]!;
    const lower = (soft: string) => execFileSync(PRLIMIT, ['--pid', String(process.pid), `--nofile=${soft}:${hard}`]);
    const before = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))![1]!;
    let server: ObjpackServer | undefined;
    const held: Socket[] = [];
    lower('400');
    try {
      server = await serve({ root: site.root, port: 0 });
      // 400 descriptors: 64 kept in reserve, a third of the rest for connections.
      expect(server.maxConnections).toBe(112);
      expect(server.maxConnectionsFrom).toEqual({ files: 400, source: 'rlimit' });
      held.push(...(await openSilent(server.port, 112)));
      await until(() => server!.stats().connections.open === 112);
      const reply = await raw(server.port, 'GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(statusOf(reply)).toBe(503);
      expect(reply).toMatch(/\r\nretry-after: 1\r\n/i);
      for (const s of held.splice(0)) s.destroy();
      await until(() => server!.stats().connections.open === 0);
      expect(statusOf(await raw(server.port, 'GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n'))).toBe(200);
    } finally {
      for (const s of held) s.destroy();
      lower(before);
      await server?.close();
    }
  });
});

describe('connections beyond those waiting for a 503', () => {
  it('are closed at accept, and the server keeps serving', async () => {
    const server = await serve({ root: site.root, port: 0, maxConnections: 2 });
    const held: Socket[] = [];
    try {
      // The cap (2) and as many again, at least 64, are accepted; the next ones are closed at once.
      held.push(...(await openSilent(server.port, 66)));
      await until(() => server.stats().connections.open === 66);
      const extra = await openSilent(server.port, 3);
      held.push(...extra);
      await Promise.all(extra.map((s) => new Promise((r) => (s.destroyed ? r(null) : s.on('close', r)))));
      expect(server.stats().connections.dropped).toBe(3);
      for (const s of held.splice(0)) s.destroy();
      await until(() => server.stats().connections.open === 0);
      expect(statusOf(await raw(server.port, 'GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n'))).toBe(200);
    } finally {
      for (const s of held) s.destroy();
      await server.close();
    }
  });
});
