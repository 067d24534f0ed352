#!/usr/bin/env node
// The one test command (README "Quick start", .ci/run): system tools, lint, types, build, every test.
import { spawnSync } from 'node:child_process';
import { ensureSystemTools } from './system-tools.mjs';

const run = (cmd, args) => {
  process.stdout.write(`\n$ ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status || 1);
  }
};

ensureSystemTools();
run('pnpm', ['run', 'build']);
run('pnpm', ['run', 'lint']);
run('pnpm', ['run', 'typecheck']);
run('pnpm', ['exec', 'vitest', 'run', ...process.argv.slice(2)]);
