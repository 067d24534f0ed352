/**
 * What every experiment gets: run mode, a scratch directory, the format codec under test, the servers
 * to compare, and CPU pinning (server on core 1, client on core 0, where taskset exists and there are
 * at least 2 cores).
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadWorkspace, TMP } from './workspace.mjs';
import { nginxBinary } from './nginx.mjs';
import { canPin, objpackServeBundle } from './servers.mjs';

/**
 * @typedef {object} BenchContext
 * @property {boolean} quick
 * @property {string} tmp scratch directory of this experiment
 * @property {any} format the format package under test (Decoder, encodePackageSync, …)
 * @property {Array<'objpack' | 'nginx'>} servers servers to compare ('objpack' may run as the stand-in)
 * @property {boolean} objpackReal the objpack server exists (else 'objpack' runs the labelled stand-in)
 * @property {number | undefined} serverCpu core to pin servers to
 * @property {(msg: string) => void} log progress on stderr
 * @property {string[]} notes caveats found while running (missing peers, stand-ins), for the report
 */

/**
 * @param {{ quick: boolean, name: string, servers?: Array<'objpack' | 'nginx'>, log?: (m: string) => void, pin?:
 * boolean }} o `pin` (default true) moves this process to core 0 and servers to core 1
 * @returns {Promise<BenchContext>}
 */
export async function createContext({ quick, name, servers, log = (m) => process.stderr.write(`${m}\n`), pin = true }) {
  const tmp = join(TMP, name);
  await mkdir(tmp, { recursive: true });
  const notes = [];
  const objpackReal = Boolean(await objpackServeBundle());
  if (!objpackReal)
    notes.push(
      '@objpack/serve was not available: "objpack" rows were measured with the node:http STAND-IN server ' +
        '(benchmarks/lib/standin-server.mjs).',
    );
  const wanted = servers ?? ['objpack', 'nginx'];
  const have = wanted.filter((s) => s !== 'nginx' || nginxBinary());
  if (have.length < wanted.length)
    notes.push('nginx not found (run `node scripts/system-tools.mjs`): nginx rows skipped.');
  let serverCpu;
  if (pin && canPin() && availableParallelism() >= 2) {
    try {
      execFileSync('taskset', ['-pc', '0', String(process.pid)], { stdio: 'ignore' });
      serverCpu = 1;
    } catch {
      /* unpinned */
    }
  }
  return { quick, tmp, format: await loadWorkspace('format'), servers: have, objpackReal, serverCpu, log, notes };
}
