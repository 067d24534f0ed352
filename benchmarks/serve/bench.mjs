#!/usr/bin/env node
/**
 * objpack serve against sirv (production mode) and nginx on loopback. Servers run in their own process
 * pinned to core 0 (taskset); the load generator (autocannon in this process, or wrk) is pinned to core 1.
 *
 *   node benchmarks/serve/bench.mjs            # 10 s per run, 3 rounds (≈ 4 minutes)
 *   node benchmarks/serve/bench.mjs --quick    # 4 s per run, 1 round
 *   node benchmarks/serve/bench.mjs --only package,dynamic --out /tmp/x.json
 *
 * Writes benchmarks/results/serve-bench.json. Needs packages/serve built (this script runs its tsc).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { nginxBinary, startNginx } from './nginx.mjs';
import { PACKAGE_PATH, writeSite } from './site.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const REPO = join(HERE, '..', '..');
const { values } = parseArgs({ options: { only: { type: 'string' }, quick: { type: 'boolean' }, duration: { type: 'string' }, rounds: { type: 'string' }, out: { type: 'string' } } });
const DURATION = Number(values.duration ?? (values.quick ? 4 : 10));
const ROUNDS = Number(values.rounds ?? (values.quick ? 1 : 3));
const OUT = values.out ?? join(REPO, 'benchmarks', 'results', 'serve-bench.json');
const SERVER_CPU = 0;
const CLIENT_CPU = 1;
const log = (m) => process.stderr.write(`${m}\n`);

const tsc = spawnSync('npx', ['tsc', '-p', join(REPO, 'packages', 'serve', 'tsconfig.json')], { stdio: 'inherit' });
if (tsc.status !== 0) throw new Error('building packages/serve failed');
const pinned = existsSync('/usr/bin/taskset') && cpus().length >= 2;
if (pinned) spawnSync('taskset', ['-p', '-c', String(CLIENT_CPU), String(process.pid)], { stdio: 'ignore' });
const WRK = [process.env.OBJPACK_WRK, '/usr/bin/wrk'].find((b) => b && existsSync(b));
const NGINX = nginxBinary();
if (!WRK) log('!! wrk not found: package runs are skipped (node scripts/system-tools.mjs installs it)');
if (!NGINX) log('!! nginx not found: nginx runs are skipped (node scripts/system-tools.mjs installs it)');

const freePort = () => new Promise((resolve) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });

/** Starts a Node server child (objpack or sirv) pinned to the server core. */
async function startNode(kind, root, options = {}) {
  const args = [join(HERE, 'server-process.mjs'), JSON.stringify({ kind, root, options })];
  const child = pinned ? spawn('taskset', ['-c', String(SERVER_CPU), process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  let waiter;
  let buf = '';
  child.stdout.on('data', (c) => {
    buf += c;
    for (let i = buf.indexOf('\n'); i !== -1; i = buf.indexOf('\n')) { lines.push(JSON.parse(buf.slice(0, i))); buf = buf.slice(i + 1); waiter?.(); }
  });
  const next = () => new Promise((r) => { if (lines.length) r(lines.shift()); else waiter = () => { waiter = undefined; r(lines.shift()); }; });
  const { port } = await next();
  return {
    port,
    pid: child.pid,
    async stop() { const statsLine = next(); child.kill('SIGTERM'); return (await statsLine).stats; },
  };
}

async function startAny(kind, root, options) {
  if (kind === 'nginx') {
    const dir = mkdtempSync(join(tmpdir(), 'objpack-bench-nginx-'));
    const n = await startNginx({ root, dir, port: await freePort(), cpu: SERVER_CPU });
    return { port: n.port, pid: n.pid, async stop() { await n.stop(); rmSync(dir, { recursive: true, force: true }); return null; } };
  }
  return startNode(kind, root, options);
}

/** autocannon, keep-alive, cycling through the small files. */
async function smallFiles(port, paths, duration = DURATION) {
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`, connections: 32, duration, pipelining: 1,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
  return { reqPerSec: r.requests.average, mbPerSec: r.throughput.average / 1e6, p50ms: r.latency.p50, p99ms: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

/** wrk on one URL; returns req/s and MB/s of response bytes. */
function wrk(port, path, headers = {}, script) {
  const hs = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const args = ['-t1', `-c${script ? 32 : 8}`, `-d${DURATION}s`, '--latency', ...hs, ...(script ? ['-s', script] : []), `http://127.0.0.1:${port}${path}`];
  const r = pinned ? spawnSync('taskset', ['-c', String(CLIENT_CPU), WRK, ...args], { encoding: 'utf8' }) : spawnSync(WRK, args, { encoding: 'utf8' });
  const out = r.stdout;
  const num = (re) => Number(re.exec(out)?.[1] ?? NaN);
  const unit = (re) => { const m = re.exec(out); if (!m) return NaN; return Number(m[1]) * ({ KB: 1e-3, MB: 1, GB: 1e3 }[m[2]] ?? 1e-6); };
  const non2xx = num(/Non-2xx or 3xx responses: (\d+)/);
  return { reqPerSec: num(/Requests\/sec:\s+([\d.]+)/), mbPerSec: unit(/Transfer\/sec:\s+([\d.]+)(KB|MB|GB|B)/), p50ms: unit(/50%\s+([\d.]+)(us|ms|s)/) , non2xx: Number.isNaN(non2xx) ? 0 : non2xx, raw: out.trim().split('\n').slice(-3).join(' | ') };
}

/** CPU time (user + system, ms) of a process and its direct children (nginx: master + worker). */
function cpuMs(pid) {
  const one = (p) => {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms (USER_HZ 100)
    } catch { return 0; }
  };
  let kids = [];
  try { kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean); } catch { /* gone */ }
  return one(pid) + kids.reduce((s, k) => s + one(k), 0);
}

/** Runs `fn` and adds the server's CPU µs per request (robust where wall-clock rates are noisy). */
async function measured(server, fn) {
  const before = cpuMs(server.pid);
  const r = await fn();
  const requests = r.reqPerSec * DURATION;
  return { ...r, serverCpuUsPerRequest: requests > 0 ? ((cpuMs(server.pid) - before) * 1000) / requests : NaN };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

async function main() {
  const base = mkdtempSync(join(tmpdir(), 'objpack-bench-serve-'));
  const root = join(base, 'site');
  const site = writeSite(root);
  const results = {
    date: new Date().toISOString(), machine: `${cpus().length}× ${cpus()[0]?.model.trim()}`, node: process.version,
    pinned, durationSec: DURATION, rounds: ROUNDS, site: { files: site.paths.length, fileBytes: 4096, packageBytes: site.packageBytes },
    smallFiles: {}, package: {}, dynamic: {},
  };
  try {
    // 1. Small files, autocannon keep-alive. Rounds interleave the servers so drift hits all alike.
    const want = (part) => !values.only || values.only.split(',').includes(part);
    const kinds = want('small') ? ['objpack', 'sirv', ...(NGINX ? ['nginx'] : [])] : [];
    const runs = Object.fromEntries(kinds.map((k) => [k, []]));
    const wrkRuns = Object.fromEntries(kinds.map((k) => [k, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of kinds) {
        const s = await startAny(kind, root, {});
        await smallFiles(s.port, site.paths, 2); // warm-up (JIT, caches), not recorded
        const r = await measured(s, () => smallFiles(s.port, site.paths));
        runs[kind].push(r);
        log(`small files  ${kind.padEnd(8)} round ${round + 1}: ${Math.round(r.reqPerSec)} req/s (p99 ${r.p99ms} ms, errors ${r.errors}, non2xx ${r.non2xx}), ${r.serverCpuUsPerRequest.toFixed(1)} µs CPU/req`);
        if (WRK) {
          // autocannon is one Node thread and often the bottleneck; wrk (C) shows the servers' own ceiling.
          const w = await measured(s, () => wrk(s.port, '/', {}, join(HERE, 'small-files.lua')));
          wrkRuns[kind].push(w);
          log(`small files  ${kind.padEnd(8)} round ${round + 1} (wrk): ${Math.round(w.reqPerSec)} req/s, ${w.serverCpuUsPerRequest.toFixed(1)} µs CPU/req`);
        }
        await s.stop();
      }
    }
    for (const k of kinds) results.smallFiles[k] = { medianReqPerSec: median(runs[k].map((r) => r.reqPerSec)), medianServerCpuUsPerRequest: median(runs[k].map((r) => r.serverCpuUsPerRequest)), runs: runs[k] };
    if (WRK && kinds.length) {
      results.smallFilesWrk = Object.fromEntries(kinds.map((k) => [k, { medianReqPerSec: median(wrkRuns[k].map((r) => r.reqPerSec)), medianServerCpuUsPerRequest: median(wrkRuns[k].map((r) => r.serverCpuUsPerRequest)), runs: wrkRuns[k] }]));
      results.smallFilesWrk.ratioVsSirv = results.smallFilesWrk.objpack.medianReqPerSec / results.smallFilesWrk.sirv.medianReqPerSec;
      if (NGINX) results.smallFilesWrk.ratioVsNginx = results.smallFilesWrk.objpack.medianReqPerSec / results.smallFilesWrk.nginx.medianReqPerSec;
    }
    // Paired per-round ratios: each round's servers ran back to back, so machine drift cancels better.
    const paired = (a, b) => median(runs[a].map((r, i) => r.reqPerSec / runs[b][i].reqPerSec));
    if (kinds.length) results.smallFiles.pairedRatioVsSirv = paired('objpack', 'sirv');
    if (NGINX && kinds.length) results.smallFiles.pairedRatioVsNginx = paired('objpack', 'nginx');
    if (kinds.length) results.smallFiles.ratioVsSirv = results.smallFiles.objpack.medianReqPerSec / results.smallFiles.sirv.medianReqPerSec;
    if (NGINX && kinds.length) results.smallFiles.ratioVsNginx = results.smallFiles.objpack.medianReqPerSec / results.smallFiles.nginx.medianReqPerSec;

    if (WRK) {
      // 2. One 100 × 4 KB package: objpack (file URL and negotiated page URL) vs nginx (file).
      const pk = { objpack: [], objpackNegotiated: [], nginx: [] };
      for (let round = 0; round < ROUNDS && want('package'); round++) {
        const o = await startAny('objpack', root, {});
        pk.objpack.push(await measured(o, () => wrk(o.port, PACKAGE_PATH)));
        pk.objpackNegotiated.push(await measured(o, () => wrk(o.port, '/', { 'X-Objpack': 'package' })));
        await o.stop();
        if (NGINX) {
          const n = await startAny('nginx', root);
          pk.nginx.push(await measured(n, () => wrk(n.port, PACKAGE_PATH)));
          await n.stop();
        }
        log(`package      round ${round + 1}: objpack ${Math.round(pk.objpack.at(-1).reqPerSec)} req/s (${Math.round(pk.objpack.at(-1).mbPerSec)} MB/s), negotiated ${Math.round(pk.objpackNegotiated.at(-1).reqPerSec)}, nginx ${Math.round(pk.nginx.at(-1)?.reqPerSec ?? NaN)}`);
      }
      for (const [k, v] of Object.entries(pk)) if (v.length) results.package[k] = { medianReqPerSec: median(v.map((r) => r.reqPerSec)), medianMBPerSec: median(v.map((r) => r.mbPerSec)), medianServerCpuUsPerRequest: median(v.map((r) => r.serverCpuUsPerRequest)), runs: v };
      if (pk.nginx.length) results.package.pairedRatioVsNginx = median(pk.objpack.map((r, i) => r.reqPerSec / pk.nginx[i].reqPerSec));
      if (pk.nginx.length) results.package.cpuRatioVsNginx = results.package.nginx.medianServerCpuUsPerRequest / results.package.objpack.medianServerCpuUsPerRequest;
      if (NGINX && pk.nginx.length) results.package.ratioVsNginx = results.package.objpack.medianReqPerSec / results.package.nginx.medianReqPerSec;

      // 3. Dynamic and delta packages against the prebuilt one (objpack only).
      const half = site.digests.filter((_, i) => i % 2 === 0).join(',');
      const cases = [
        ['prebuilt', {}, {}],
        ['delta50Cached', {}, { 'X-Objpack-Have': half }],
        ['delta50Uncached', { cacheBytes: 0 }, { 'X-Objpack-Have': half }],
        ['fullDynamicUncached', { cacheBytes: 0 }, { 'X-Objpack-Have': 'AAAAAAAA' }],
      ];
      for (const [name, options, headers] of want('dynamic') ? cases : []) {
        const o = await startAny('objpack', root, options);
        const v = [];
        for (let round = 0; round < ROUNDS; round++) v.push(await measured(o, () => wrk(o.port, PACKAGE_PATH, headers)));
        const stats = await o.stop();
        results.dynamic[name] = { medianReqPerSec: median(v.map((r) => r.reqPerSec)), medianMBPerSec: median(v.map((r) => r.mbPerSec)), medianServerCpuUsPerRequest: median(v.map((r) => r.serverCpuUsPerRequest)), msPerRequest: 1000 / median(v.map((r) => r.reqPerSec)), packages: stats?.packages, runs: v };
        log(`dynamic      ${name.padEnd(20)} ${Math.round(results.dynamic[name].medianReqPerSec)} req/s, assembled ${stats?.packages?.assembled}`);
      }
      if (results.dynamic.prebuilt) {
        for (const k of Object.keys(results.dynamic)) {
          results.dynamic[k].costVsPrebuilt = results.dynamic.prebuilt.medianReqPerSec / results.dynamic[k].medianReqPerSec;
          results.dynamic[k].cpuCostVsPrebuilt = results.dynamic[k].medianServerCpuUsPerRequest / results.dynamic.prebuilt.medianServerCpuUsPerRequest;
        }
      }
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  writeFileSync(OUT, `${JSON.stringify(results, null, 1)}\n`);
  log(`\nwrote ${OUT}`);
  const f = (x) => (x === undefined ? '–' : x.toFixed(2));
  const sf = results.smallFiles;
  if (sf.objpack) log(`small files req/s: objpack/sirv ${f(sf.ratioVsSirv)}× (paired ${f(sf.pairedRatioVsSirv)}×), objpack/nginx ${f(sf.ratioVsNginx)}× (paired ${f(sf.pairedRatioVsNginx)}×); server CPU µs/req objpack ${f(sf.objpack.medianServerCpuUsPerRequest)}, sirv ${f(sf.sirv.medianServerCpuUsPerRequest)}, nginx ${f(sf.nginx?.medianServerCpuUsPerRequest)}`);
  const sw = results.smallFilesWrk;
  if (sw) log(`small files req/s (wrk): objpack/sirv ${f(sw.ratioVsSirv)}×, objpack/nginx ${f(sw.ratioVsNginx)}×; server CPU µs/req objpack ${f(sw.objpack.medianServerCpuUsPerRequest)}, sirv ${f(sw.sirv.medianServerCpuUsPerRequest)}, nginx ${f(sw.nginx?.medianServerCpuUsPerRequest)}`);
  const pk = results.package;
  if (pk.nginx) log(`package req/s: objpack/nginx ${f(pk.ratioVsNginx)}× (paired ${f(pk.pairedRatioVsNginx)}×); server CPU µs/req objpack ${f(pk.objpack.medianServerCpuUsPerRequest)}, nginx ${f(pk.nginx.medianServerCpuUsPerRequest)}`);
  for (const [k, v] of Object.entries(results.dynamic)) log(`dynamic ${k}: ${Math.round(v.medianReqPerSec)} req/s, ${f(v.medianServerCpuUsPerRequest)} µs CPU/req, ×${f(v.cpuCostVsPrebuilt)} CPU vs prebuilt`);
}

await main();
