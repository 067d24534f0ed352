/**
 * Worker thread: parses pages, stylesheets and modules, hashes files and encodes packages, so that work uses
 * every core. A message is a batch of PageJobs; the answer, one message with their results.
 */
import { parentPort } from 'node:worker_threads';
import { jsReady } from '../discover/js-extract.js';
import { runHere, transferList } from './pool-jobs.js';
import type { PageJob } from './pool-jobs.js';

await jsReady;
const port = parentPort;
port?.on('message', (jobs: PageJob[]) => {
  void Promise.all(jobs.map(runHere)).then((rs) => port.postMessage(rs, rs.flatMap(transferList)));
});
