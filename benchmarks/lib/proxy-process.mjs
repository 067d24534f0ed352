/**
 * Run the delay proxy in its own process, so its work is charged neither to the client nor the server.
 * `node proxy-process.mjs '<json options>'` is the child; startProxyProcess() is the parent's handle.
 */
import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startDelayProxy } from './delay-proxy.mjs';

/**
 * @param {import('./delay-proxy.mjs').DelayProxyOptions} options
 * @returns {Promise<{ port: number, lateness: () => Promise<{ chunks: number, p50Ms: number, p90Ms: number, maxMs:
 * number }>, close: () => Promise<void> }>}
 */
export async function startProxyProcess(options) {
  const child = fork(fileURLToPath(import.meta.url), [JSON.stringify(options)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (/** @type {any} */ m) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`delay proxy exited with ${code}`)));
  });
  // Its timers are the emulated link: ahead of the client and servers for the CPU where allowed (root).
  try {
    setPriority(/** @type {number} */ (child.pid), -10);
  } catch {
    // not permitted: normal priority
  }
  return {
    port: /** @type {number} */ (port),
    /** @returns {Promise<{ chunks: number, p50Ms: number, p90Ms: number, maxMs: number }>} */
    lateness: () =>
      new Promise((resolve, reject) => {
        if (child.exitCode !== null) return reject(new Error('delay proxy exited'));
        child.once('message', (/** @type {any} */ m) => resolve(m.lateness));
        child.send('lateness');
      }),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  const proxy = await startDelayProxy(JSON.parse(process.argv[2] ?? '{}'));
  process.on('SIGTERM', () => {
    void proxy.close().then(() => process.exit(0));
  });
  process.on('message', (m) => {
    if (m === 'lateness') process.send?.({ lateness: proxy.lateness() });
  });
  process.send({ port: proxy.port });
}
