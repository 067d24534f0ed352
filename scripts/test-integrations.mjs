#!/usr/bin/env node
// `pnpm test:integrations` (README "Quick start", .ci/run): the framework integrations inside real Vite,
// VitePress, Astro, Docusaurus and Eleventy builds. Each fixture installs its framework from npm with its
// committed package-lock.json into its own node_modules, through the npm cache in .cache/npm, so a second
// run needs no network and skips installs whose lockfile is unchanged.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSystemTools } from './system-tools.mjs';

const step = (cmd, args) => {
  process.stdout.write(`\n$ ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status || 1);
  }
};

const started = Date.now();
ensureSystemTools({ quiet: true });
// The integrations run from their dist/, as the frameworks load them from node_modules.
step('pnpm', ['run', 'build']);

const dir = mkdtempSync(join(tmpdir(), 'objpack-integrations-'));
const report = join(dir, 'vitest.json');
const args = ['exec', 'vitest', 'run', '--config', 'vitest.integrations.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
process.stdout.write(`\n$ pnpm ${args.join(' ')}\n`);
const r = spawnSync('pnpm', args, { stdio: 'inherit' });
let summary = '';
try {
  const j = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  summary = `${j.numPassedTests} passed, ${j.numFailedTests} failed, ${skipped} skipped`;
} catch {
  summary = '0 passed, 1 failed';
}
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`\nIntegration checks took ${Math.round((Date.now() - started) / 1000)} s.\nIntegration tests: ${summary}\n`);
process.exit(r.status ?? 1);
