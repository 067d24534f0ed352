/** Worker thread: parses pages, hashes files and encodes packages, so that work uses every core. PageJob → result. */
import { parentPort } from 'node:worker_threads';
import { jsReady } from './js-extract.js';
import { runHere, transferList } from './page-parser.js';
import type { PageJob } from './page-parser.js';

await jsReady;
const port = parentPort;
port?.on('message', (job: PageJob) => {
  void runHere(job).then((r) => port.postMessage(r, transferList(r)));
});
