#!/usr/bin/env node
// `pnpm test:integrations` (README "Quick start", .ci/run): the framework integrations inside real Vite,
// VitePress, Astro, Docusaurus and Eleventy builds. Each fixture installs its framework from npm with its
// committed package-lock.json into its own node_modules, through the npm cache in .cache/npm, so a second
// run needs no network and skips installs whose lockfile is unchanged.
import { step, vitest } from './run-steps.mjs';
import { ensureSystemTools } from './system-tools.mjs';

const started = Date.now();
ensureSystemTools({ quiet: true });
// The integrations run from their dist/, as the frameworks load them from node_modules.
step('pnpm', ['run', 'build']);
const { status, summary } = vitest(['--config', 'vitest.integrations.config.ts', ...process.argv.slice(2)]);
const seconds = Math.round((Date.now() - started) / 1000);
process.stdout.write(`\nIntegration checks took ${seconds} s.\nIntegration tests: ${summary}\n`);
process.exit(status);
