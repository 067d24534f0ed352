import { closeSync, openSync, ftruncateSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serve } from './index.js';
import { get } from './test-utils/http.js';
import { makeSite, type FixtureSite } from './test-utils/site.js';

let site: FixtureSite;
const HUGE = 64 * 1024 * 1024; // more than loopback socket buffers hold, so the response stays in flight
beforeEach(() => {
  site = makeSite();
  const fd = openSync(join(site.root, 'huge.bin'), 'w');
  ftruncateSync(fd, HUGE); // sparse: costs no disk
  closeSync(fd);
});
afterEach(() => site.cleanup());

/** Starts a GET of /huge.bin and stops reading after the first chunk, so the response stays in flight. */
function stalledDownload(port: number) {
  const s = connect(port, '127.0.0.1');
  let bytes = 0;
  let firstChunk!: () => void;
  const started = new Promise<void>((r) => (firstChunk = r));
  const closed = new Promise<void>((r) => s.on('close', () => r()));
  s.on('connect', () => s.write('GET /huge.bin HTTP/1.1\r\nHost: x\r\n\r\n'));
  s.on('data', (c) => {
    bytes += c.length;
    if (bytes === c.length) {
      s.pause();
      firstChunk();
    }
  });
  return { started, closed, resume: () => s.resume(), bytes: () => bytes };
}

describe('graceful shutdown', () => {
  it('closes idle connections at once, finishes in-flight responses, then resolves', async () => {
    const server = await serve({ root: site.root, port: 0, maxMemoryFileBytes: 64 * 1024, holdMs: 60_000 });
    const idle = connect(server.port, '127.0.0.1');
    await new Promise<void>((r) => idle.on('connect', () => r()));
    const idleClosed = new Promise<void>((r) => idle.on('close', () => r()));
    idle.write('GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise<void>((r) => idle.once('data', () => r()));
    const dl = stalledDownload(server.port);
    await dl.started;

    const closed = server.close({ timeoutMs: 20_000 });
    await idleClosed;
    dl.resume();
    await dl.closed;
    await closed;
    // Headers plus every body byte arrived before the server let go of the connection.
    expect(dl.bytes()).toBeGreaterThan(HUGE);
    await expect(get(server.url, '/style.css')).rejects.toThrow();
  });

  it('cuts connections still busy at the deadline', async () => {
    const server = await serve({ root: site.root, port: 0, maxMemoryFileBytes: 64 * 1024 });
    const dl = stalledDownload(server.port);
    await dl.started;
    await server.close({ timeoutMs: 200 });
    dl.resume(); // a paused socket never sees the server's close
    await dl.closed;
    expect(dl.bytes()).toBeLessThan(HUGE);
  });
});
