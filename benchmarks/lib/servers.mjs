/**
 * Start the servers under comparison behind one interface: { kind, url, port, reset(), stats(), close() }.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkspace } from './workspace.mjs';
import { startNginx } from './nginx.mjs';

const CHILD = fileURLToPath(new URL('./server-child.mjs', import.meta.url));

/** @type {Promise<string | null> | null} */
let serveBundle = null;
/** The bundled @objpack/serve, or null while packages/serve/src/index.ts does not exist. */
export function objpackServeBundle() {
  serveBundle ??= bundleWorkspace('serve').catch(() => null);
  return serveBundle;
}

/**
 * @typedef {object} BenchServer
 * @property {string} kind 'objpack' | 'node-standin' | 'sirv' | 'nginx'
 * @property {string} url
 * @property {number} port
 * @property {(warm?: string[]) => Promise<void>} reset zero the counters; with a memory model (memory-bound.mjs),
 *   also empty its cache and refill it with the `warm` paths while they fit
 * @property {() => Promise<{ cpuMs: number, requests: number, responseMs: number, connections: number, connSeconds:
 * number, maxOpen?: number, rssBytes?: number, memory?: import('./memory-model.mjs').MemoryModelStats & { capacityNow:
 * number } }>} stats
 * @property {() => Promise<void>} close
 */

/**
 * @param {'objpack' | 'sirv' | 'standin'} kind objpack falls back to the clearly labelled stand-in while
 *   the objpack server is not written yet
 * @param {{ root: string, options?: Record<string, unknown>, cpu?: number, memoryModel?:
 * Omit<import('./memory-model.mjs').MemoryModelOptions, 'now'> }} config `memoryModel`: emulate a memory-bound machine
 * in front of the server (memory-bound.mjs)
 * @returns {Promise<BenchServer>}
 */
export async function startNodeServer(kind, { root, options = {}, cpu, memoryModel }) {
  let bundle = null;
  let label = kind === 'standin' ? 'node-standin' : kind;
  if (kind === 'objpack') {
    bundle = await objpackServeBundle();
    if (!bundle) {
      kind = 'standin';
      label = 'node-standin';
    }
  }
  const arg = JSON.stringify({ kind, root, options, bundle, memoryModel });
  const child =
    cpu === undefined
      ? fork(CHILD, [arg], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
      : fork(CHILD, [arg], {
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
          execPath: 'taskset',
          execArgv: ['-c', String(cpu), process.execPath],
        });
  let nextId = 1;
  /** @type {Map<number, (v: any) => void>} */
  const waiting = new Map();
  const ready = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${label} server exited with ${code}`)));
    child.on('message', (/** @type {any} */ m) => {
      if (m.ready) resolve(m.port);
      else {
        waiting.get(m.id)?.(m);
        waiting.delete(m.id);
      }
    });
  });
  const port = /** @type {number} */ (await ready);
  const call = (/** @type {string} */ cmd, /** @type {Record<string, unknown>} */ extra = {}) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.send({ ...extra, cmd, id });
    });
  return {
    kind: label,
    port,
    url: `http://127.0.0.1:${port}`,
    reset: async (warm) => {
      await call('reset', warm ? { warm } : {});
    },
    stats: /** @type {any} */ (() => call('stats')),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ cmd: 'close', id: 0 });
      // Not unref'd: a server stuck closing must not outlive a benchmark that is about to exit.
      const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(kill);
    },
  };
}

/**
 * @param {'objpack' | 'sirv' | 'standin' | 'nginx'} kind
 * @param {{ root: string, dir: string, options?: { holdMs?: number, maxConnections?: number } & Record<string,
 * unknown>, cpu?: number, memoryModel?: Omit<import('./memory-model.mjs').MemoryModelOptions, 'now'> }} config
 * @returns {Promise<BenchServer>}
 */
export async function startServer(kind, config) {
  if (kind === 'nginx')
    return startNginx({
      root: config.root,
      dir: join(config.dir, 'nginx'),
      ...(config.options ?? {}),
      cpu: config.cpu,
    });
  return startNodeServer(kind, config);
}

/** taskset exists (it pins client and server to different cores). */
export const canPin = () => existsSync('/usr/bin/taskset');
