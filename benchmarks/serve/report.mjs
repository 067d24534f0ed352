#!/usr/bin/env node
/**
 * Markdown tables from a serve-bench results file (what benchmarks/serve/README.md quotes):
 *   node benchmarks/serve/report.mjs [benchmarks/results/serve-bench.json]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cell = (s, d = 0) => (s ? `${s.median.toFixed(d)} [${s.min.toFixed(d)}–${s.max.toFixed(d)}]` : '–');
const ratio = (s) => (s ? `**${s.median.toFixed(2)}×** [${s.min.toFixed(2)}–${s.max.toFixed(2)}]` : '–');

/** The README's tables for one results object. Cells: median [min–max] over the interleaved rounds. */
export function renderTables(r) {
  const out = [];
  const row = (...xs) => out.push(`| ${xs.join(' | ')} |`);
  for (const tool of ['wrk', 'autocannon']) {
    const t = r.smallFiles?.[tool];
    if (!t?.objpack) continue;
    out.push('', `Small files, keep-alive, 32 connections, ${tool}:`, '');
    row('server', 'req/s', 'server CPU µs/req', 'server core busy %', 'client core busy %', 'client-bound runs');
    row('---', '---:', '---:', '---:', '---:', '---:');
    for (const k of ['objpack', 'sirv', 'nginx']) {
      const s = t[k];
      if (s)
        row(
          k,
          cell(s.reqPerSec),
          cell(s.serverCpuUsPerRequest, 1),
          cell(s.serverCpuPct),
          cell(s.clientCpuPct),
          `${s.clientBoundRuns}/${s.runs.length}`,
        );
    }
    out.push(
      '',
      `objpack ÷ sirv (paired per round): ${ratio(t.ratioVsSirv)}; sirv's CPU per request ÷ objpack's: ` +
        `${ratio(t.cpuRatioSirvOverObjpack)}; objpack ÷ nginx: ${ratio(t.ratioVsNginx)}`,
    );
  }
  const p = r.package;
  if (p?.objpack) {
    out.push('', 'One 100 × 4 KB package (420 393 bytes), wrk, 8 connections:', '');
    row(
      'server',
      'req/s',
      'MB/s',
      'CPU µs/req',
      'user µs',
      'system µs',
      'server core %',
      'client core %',
      'client-bound',
    );
    row('---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:');
    for (const [k, label] of [
      ['objpack', 'objpack (package URL)'],
      ['objpackNegotiated', 'objpack (`X-Objpack: package` on `/`)'],
      ['nginx', 'nginx (same .objp file)'],
      ['nodeFloor', 'Node floor: bare `http` server, `res.end(buffer)`'],
    ]) {
      const s = p[k];
      if (s)
        row(
          label,
          cell(s.reqPerSec),
          cell(s.mbPerSec),
          cell(s.serverCpuUsPerRequest),
          cell(s.serverUserUsPerRequest),
          cell(s.serverSysUsPerRequest),
          cell(s.serverCpuPct),
          cell(s.clientCpuPct),
          `${s.clientBoundRuns}/${s.runs.length}`,
        );
    }
    out.push(
      '',
      `objpack ÷ nginx req/s (paired per round): ${ratio(p.ratioVsNginx)}; negotiated ÷ nginx: ` +
        `${ratio(p.negotiatedRatioVsNginx)}; CPU per package objpack ÷ nginx: ` +
        `${ratio(p.cpuPerRequestObjpackOverNginx)}, objpack ÷ Node floor: ` +
        `${ratio(p.cpuPerRequestObjpackOverNodeFloor)}`,
    );
  }
  const d = r.dynamic;
  if (d?.prebuilt) {
    out.push('', 'Dynamic and delta packages (objpack, package URL, wrk, 8 connections):', '');
    row('case', 'req/s', 'server CPU µs/req', 'CPU × prebuilt (paired)', 'req/s × prebuilt (paired)');
    row('---', '---:', '---:', '---:', '---:');
    const names = {
      prebuilt: 'prebuilt package (in memory)',
      delta50Cached: 'delta, client holds 50 of 100 (cached)',
      delta50Uncached: 'delta, 50 of 100, assembled per request (`cacheBytes: 0`)',
      fullDynamicUncached: 'full package assembled per request (`cacheBytes: 0`)',
    };
    for (const [k, label] of Object.entries(names)) {
      const s = d[k];
      if (s)
        row(
          label,
          cell(s.reqPerSec),
          cell(s.serverCpuUsPerRequest),
          ratio(s.cpuCostVsPrebuilt),
          ratio(s.throughputVsPrebuilt),
        );
    }
  }
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? fileURLToPath(new URL('../results/serve-bench.json', import.meta.url));
  const r = JSON.parse(readFileSync(file, 'utf8'));
  process.stdout.write(
    `${r.date}, ${r.machine}, Node ${r.node}, ${r.rounds} rounds × ${r.durationSec} s, nice ${r.nice}, load average ` +
      `${r.loadavgAtStart?.map((x) => x.toFixed(1)).join('/')} → ` +
      `${r.loadavgAtEnd?.map((x) => x.toFixed(1)).join('/')}\n`,
  );
  process.stdout.write(`${renderTables(r)}\n`);
}
