#!/usr/bin/env node
// Runs the format, serve and cli unit tests under other Node majors (default 22 and 24; the machine's own
// Node is 20) and prints one summary line per version. Node comes from the npm package `node` via npx, so
// nothing is installed system-wide. Browser tests are left out: they test Chromium, not Node.
//
//   node scripts/test-node-versions.mjs            # Node 22 and 24
//   node scripts/test-node-versions.mjs 22         # only Node 22
//
// Not part of the CI command (scripts/test.mjs); run it before a release or after a dependency bump.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const versions = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['22', '24'];
const PATHS = ['packages/format', 'packages/serve', 'packages/cli'];
// Top-level describe blocks that drive Chromium (cli's build --trace and browser-oracle tests).
const BROWSER_SUITES = ['build --trace', 'tracePages in Chromium', 'browser oracle'];
const notBrowser = `^(?!(${BROWSER_SUITES.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}))`;

const vitest = join(root, 'node_modules/vitest/vitest.mjs');
if (!existsSync(vitest)) {
  process.stderr.write(`✗ ${vitest} not found: run \`npx -y pnpm@10.34.9 install\` first\n`);
  process.exit(1);
}

/** Path of the `node` binary of major `v`, fetched into the npx cache on first use. */
function nodeBinary(v) {
  const r = spawnSync('npx', ['-y', `node@${v}`, '-p', 'process.execPath'], { encoding: 'utf8', cwd: tmpdir() });
  const path = r.stdout.trim().split('\n').at(-1);
  if (r.status !== 0 || !path || !existsSync(path))
    throw new Error(`could not get node@${v} via npx: ${r.stderr.trim()}`);
  return path;
}

const rows = [];
for (const v of versions) {
  const started = Date.now();
  let node;
  try {
    node = nodeBinary(v);
  } catch (e) {
    rows.push({
      v,
      version: '?',
      passed: 0,
      failed: 0,
      skipped: 0,
      seconds: 0,
      status: 1,
      failures: [String(e.message)],
    });
    continue;
  }
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const dir = mkdtempSync(join(tmpdir(), 'objpack-node-versions-'));
  const report = join(dir, 'vitest.json');
  process.stdout.write(`\n$ ${version}: vitest run ${PATHS.join(' ')} (browser suites left out)\n`);
  // vitest's forks pool starts its workers with process.execPath, so every test file runs on `node`.
  const r = spawnSync(
    node,
    [vitest, 'run', ...PATHS, '-t', notBrowser, '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`],
    { cwd: root, stdio: 'inherit' },
  );
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures = [];
  try {
    const j = JSON.parse(readFileSync(report, 'utf8'));
    passed = j.numPassedTests;
    failed = j.numFailedTests;
    skipped = j.numPendingTests + j.numTodoTests;
    for (const file of j.testResults) {
      for (const t of file.assertionResults)
        if (t.status === 'failed') failures.push(`${file.name.slice(root.length)} › ${t.fullName}`);
      if (file.status === 'failed' && file.assertionResults.length === 0)
        failures.push(`${file.name.slice(root.length)}: ${file.message}`);
    }
  } catch {
    failures.push('no vitest report (the run crashed)');
  }
  rmSync(dir, { recursive: true, force: true });
  rows.push({
    v,
    version,
    passed,
    failed,
    skipped,
    seconds: Math.round((Date.now() - started) / 1000),
    status: r.status ?? 1,
    failures,
  });
}

process.stdout.write('\nNode      passed  failed  skipped*  time\n');
for (const row of rows) {
  const mark = row.status === 0 ? '✓' : '✗';
  process.stdout.write(
    `${mark} ` +
      (`${row.version.padEnd(9)}${String(row.passed).padStart(6)}${String(row.failed).padStart(8)}` +
        `${String(row.skipped).padStart(10)}`) +
      `  ${row.seconds} s\n`,
  );
  for (const f of row.failures) process.stdout.write(`    ✗ ${f}\n`);
}
process.stdout.write(`* includes the browser suites left out by name: ${BROWSER_SUITES.join(', ')}\n`);
process.exit(rows.every((r) => r.status === 0) ? 0 : 1);
