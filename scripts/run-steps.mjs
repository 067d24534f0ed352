// The steps scripts/test.mjs and scripts/test-integrations.mjs share: a command that must succeed, and a
// vitest run that ends with one summary line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs a command with its output shown; exits with its status when it fails. */
export function step(cmd, args) {
  process.stdout.write(`\n$ ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status || 1);
  }
}

/** `vitest run` with `args`; returns its exit status and "N passed, N failed, N skipped". */
export function vitest(args) {
  const dir = mkdtempSync(join(tmpdir(), 'objpack-test-'));
  const report = join(dir, 'vitest.json');
  const all = [
    'exec',
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...args,
  ];
  process.stdout.write(`\n$ pnpm ${all.join(' ')}\n`);
  const r = spawnSync('pnpm', all, { stdio: 'inherit' });
  let summary = '';
  try {
    const j = JSON.parse(readFileSync(report, 'utf8'));
    const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
    summary = `${j.numPassedTests} passed, ${j.numFailedTests} failed, ${skipped} skipped`;
  } catch {
    summary = '0 passed, 1 failed';
  }
  rmSync(dir, { recursive: true, force: true });
  return { status: r.status ?? 1, summary };
}
