#!/usr/bin/env node
// Thin launcher: the CLI lives in dist/ (built by `pnpm install`'s prepare step).
import { main } from '../dist/cli/main.js';

// `objpack … | head` closes the pipe early: that is not an error worth a stack trace.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`objpack: internal error: ${err?.stack ?? err}\n`);
    process.exitCode = 70;
  },
);
