#!/usr/bin/env node
/**
 * objpack serve against sirv (production mode) and nginx on loopback. Every server runs in its own process
 * pinned to core 0 (taskset); the load generator (wrk, or autocannon in this process) is pinned to core 1.
 * All servers of a section start together and the rounds interleave them (rotating the order), so drift
 * on a shared machine hits every server alike; every run also records the server's CPU time (user and
 * system, from /proc) and the client's, so a run where the client — not the server — was the bottleneck
 * is flagged instead of trusted.
 *
 *   node benchmarks/serve/bench.mjs                          # 5 s runs, 5 rounds (≈ 6 minutes)
 *   node benchmarks/serve/bench.mjs --quick                  # 2 s runs, 2 rounds
 *   node benchmarks/serve/bench.mjs --only package --rounds 7 --nice=-10 --out /tmp/x.json
 *
 * `--nice=N` (root only; e.g. `--nice=-10`) runs servers and clients at that priority, which keeps other work on a
 * shared machine from stealing their cores mid-run; both peers get the same treatment. Measurements belong under
 * the shared lock: `flock /tmp/objpack-bench.lock node benchmarks/serve/bench.mjs`.
 * Writes benchmarks/results/serve-bench.json. Builds packages/serve first (the server child imports dist/).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { nginxBinary, startNginx } from '../lib/nginx.mjs';
import { cpuMs, parseWrk } from './readings.mjs';
import { PACKAGE_PATH, writeSite } from './site.mjs';
import { fmt, pairedRatio, rotate, summarize } from './stats.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const REPO = join(HERE, '..', '..');
const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean' },
    duration: { type: 'string' },
    rounds: { type: 'string' },
    out: { type: 'string' },
    nice: { type: 'string' },
  },
});
const DURATION = Number(values.duration ?? (values.quick ? 2 : 5));
const ROUNDS = Number(values.rounds ?? (values.quick ? 2 : 5));
const OUT = values.out ?? join(REPO, 'benchmarks', 'results', 'serve-bench.json');
const NICE = values.nice !== undefined && process.getuid?.() === 0 ? Number(values.nice) : 0;
const SERVER_CPU = 0;
const CLIENT_CPU = 1;
/** A client busier than this was (nearly) the bottleneck: its run says little about the server. */
const CLIENT_BOUND_PCT = 90;
const log = (m) => process.stderr.write(`${m}\n`);
const want = (part) => !values.only || values.only.split(',').includes(part);

const tsc = spawnSync('npx', ['tsc', '-p', join(REPO, 'packages', 'serve', 'tsconfig.json')], { stdio: 'inherit' });
if (tsc.status !== 0) throw new Error('building packages/serve failed');
const pinned = existsSync('/usr/bin/taskset') && cpus().length >= 2;
if (pinned) spawnSync('taskset', ['-p', '-c', String(CLIENT_CPU), String(process.pid)], { stdio: 'ignore' });
if (NICE) spawnSync('renice', ['-n', String(NICE), '-p', String(process.pid)], { stdio: 'ignore' });
const WRK = [process.env.OBJPACK_WRK, '/usr/bin/wrk'].find((b) => b && existsSync(b));
const NGINX = nginxBinary();
if (!WRK)
  log(
    '!! wrk not found: wrk runs (packages, dynamic, small files) are skipped — `node ' +
      'scripts/system-tools.mjs` installs it',
  );
if (!NGINX) log('!! nginx not found: nginx runs are skipped — `node scripts/system-tools.mjs` installs it');

/** Prefix that pins a command to `cpu` (and applies --nice). */
const onCore = (cpu, argv) => [
  ...(NICE ? ['nice', '-n', String(NICE)] : []),
  ...(pinned ? ['taskset', '-c', String(cpu)] : []),
  ...argv,
];

/** Starts a Node server child (objpack or sirv) pinned to the server core. */
async function startNode(kind, root, options = {}) {
  const [cmd, ...args] = onCore(SERVER_CPU, [
    process.execPath,
    join(HERE, 'server-process.mjs'),
    JSON.stringify({ kind, root, options }),
  ]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  let waiter;
  let buf = '';
  child.stdout.on('data', (c) => {
    buf += c;
    for (let i = buf.indexOf('\n'); i !== -1; i = buf.indexOf('\n')) {
      lines.push(JSON.parse(buf.slice(0, i)));
      buf = buf.slice(i + 1);
      waiter?.();
    }
  });
  const next = () =>
    new Promise((r) => {
      if (lines.length) r(lines.shift());
      else
        waiter = () => {
          waiter = undefined;
          r(lines.shift());
        };
    });
  const { port } = await next();
  return {
    kind,
    port,
    pid: child.pid,
    async stop() {
      const statsLine = next();
      child.kill('SIGTERM');
      return (await statsLine).stats;
    },
  };
}

async function startAny(kind, root, options) {
  if (kind === 'nginx') {
    const dir = mkdtempSync(join(tmpdir(), 'objpack-bench-nginx-'));
    const n = await startNginx({ root, dir, cpu: SERVER_CPU, nice: NICE, throughput: true });
    return {
      kind,
      port: n.port,
      pid: n.pid,
      async stop() {
        await n.close();
        rmSync(dir, { recursive: true, force: true });
        return null;
      },
    };
  }
  return startNode(kind, root, options);
}

/** autocannon (one Node thread, in this process), keep-alive, cycling through the small files. */
async function autocannonRun(port, paths, duration = DURATION) {
  const before = process.cpuUsage();
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 32,
    duration,
    pipelining: 1,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
  const used = process.cpuUsage(before);
  return {
    reqPerSec: r.requests.average,
    mbPerSec: r.throughput.average / 1e6,
    p50ms: r.latency.p50,
    p99ms: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    clientCpuPct: (used.user + used.system) / 1e4 / duration,
  };
}

/**
 * wrk (one thread) on one URL. Run through `sh` so the shell's cutime/cstime hold wrk's CPU time once it
 * has been waited for: that is the client-bottleneck check.
 */
function wrkRun(port, path, { headers = {}, script, conns = 8, duration = DURATION } = {}) {
  const hs = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const args = [
    '-t1',
    `-c${conns}`,
    `-d${duration}s`,
    '--latency',
    ...hs,
    ...(script ? ['-s', script] : []),
    `http://127.0.0.1:${port}${path}`,
  ];
  const r = spawnSync(
    'sh',
    ['-c', '"$@"; read -r s < /proc/$$/stat; echo "SHSTAT $s"', 'sh', ...onCore(CLIENT_CPU, [WRK, ...args])],
    { encoding: 'utf8' },
  );
  return parseWrk(r.stdout, duration);
}

/** Runs `fn` and adds the server's CPU per request (user, system, total µs) and how busy its core was. */
async function measured(server, fn, duration = DURATION) {
  const before = cpuMs(server.pid);
  const load = loadavg()[0];
  const r = await fn();
  const after = cpuMs(server.pid);
  const requests = r.reqPerSec * duration;
  const per = (ms) => (requests > 0 ? (ms * 1000) / requests : NaN);
  const user = after[0] - before[0];
  const sys = after[1] - before[1];
  return {
    ...r,
    serverCpuUsPerRequest: per(user + sys),
    serverUserUsPerRequest: per(user),
    serverSysUsPerRequest: per(sys),
    serverCpuPct: (user + sys) / 10 / duration,
    clientBound: r.clientCpuPct >= CLIENT_BOUND_PCT,
    loadavg1: load,
  };
}

async function smallFilesSection(root, paths, results) {
  const kinds = ['objpack', 'sirv', ...(NGINX ? ['nginx'] : [])];
  const servers = [];
  for (const k of kinds) servers.push(await startAny(k, root, {}));
  const ac = Object.fromEntries(kinds.map((k) => [k, []]));
  const wk = Object.fromEntries(kinds.map((k) => [k, []]));
  try {
    for (const s of servers) {
      await autocannonRun(s.port, paths, 1);
      if (WRK) wrkRun(s.port, '/', { script: join(HERE, 'small-files.lua'), conns: 32, duration: 1 });
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of rotate(servers, round)) {
        const a = await measured(s, () => autocannonRun(s.port, paths));
        ac[s.kind].push(a);
        let line =
          `small files  ${s.kind.padEnd(8)} round ${round + 1}: autocannon ${Math.round(a.reqPerSec)} req/s ` +
          `(client ${a.clientCpuPct.toFixed(0)} %)`;
        if (WRK) {
          // autocannon is one Node thread and often the bottleneck; wrk (C) shows the servers' own ceiling.
          const w = await measured(s, () => wrkRun(s.port, '/', { script: join(HERE, 'small-files.lua'), conns: 32 }));
          wk[s.kind].push(w);
          line +=
            `, wrk ${Math.round(w.reqPerSec)} req/s, ${w.serverCpuUsPerRequest.toFixed(1)} µs CPU/req (server ` +
            `core ${w.serverCpuPct.toFixed(0)} %, client ${w.clientCpuPct.toFixed(0)} %)`;
        }
        log(line);
      }
    }
  } finally {
    for (const s of servers) await s.stop();
  }
  results.smallFiles = { autocannon: {}, wrk: {} };
  for (const k of kinds) {
    results.smallFiles.autocannon[k] = summarize(ac[k]);
    if (WRK) results.smallFiles.wrk[k] = summarize(wk[k]);
  }
  for (const [tool, runs] of [['autocannon', ac], ...(WRK ? [['wrk', wk]] : [])]) {
    const t = results.smallFiles[tool];
    t.ratioVsSirv = pairedRatio(runs.objpack, runs.sirv);
    t.cpuRatioSirvOverObjpack = pairedRatio(runs.sirv, runs.objpack, 'serverCpuUsPerRequest');
    if (NGINX) t.ratioVsNginx = pairedRatio(runs.objpack, runs.nginx);
  }
}

async function packageSection(root, results) {
  const o = await startAny('objpack', root, {});
  const n = NGINX ? await startAny('nginx', root) : null;
  const floor = await startAny('node-floor', root, { path: PACKAGE_PATH });
  const cells = [
    ['objpack', o, PACKAGE_PATH, {}],
    ['objpackNegotiated', o, '/', { 'X-Objpack': 'package' }],
    ...(n ? [['nginx', n, PACKAGE_PATH, {}]] : []),
    ['nodeFloor', floor, PACKAGE_PATH, {}],
  ];
  const runs = Object.fromEntries(cells.map(([k]) => [k, []]));
  try {
    for (const [, s, path, headers] of cells) wrkRun(s.port, path, { headers, duration: 1 }); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const [k, s, path, headers] of rotate(cells, round)) {
        const r = await measured(s, () => wrkRun(s.port, path, { headers }));
        runs[k].push(r);
        log(
          `package      ${k.padEnd(18)} round ${round + 1}: ${Math.round(r.reqPerSec)} req/s ` +
            `(${Math.round(r.mbPerSec)} MB/s), CPU/req ${r.serverCpuUsPerRequest.toFixed(0)} µs (user ` +
            `${r.serverUserUsPerRequest.toFixed(0)}, sys ${r.serverSysUsPerRequest.toFixed(0)}), server core ` +
            `${r.serverCpuPct.toFixed(0)} %, client ${r.clientCpuPct.toFixed(0)} ` +
            `%${r.non2xx ? `, non2xx ${r.non2xx}` : ''}`,
        );
      }
    }
  } finally {
    await o.stop();
    await n?.stop();
    await floor.stop();
  }
  for (const [k, v] of Object.entries(runs)) results.package[k] = summarize(v);
  if (n) {
    results.package.ratioVsNginx = pairedRatio(runs.objpack, runs.nginx);
    results.package.negotiatedRatioVsNginx = pairedRatio(runs.objpackNegotiated, runs.nginx);
    results.package.cpuPerRequestObjpackOverNginx = pairedRatio(runs.objpack, runs.nginx, 'serverCpuUsPerRequest');
  }
  results.package.cpuPerRequestObjpackOverNodeFloor = pairedRatio(
    runs.objpack,
    runs.nodeFloor,
    'serverCpuUsPerRequest',
  );
}

async function dynamicSection(root, site, results) {
  const half = site.digests.filter((_, i) => i % 2 === 0).join(',');
  const cached = await startAny('objpack', root, {});
  const uncached = await startAny('objpack', root, { cacheBytes: 0 });
  const cells = [
    ['prebuilt', cached, {}],
    ['delta50Cached', cached, { 'X-Objpack-Have': half }],
    ['delta50Uncached', uncached, { 'X-Objpack-Have': half }],
    ['fullDynamicUncached', uncached, { 'X-Objpack-Have': 'AAAAAAAA' }],
  ];
  const runs = Object.fromEntries(cells.map(([k]) => [k, []]));
  let stats;
  try {
    for (const [, s, headers] of cells) wrkRun(s.port, PACKAGE_PATH, { headers, duration: 1 });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [k, s, headers] of rotate(cells, round)) {
        const r = await measured(s, () => wrkRun(s.port, PACKAGE_PATH, { headers }));
        runs[k].push(r);
        log(
          `dynamic      ${k.padEnd(20)} round ${round + 1}: ${Math.round(r.reqPerSec)} req/s, CPU/req ` +
            `${r.serverCpuUsPerRequest.toFixed(0)} µs, client ${r.clientCpuPct.toFixed(0)} %`,
        );
      }
    }
  } finally {
    stats = { cached: (await cached.stop())?.packages, uncached: (await uncached.stop())?.packages };
  }
  for (const [k, v] of Object.entries(runs)) {
    results.dynamic[k] = {
      ...summarize(v),
      cpuCostVsPrebuilt: pairedRatio(v, runs.prebuilt, 'serverCpuUsPerRequest'),
      throughputVsPrebuilt: pairedRatio(v, runs.prebuilt),
    };
  }
  results.dynamic.serverPackageCounters = stats;
}

async function main() {
  const base = mkdtempSync(join(tmpdir(), 'objpack-bench-serve-'));
  const root = join(base, 'site');
  const site = writeSite(root);
  const results = {
    date: new Date().toISOString(),
    machine: `${cpus().length}× ${cpus()[0]?.model.trim()}`,
    node: process.version,
    command: `node benchmarks/serve/bench.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    pinned,
    nice: NICE,
    durationSec: DURATION,
    rounds: ROUNDS,
    clientBoundPct: CLIENT_BOUND_PCT,
    loadavgAtStart: loadavg(),
    site: { files: site.paths.length, fileBytes: 4096, packageBytes: site.packageBytes },
    smallFiles: {},
    package: {},
    dynamic: {},
  };
  try {
    if (want('small')) await smallFilesSection(root, site.paths, results);
    if (WRK && want('package')) await packageSection(root, results);
    if (WRK && want('dynamic')) await dynamicSection(root, site, results);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  results.loadavgAtEnd = loadavg();
  writeFileSync(OUT, `${JSON.stringify(results, null, 1)}\n`);
  log(`\nwrote ${OUT}   (median [min–max] over ${ROUNDS} interleaved rounds of ${DURATION} s)`);
  for (const tool of ['autocannon', 'wrk']) {
    const t = results.smallFiles[tool];
    if (!t?.objpack) continue;
    log(
      `small files (${tool}): req/s objpack ${fmt(t.objpack.reqPerSec)}, sirv ${fmt(t.sirv.reqPerSec)}, nginx ` +
        `${fmt(t.nginx?.reqPerSec)}; objpack÷sirv ${fmt(t.ratioVsSirv, 2)}, objpack÷nginx ` +
        `${fmt(t.ratioVsNginx, 2)}; CPU µs/req objpack ${fmt(t.objpack.serverCpuUsPerRequest, 1)}, sirv ` +
        `${fmt(t.sirv.serverCpuUsPerRequest, 1)}, nginx ${fmt(t.nginx?.serverCpuUsPerRequest, 1)}; client-bound ` +
        `runs ${t.objpack.clientBoundRuns}/${t.sirv.clientBoundRuns}/${t.nginx?.clientBoundRuns ?? '–'}`,
    );
  }
  const pk = results.package;
  if (pk.objpack)
    log(
      `package: req/s objpack ${fmt(pk.objpack.reqPerSec)}, negotiated ${fmt(pk.objpackNegotiated.reqPerSec)}, nginx ` +
        `${fmt(pk.nginx?.reqPerSec)}; objpack÷nginx ${fmt(pk.ratioVsNginx, 2)}; CPU µs/req objpack ` +
        `${fmt(pk.objpack.serverCpuUsPerRequest)}, nginx ${fmt(pk.nginx?.serverCpuUsPerRequest)}; client-bound ` +
        `runs ${pk.objpack.clientBoundRuns}/${pk.nginx?.clientBoundRuns ?? '–'}`,
    );
  for (const [k, v] of Object.entries(results.dynamic))
    if (v.reqPerSec)
      log(
        `dynamic ${k}: ${fmt(v.reqPerSec)} req/s, ${fmt(v.serverCpuUsPerRequest)} µs CPU/req, ` +
          `×${fmt(v.cpuCostVsPrebuilt, 2)} CPU vs prebuilt`,
      );
}

await main();
