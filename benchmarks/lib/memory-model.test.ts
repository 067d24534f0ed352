import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { MemoryModel } from './memory-model.mjs';
import { attachMemoryModel, fileSizes } from './memory-bound.mjs';

const fake = () => {
  let t = 0;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
};
const base = { memoryBytes: 1000, idleConnBytes: 100, activeConnBytes: 300, seekMs: 10, bytesPerMs: 10 };

describe('MemoryModel (002 memory-bound emulation)', () => {
  it(
    'a miss costs seek + transfer on one FIFO disk; a hit costs ' +
      'nothing; a hit on a file still being read waits for it',
    () => {
      const clock = fake();
      const m = new MemoryModel({ ...base, now: clock.now });
      expect(m.read('/a', 100)).toBe(20); // 10 ms seek + 100 B / 10 B/ms
      expect(m.read('/b', 50)).toBe(35); // queued behind /a: 20 + 15
      expect(m.read('/a', 100)).toBe(20); // in cache, but its read ends at t = 20
      clock.advance(40);
      expect(m.read('/a', 100)).toBe(0);
      expect(m.read('/c', 0)).toBe(10); // disk idle again: seek only
      expect(m.stats).toMatchObject({ hits: 2, misses: 3, hitBytes: 200, missBytes: 150, diskBusyMs: 45 });
    },
  );

  it('evicts the least recently used file when full', () => {
    const m = new MemoryModel({ ...base, now: () => 0 });
    m.read('/a', 400);
    m.read('/b', 400);
    m.read('/a', 400); // /a is now the most recent
    m.read('/c', 400); // evicts /b
    expect([...m.cache.keys()]).toEqual(['/a', '/c']);
    expect(m.stats.evictions).toBe(1);
    m.read('/huge', 5000); // larger than RAM: read, never cached
    expect(m.cache.has('/huge')).toBe(false);
  });

  it('open connections take their memory from the cache: idle ones 81 KB-like, active ones more', () => {
    const m = new MemoryModel({ ...base, now: () => 0 });
    m.warm([
      ['/a', 300],
      ['/b', 300],
      ['/c', 300],
      ['/d', 300],
    ]); // /d does not fit
    expect([...m.cache.keys()]).toEqual(['/a', '/b', '/c']);
    expect(m.stats.misses).toBe(0);
    m.connectionOpened();
    m.connectionOpened(); // 2 idle: 200 B
    expect(m.capacity()).toBe(800);
    expect([...m.cache.keys()]).toEqual(['/b', '/c']);
    m.requestStarted(); // one becomes active: 100 + 300
    expect(m.capacity()).toBe(600);
    expect([...m.cache.keys()]).toEqual(['/b', '/c']);
    m.requestStarted(); // both active: 600
    expect(m.capacity()).toBe(400);
    expect([...m.cache.keys()]).toEqual(['/c']);
    expect(m.stats.minCacheBytes).toBe(400);
    m.requestFinished();
    m.requestFinished();
    m.connectionClosed();
    m.connectionClosed();
    expect(m.capacity()).toBe(1000);
    for (let i = 0; i < 20; i++) m.connectionOpened();
    expect(m.capacity()).toBe(0); // never negative
    expect(m.cache.size).toBe(0);
  });

  it('clear() empties the cache and idles the disk but keeps counting connections', () => {
    const m = new MemoryModel({ ...base, now: () => 0 });
    m.connectionOpened();
    m.read('/a', 100);
    m.clear();
    expect(m.cache.size).toBe(0);
    expect(m.read('/a', 100)).toBe(20);
    expect(m.capacity()).toBe(900);
  });
});

describe('attachMemoryModel on a real node:http server', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('counts hits, misses and connections of the requests the server gets, then runs its own handler', async () => {
    const root = await mkdtemp(join(tmpdir(), 'objpack-mem-'));
    dirs.push(root);
    await mkdir(join(root, 'd'));
    await writeFile(join(root, 'd', 'a b.txt'), 'x'.repeat(1000));
    await writeFile(join(root, 'c.txt'), 'y'.repeat(10));
    expect(fileSizes(root)).toEqual(
      new Map([
        ['/c.txt', 10],
        ['/d/a b.txt', 1000],
      ]),
    );
    const server = http.createServer((req, res) => res.end(req.url));
    const { model, reset } = attachMemoryModel(server, root, {
      memoryBytes: 100_000,
      idleConnBytes: 1000,
      activeConnBytes: 2000,
      seekMs: 0,
      bytesPerMs: 1e9,
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const agent = new Agent({ connections: 1 });
    try {
      reset(['/c.txt', '/nope']);
      expect([...model.cache.keys()]).toEqual(['/c.txt']);
      for (const path of ['/d/a%20b.txt', '/d/a%20b.txt', '/c.txt', '/missing']) {
        const res = await request(`${origin}${path}`, { dispatcher: agent });
        expect(await res.body.text()).toBe(path); // the server's own handler answered
      }
      expect(model.stats).toMatchObject({ hits: 2, misses: 1, missBytes: 1000 });
      expect(model.open).toBe(1); // one kept-alive connection, idle now
      expect(model.active).toBe(0);
      expect(model.capacity()).toBe(99_000);
    } finally {
      await agent.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
