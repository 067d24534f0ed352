#!/usr/bin/env node
// `pnpm test` (README "Quick start", .ci/run): system tools, build, lint, types, every test but the
// framework integrations' (`pnpm test:integrations`, which the same command runs next).
import { step, vitest } from './run-steps.mjs';
import { ensureSystemTools } from './system-tools.mjs';

const started = Date.now();
ensureSystemTools();
step('pnpm', ['run', 'build']);
step('pnpm', ['run', 'lint']);
step('pnpm', ['run', 'typecheck']);
const { status, summary } = vitest(process.argv.slice(2));
process.stdout.write(`\nAll checks took ${Math.round((Date.now() - started) / 1000)} s.\nTests: ${summary}\n`);
process.exit(status);
