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
 * @property {() => Promise<void>} reset
 * @property {() => Promise<{ cpuMs: number, requests: number, responseMs: number, connections: number, connSeconds: number, maxOpen?: number, rssBytes?: number }>} stats
 * @property {() => Promise<void>} close
 */

/**
 * @param {'objpack' | 'sirv' | 'standin'} kind objpack falls back to the clearly labelled stand-in while
 *   the objpack server is not written yet
 * @param {{ root: string, options?: Record<string, unknown>, cpu?: number }} config
 * @returns {Promise<BenchServer>}
 */
export async function startNodeServer(kind, { root, options = {}, cpu }) {
  let bundle = null;
  let label = kind === 'standin' ? 'node-standin' : kind;
  if (kind === 'objpack') {
    bundle = await objpackServeBundle();
    if (!bundle) { kind = 'standin'; label = 'node-standin'; }
  }
  const arg = JSON.stringify({ kind, root, options, bundle });
  const child = cpu === undefined
    ? fork(CHILD, [arg], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
    : fork(CHILD, [arg], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execPath: 'taskset', execArgv: ['-c', String(cpu), process.execPath] });
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
  const call = (/** @type {string} */ cmd) => new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    child.send({ cmd, id });
  });
  return {
    kind: label, port, url: `http://127.0.0.1:${port}`,
    reset: async () => { await call('reset'); },
    stats: /** @type {any} */ (() => call('stats')),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ cmd: 'close', id: 0 });
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      await exited;
    },
  };
}

/**
 * @param {'objpack' | 'sirv' | 'standin' | 'nginx'} kind
 * @param {{ root: string, dir: string, options?: { holdMs?: number, maxConnections?: number } & Record<string, unknown>, cpu?: number }} config
 * @returns {Promise<BenchServer>}
 */
export async function startServer(kind, config) {
  if (kind === 'nginx') return startNginx({ root: config.root, dir: join(config.dir, 'nginx'), ...(config.options ?? {}), cpu: config.cpu });
  return startNodeServer(kind, config);
}

/** taskset exists (it pins client and server to different cores). */
export const canPin = () => existsSync('/usr/bin/taskset');
