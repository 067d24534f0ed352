/** Worker thread: reads and parses HTML pages so parsing uses every core. Messages: PageJob → PageResult. */
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { jsReady } from './js-extract.js';
import { extractPage } from './page-extract.js';
import type { PageJob, PageResult } from './page-parser.js';
import { contentHash, decodeHtml } from './read-site-file.js';

await jsReady;
const port = parentPort;
port?.on('message', (job: PageJob) => {
  readFile(job.file).then(
    (bytes) => {
      const result: PageResult = { id: job.id, hash: job.hash ? contentHash(bytes) : '', extract: extractPage(decodeHtml(bytes)) };
      port.postMessage(result);
    },
    (err: NodeJS.ErrnoException) => port.postMessage({ id: job.id, error: { code: err.code, message: err.message } } satisfies PageResult),
  );
});
