/**
 * `objpack serve` (the workspace's built packages/serve) in its own process, so the browser driver's event
 * handling never delays its answers. startServeProcess() forks this file; the child sends its port.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REPO } from '../lib/workspace.mjs';

/**
 * @param {Record<string, unknown>} options ServeOptions (JSON): root, https, http2…
 * @param {string} [repo] the checkout whose built packages/serve runs (default this one): another commit's
 *   server beside this one's in the same run
 * @returns {Promise<{ port: number, close: () => Promise<void> }>}
 */
export async function startServeProcess(options, repo = REPO) {
  const child = fork(fileURLToPath(import.meta.url), [JSON.stringify(options), repo], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (/** @type {any} */ m) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`objpack serve exited with ${code}`)));
  });
  return {
    port: /** @type {number} */ (port),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  const { serve } = await import(pathToFileURL(join(process.argv[3] ?? REPO, 'packages/serve/dist/index.js')).href);
  const server = await serve({ host: '127.0.0.1', port: 0, ...JSON.parse(process.argv[2] ?? '{}') });
  process.on('SIGTERM', () => {
    void server.close({ timeoutMs: 500 }).then(() => process.exit(0));
  });
  process.send({ port: server.port });
}
