// page-complete.mjs --baseline: another commit's worker, to measure beside today's in the same run.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { bundle } from '../../packages/client-sw/scripts/bundle.mjs';
import { REPO } from '../lib/workspace.mjs';

/**
 * The worker bundle of commit `rev` (its client-sw and format sources, from git, bundled as ours is), built
 * under `dir`; exits with status 2, saying why through `log`, when that commit has no worker to bundle.
 */
export async function baselineWorker(rev, dir, log) {
  const src = join(dir, 'baseline');
  await mkdir(src, { recursive: true });
  try {
    execFileSync(
      'sh',
      [
        '-c',
        `git -C "$0" archive "$1" packages/client-sw/src packages/format/src ':(exclude,glob)**/*.test.ts' ` +
          `':(exclude)packages/client-sw/src/test-utils' | tar -x -C "$2"`,
        REPO,
        rev,
        src,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (err) {
    log(`--baseline ${rev}: ${String(err.stderr ?? err.message).trim()}`);
    process.exit(2);
  }
  // That commit's entry for the worker, not today's: the file may have moved since.
  let entry = 'src/sw.ts';
  try {
    const script = execFileSync('git', ['-C', REPO, 'show', `${rev}:packages/client-sw/scripts/bundle.mjs`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    entry = /'objpack-sw\.js':\s*'([^']+)'/.exec(script)?.[1] ?? entry;
  } catch {
    // No bundle script in that commit: the worker's entry was src/sw.ts from the start.
  }
  if (!existsSync(join(src, 'packages/client-sw', entry))) {
    log(`--baseline ${rev}: no worker entry packages/client-sw/${entry} in that commit`);
    process.exit(2);
  }
  const built = await bundle({ outdir: join(dir, 'baseline-bundles'), root: src, entries: { 'objpack-sw.js': entry } });
  log(
    `baseline worker: ${rev} ` +
      `(${execFileSync('git', ['-C', REPO, 'rev-parse', '--short', rev], { encoding: 'utf8' }).trim()})`,
  );
  return readFileSync(built['objpack-sw.js']);
}
