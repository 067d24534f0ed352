#!/usr/bin/env node
/**
 * node benchmarks/run.mjs --quick|--full [experiment…]   (pnpm bench / pnpm bench:full)
 * Runs the paper experiments, writes results/<id>.json and results/plots/*.svg, and regenerates the
 * results section of benchmarks/README.md from every results/*.json present.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createContext } from './lib/context.mjs';
import { proxySelfTest } from './lib/proxy-check.mjs';
import { updateReadme, writeExperiment } from './lib/report.mjs';
import { TMP } from './lib/workspace.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const EXPERIMENTS = [
  '000-packaging',
  '001-busy-server',
  '002-surge',
  '003-prefetch-push',
  '004-persistent-mirrors',
];
const FILES = {
  '000-packaging': 'packaging-000.mjs',
  '001-busy-server': 'busy-server-001.mjs',
  '002-surge': 'surge-002.mjs',
  '003-prefetch-push': 'prefetch-push-003.mjs',
  '004-persistent-mirrors': 'persistent-mirrors-004.mjs',
};

const HELP = `Usage: node benchmarks/run.mjs [--quick | --full] [experiment…] [--json] [--results DIR] [--no-readme]

Experiments: ${EXPERIMENTS.join(', ')} (default: all; a prefix such as 000 is enough)
  --quick      small sizes, few runs (< 5 minutes; pnpm bench)
  --full       the papers' sizes (pnpm bench:full)
  --json       print the results as JSON on stdout
Examples:
  node benchmarks/run.mjs --quick
  node benchmarks/run.mjs --full 000 004
`;

/**
 * @param {string[]} argv
 * @param {{ resultsDir?: string, readme?: string, override?: Record<string, unknown>, log?: (m: string) => void, pin?:
 * boolean }} [opts]
 */
export async function main(argv, opts = {}) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      quick: { type: 'boolean' },
      full: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      results: { type: 'string' },
      'no-readme': { type: 'boolean' },
    },
  });
  const log = opts.log ?? ((/** @type {string} */ m) => process.stderr.write(`${m}\n`));
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const selected = positionals.length
    ? positionals.map((p) => EXPERIMENTS.find((e) => e === p || e.startsWith(p)))
    : EXPERIMENTS;
  if (selected.some((s) => !s)) {
    process.stderr.write(`unknown experiment in: ${positionals.join(' ')}\n\n${HELP}`);
    return 2;
  }
  const quick = !values.full;
  const resultsDir = opts.resultsDir ?? values.results ?? join(HERE, 'results');
  const summary = [];
  let failed = 0;
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  const machine = `${cpus().length}× ${cpus()[0]?.model.trim() ?? 'cpu'}, Node ${process.version}`;
  const outputs = [];
  // The delay proxy's self-test, once per run: every section says how faithful its RTTs were.
  const proxyCheck = await proxySelfTest({ rtts: quick ? [20] : [20, 100] });
  const checkText = (/** @type {(typeof proxyCheck)[number]} */ c) =>
    `RTT ${c.rttMs} ms → ping-pong median ${c.medianMs.toFixed(1)} ms (min ${c.minMs.toFixed(1)}, ` +
    `first with handshake ${c.connectMs.toFixed(1)}): ${c.verdict}`;
  const proxyNote = `Delay proxy self-test at the start of this run: ${proxyCheck.map(checkText).join('; ')}.`;
  log(proxyNote);
  await mkdir(resultsDir, { recursive: true });
  await writeFile(
    join(resultsDir, 'proxy-self-test.json'),
    `${JSON.stringify({ date, machine, checks: proxyCheck }, null, 1)}\n`,
  );
  if (proxyCheck.some((c) => c.verdict === 'FAILED')) {
    failed++;
    summary.push({ experiment: 'delay proxy self-test', status: 'FAILED: faster than the configured RTT', seconds: 0 });
  }
  for (const id of /** @type {string[]} */ (selected)) {
    const t0 = Date.now();
    const loadStart = loadavg()[0] ?? NaN;
    log(`▶ ${id} (${quick ? 'quick' : 'full'})`);
    try {
      const mod = await import(
        pathToFileURL(join(HERE, 'experiments', /** @type {Record<string,string>} */ (FILES)[id])).href
      );
      const ctx = await createContext({ quick, name: id, log, pin: opts.pin ?? true });
      const r = await mod.run(ctx, opts.override?.[id] ?? {});
      r.notes = [...ctx.notes, ...(r.notes ?? []), proxyNote];
      const ms = Date.now() - t0;
      // Other jobs share these machines: the load average tells a reader how noisy the run was.
      const load = `load average ${loadStart.toFixed(1)} → ${loadavg()[0]?.toFixed(1)}`;
      const markdown = await writeExperiment(resultsDir, r, {
        mode: quick ? 'quick' : 'full',
        date,
        machine: `${machine}, ${load}`,
        ms,
      });
      await writeExperimentMarkdown(resultsDir, id, markdown);
      outputs.push(r);
      summary.push({ experiment: id, status: 'ok', seconds: Math.round(ms / 1000) });
      await rm(join(TMP, id), { recursive: true, force: true });
    } catch (err) {
      failed++;
      summary.push({
        experiment: id,
        status: `FAILED: ${err instanceof Error ? err.message : String(err)}`,
        seconds: Math.round((Date.now() - t0) / 1000),
      });
      log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    }
  }
  if (!values['no-readme']) await updateReadme(opts.readme ?? join(HERE, 'README.md'), await allMarkdown(resultsDir));
  log('\nexperiment                 status   seconds');
  for (const s of summary) log(`${s.experiment.padEnd(26)} ${s.status.padEnd(8)} ${s.seconds}`);
  if (values.json) process.stdout.write(`${JSON.stringify(outputs)}\n`);
  return failed ? 1 : 0;
}

/** @param {string} dir @param {string} id @param {string} md */
async function writeExperimentMarkdown(dir, id, md) {
  await writeFile(join(dir, `${id}.md`), `${md}\n`);
}

/** Every experiment's latest section, in experiment order. @param {string} dir */
async function allMarkdown(dir) {
  const names = new Set(await readdir(dir).catch(() => []));
  const parts = [];
  for (const id of EXPERIMENTS) if (names.has(`${id}.md`)) parts.push(await readFile(join(dir, `${id}.md`), 'utf8'));
  return parts.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`${err?.stack ?? err}\n`);
      process.exitCode = 1;
    },
  );
}
