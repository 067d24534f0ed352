#!/usr/bin/env node
// The one test command (README "Quick start", .ci/run): system tools, build, lint, types, every test.
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
ensureSystemTools();
step('pnpm', ['run', 'build']);
step('pnpm', ['run', 'lint']);
step('pnpm', ['run', 'typecheck']);

const dir = mkdtempSync(join(tmpdir(), 'objpack-test-'));
const report = join(dir, 'vitest.json');
process.stdout.write('\n$ vitest run\n');
const r = spawnSync('pnpm', ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], { stdio: 'inherit' });
let summary = '';
try {
  const j = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  summary = `${j.numPassedTests} passed, ${j.numFailedTests} failed, ${skipped} skipped`;
} catch {
  summary = '0 passed, 1 failed';
}
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`\nAll checks took ${Math.round((Date.now() - started) / 1000)} s.\nTests: ${summary}\n`);
process.exit(r.status ?? 1);
