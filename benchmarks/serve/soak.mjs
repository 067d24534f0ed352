#!/usr/bin/env node
/**
 * A bounded soak of objpack serve: a SURGE-like site whose packages stream from disk (the memory budget is
 * smaller than they are), keep-alive load from wrk (page HTML, page packages by URL and negotiated, a
 * shared package, 404s, Range on packages; pipelined), clients that leave mid-response (HTTP/1.1 pipelined
 * and not) and wrk's own connections dropped mid-response at the end of every round. After each round the
 * server's descriptors (all, and package files), its heap after a full GC and its RSS are read; at the end
 * it must answer correctly (bytes compared with the files) and be back at its baseline.
 *
 *   flock /tmp/objpack-bench.lock node benchmarks/serve/soak.mjs                 # 500 pages, 3 × 20 s
 *   node benchmarks/serve/soak.mjs --rounds 2 --duration 5 --pages 200          # what `pnpm test:soak` runs
 *   node benchmarks/serve/soak.mjs --serve-module /tmp/old/packages/serve/dist/index.js   # another build
 *
 * Exit 1 when a descriptor stays open, the heap grew past `--heap-slack-mb` over its baseline, or an answer
 * was wrong. Writes benchmarks/results/serve-soak.json (`--out`).
 */
import { fork, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const REPO = join(HERE, '..', '..');
const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '64' },
    depth: { type: 'string', default: '6' },
    'memory-bytes': { type: 'string', default: String(4 << 20) },
    'serve-module': { type: 'string' },
    'heap-slack-mb': { type: 'string', default: '8' },
    out: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds);
const DURATION = Number(values.duration);
const OUT = values.out ?? join(REPO, 'benchmarks', 'results', 'serve-soak.json');
const WRK = [process.env.OBJPACK_WRK, '/usr/bin/wrk'].find((b) => b && existsSync(b));
const log = (m) => process.stderr.write(`${m}\n`);
if (!WRK) throw new Error('wrk not found: `node scripts/system-tools.mjs` installs it');
if (!values['serve-module']) {
  const tsc = spawnSync('npx', ['tsc', '-p', join(REPO, 'packages', 'serve', 'tsconfig.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) throw new Error('building packages/serve failed');
}

/** The site: SURGE pages built in place by the workspace's objpack (packages/cli/dist). */
async function makeSite(dir) {
  const { generateSurgeSite } = await import(join(REPO, 'fixtures', 'generators', 'index.mjs'));
  const { build } = await import(join(REPO, 'packages', 'cli', 'dist', 'build.js'));
  await generateSurgeSite({ pages: Number(values.pages), outDir: dir, seed: 'serve-soak' });
  const r = await build({ root: dir, cache: false, report: false });
  const pages = Object.entries(r.manifest.pages).map(([url, p]) => ({ url, pkg: p.package, file: p.file }));
  const shared = Object.keys(r.manifest.packages).filter((u) => r.manifest.packages[u].kind === 'shared');
  const packageBytes = Object.values(r.manifest.packages).reduce((n, p) => n + p.bytes, 0);
  return { pages, shared, packageBytes };
}

/** The server child (--expose-gc) and a way to sample it. */
async function startServer(root) {
  const options = { memoryBytes: Number(values['memory-bytes']) };
  const child = fork(
    join(HERE, 'soak-server.mjs'),
    [JSON.stringify({ root, options, serveModule: values['serve-module'] })],
    { execArgv: ['--expose-gc'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  const next = () =>
    new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
    });
  const { port } = await next();
  const fds = () => {
    const names = readdirSync(`/proc/${child.pid}/fd`);
    const files = names.filter((n) => {
      try {
        return readlinkSync(`/proc/${child.pid}/fd/${n}`).endsWith('.objp');
      } catch {
        return false;
      }
    });
    return { all: names.length, packages: files.length };
  };
  return {
    port,
    async sample() {
      child.send('sample');
      const m = await next();
      return { fds: fds(), heapMB: m.heapUsed / 2 ** 20, rssMB: m.rss / 2 ** 20, connections: m.stats.connections };
    },
    close: () =>
      new Promise((r) => {
        child.once('exit', r);
        child.send('close');
      }),
  };
}

/**
 * One wrk run of the mix (a child: the aborting clients run meanwhile); wrk drops its connections mid-response when it
 * stops.
 */
async function wrkRound(port, pathsFile, seconds) {
  const env = { ...process.env, SOAK_PATHS: pathsFile, SOAK_DEPTH: values.depth };
  const child = spawn(
    WRK,
    ['-t2', `-c${values.connections}`, `-d${seconds}s`, '-s', join(HERE, 'soak-mix.lua'), `http://127.0.0.1:${port}/`],
    { env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  await new Promise((r) => child.on('close', r));
  const num = (re) => Number(re.exec(out)?.[1] ?? 0);
  return {
    reqPerSec: num(/Requests\/sec:\s+([\d.]+)/),
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
    socketErrors: /Socket errors: (.*)/.exec(out)?.[1] ?? 'none',
  };
}

/**
 * Clients that leave mid-response while wrk runs: three requests for packages (one a Range) pipelined on
 * one connection, or one alone; the connection is cut at the first bytes or 0–4 ms after sending.
 */
function aborters(port, site, untilMs) {
  let count = 0;
  const one = (i) =>
    new Promise((resolve) => {
      const p = site.pages[(i * 31) % site.pages.length];
      const get = (extra = '') => `GET ${p.pkg} HTTP/1.1\r\nHost: soak\r\n${extra}\r\n`;
      const s = connect(port, '127.0.0.1', () => {
        s.write(i % 2 ? get() + get('Range: bytes=10-50000\r\n') + get() : get());
        if (i % 3 === 0) setTimeout(() => s.destroy(), i % 5);
      });
      s.once('data', () => s.destroy());
      s.on('error', () => undefined);
      s.on('close', () => {
        count++;
        resolve();
      });
    });
  return (async () => {
    for (let i = 0; Date.now() < untilMs; i++)
      await Promise.all([one(4 * i), one(4 * i + 1), one(4 * i + 2), one(4 * i + 3)]);
    return count;
  })();
}

/** The server still answers every kind of request with the right bytes. */
async function checkAnswers(port, root, site) {
  const get = (path, headers = {}) =>
    new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
  const problems = [];
  const expect = (what, ok) => {
    if (!ok) problems.push(what);
  };
  for (const p of site.pages.slice(0, 20)) {
    const pkg = readFileSync(join(root, decodeURIComponent(p.pkg.slice(1))));
    const html = await get(p.url);
    expect(`${p.url}: page`, html.status === 200 && html.body.equals(readFileSync(join(root, p.file))));
    const byUrl = await get(p.pkg);
    expect(`${p.pkg}: package`, byUrl.status === 200 && byUrl.body.equals(pkg));
    const negotiated = await get(p.url, { 'x-objpack': 'package' });
    expect(`${p.url}: negotiated package`, negotiated.status === 200 && negotiated.body.equals(pkg));
    const range = await get(p.pkg, { range: 'bytes=100-20000' });
    expect(`${p.pkg}: range`, range.status === 206 && range.body.equals(pkg.subarray(100, 20001)));
  }
  expect('404', (await get('/soak-missing')).status === 404);
  return problems;
}

const dir = mkdtempSync(join(tmpdir(), 'objpack-soak-'));
let server;
try {
  log(`soak: building a ${values.pages}-page site…`);
  const site = await makeSite(dir);
  const pathsFile = join(dir, '.soak-paths');
  writeFileSync(
    pathsFile,
    [...site.pages.map((p) => `page ${p.url} ${p.pkg}`), ...site.shared.map((u) => `shared ${u}`)].join('\n'),
  );
  server = await startServer(dir);
  log(
    `soak: ${site.pages.length} pages, packages ${(site.packageBytes / 2 ** 20).toFixed(1)} MiB, memory budget ` +
      `${(Number(values['memory-bytes']) / 2 ** 20).toFixed(1)} MiB`,
  );
  await wrkRound(server.port, pathsFile, 2); // warm-up: lazily made state exists before the baseline
  await new Promise((r) => setTimeout(r, 2000));
  const baseline = await server.sample();
  log(
    `baseline: ${baseline.fds.all} fds (${baseline.fds.packages} package files), heap ${baseline.heapMB.toFixed(1)} ` +
      `MB, RSS ${baseline.rssMB.toFixed(0)} MB`,
  );
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const load = loadavg()[0];
    const aborted = aborters(server.port, site, Date.now() + DURATION * 1000);
    const w = await wrkRound(server.port, pathsFile, DURATION);
    const abortedCount = await aborted;
    await new Promise((r) => setTimeout(r, 2000));
    const s = await server.sample();
    rounds.push({ round, ...w, aborted: abortedCount, ...s, loadavg1: load });
    log(
      `round ${round}: ${Math.round(w.reqPerSec)} req/s (wrk; non-2xx ${w.non2xx}, socket errors ${w.socketErrors}), ` +
        `${abortedCount} aborted clients; ` +
        (`then ${s.fds.all} fds (${s.fds.packages} package files), heap ${s.heapMB.toFixed(1)} MB, RSS ` +
          `${s.rssMB.toFixed(0)} MB (load ${load.toFixed(1)})`),
    );
  }
  const problems = await checkAnswers(server.port, dir, site);
  const last = rounds.at(-1);
  const leakedFds = last.fds.all - baseline.fds.all;
  const heapGrowthMB = last.heapMB - baseline.heapMB;
  const ok =
    last.fds.packages === 0 &&
    leakedFds <= 0 &&
    heapGrowthMB <= Number(values['heap-slack-mb']) &&
    problems.length === 0;
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    serveModule: values['serve-module'] ?? 'workspace',
    options: values,
    baseline,
    rounds,
    answers: problems.length === 0 ? 'correct' : problems,
    leakedFds,
    heapGrowthMB,
    ok,
  };
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  log(
    `${ok ? 'OK' : 'FAILED'}: descriptors ${baseline.fds.all} → ${last.fds.all} (package files ` +
      `${last.fds.packages}), heap ${baseline.heapMB.toFixed(1)} → ${last.heapMB.toFixed(1)} MB, ` +
      (`RSS ${baseline.rssMB.toFixed(0)} → ${last.rssMB.toFixed(0)} MB, answers ` +
        `${problems.length === 0 ? 'correct' : problems.join('; ')} (${OUT})`),
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
}
