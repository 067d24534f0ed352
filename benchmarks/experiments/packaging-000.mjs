/**
 * Paper 000, Tables 3–7: 100 files of 4/16/32 KB fetched as HTTP/1.0 (a connection per file), HTTP/1.1
 * persistent (one connection, no pipelining) and one object package; server and client response time and
 * CPU, on each server, on loopback and through the delay proxy at RTT 20 (and 100 in full mode) ms.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { paperFileGroups } from '../../fixtures/generators/file-groups.mjs';
import { fetchPage } from '../lib/page-client.mjs';
import { startServer } from '../lib/servers.mjs';
import { startProxyProcess } from '../lib/proxy-process.mjs';
import { mean, round } from '../lib/stats.mjs';

export const id = '000-packaging';
export const title = '000 — Object packaging vs HTTP/1.0 and HTTP/1.1 (Tables 3–7)';

const METHODS = /** @type {const} */ (['http10', 'keepalive', 'package']);
const LABEL = { http10: 'HTTP/1.0', keepalive: 'HTTP/1.1 persistent', package: 'Object package' };
/** Paper 000 Table 7 (% of HTTP/1.0), by metric → method → [4K, 16K, 32K]. */
export const PAPER_TABLE7 = {
  serverCpu: { keepalive: [51, 92, 68], package: [9, 36, 36] },
  serverMs: { keepalive: [23, 38, 52], package: [8, 25, 44] },
  clientCpu: { keepalive: [7, 14, 18], package: [3, 8, 7] },
  clientMs: { keepalive: [18, 34, 50], package: [9, 17, 28] },
};
const METRIC_LABEL = {
  serverCpu: 'Server CPU',
  serverMs: 'Server response time',
  clientCpu: 'Client CPU',
  clientMs: 'Client response time',
};

/**
 * @param {import('../lib/context.mjs').BenchContext} ctx
 * @param {{ sizes?: number[], sets?: number, files?: number, rtts?: number[], cpuReps?: number, sirv?: boolean }}
 * [override]
 */
export async function run(ctx, override = {}) {
  const sizes = override.sizes ?? [4096, 16384, 32768];
  const sets = override.sets ?? (ctx.quick ? 2 : 10);
  const files = override.files ?? 100;
  const rtts = override.rtts ?? (ctx.quick ? [0, 20] : [0, 20, 100]);
  const cpuReps = override.cpuReps ?? 2;
  const site = join(ctx.tmp, 'site');
  ctx.log(`  generating ${sizes.length} groups × ${sets} sets × ${files} files`);
  const { groups } = await paperFileGroups({ sizes, sets, files }, site);
  /** @type {Map<string, { paths: string[], pkg: string }>} */
  const setInfo = new Map();
  for (const g of groups) {
    for (let s = 0; s < g.sets.length; s++) {
      const set = /** @type {import('../../fixtures/generators/file-groups.mjs').FileSet} */ (g.sets[s]);
      const paths = set.files.map((f) => `/${g.name}/set-${String(s).padStart(2, '0')}/${f.name}`);
      const objects = await Promise.all(
        paths.map(async (p) => ({
          name: p,
          contentType: 'text/plain; charset=utf-8',
          body: new Uint8Array(await readFile(join(site, p))),
        })),
      );
      const pkg = `/${g.name}/set-${String(s).padStart(2, '0')}.objp`;
      await writeFile(join(site, pkg), ctx.format.encodePackageSync({ objects }));
      setInfo.set(`${g.name}/${s}`, { paths, pkg });
    }
  }

  /** @type {any[]} */
  const runs = [];
  // sirv (a popular Node static server) joins on loopback; through the proxy the server matters little.
  for (const serverKind of [...ctx.servers, ...(override.sirv === false ? [] : ['sirv'])]) {
    const srv = await startServer(/** @type {any} */ (serverKind), { root: site, dir: ctx.tmp, cpu: ctx.serverCpu });
    try {
      for (const rtt of serverKind === 'sirv' ? [0] : rtts) {
        const proxy = rtt ? await startProxyProcess({ targetPort: srv.port, rttMs: rtt }) : null;
        const origin = proxy ? `http://127.0.0.1:${proxy.port}` : srv.url;
        const nSets = rtt ? Math.min(sets, ctx.quick || rtt >= 100 ? 1 : 3) : sets;
        try {
          // Quick mode takes the proxy runs at the smallest size only (each HTTP/1.0 set is 200 RTTs).
          for (const g of rtt && ctx.quick ? groups.slice(0, 1) : groups) {
            if (!g) continue;
            for (const method of METHODS) {
              const fetchSet = (/** @type {number} */ s) => {
                const info = /** @type {{ paths: string[], pkg: string }} */ (setInfo.get(`${g.name}/${s}`));
                return fetchPage({
                  origin,
                  paths: info.paths,
                  mode: method,
                  packagePath: info.pkg,
                  Decoder: ctx.format.Decoder,
                });
              };
              if (!rtt) await fetchSet(0); // warm the server's and the OS's caches
              const perSet = [];
              for (let s = 0; s < nSets; s++) {
                await srv.reset();
                const r = await fetchSet(s);
                const st = await srv.stats();
                perSet.push({ serverMs: st.responseMs, clientMs: r.readMs, totalMs: r.ms, connections: r.connections });
              }
              // 000 measured CPU over several sets requested back to back (accumulated CPU).
              let serverCpu = NaN,
                clientCpu = NaN;
              if (!rtt) {
                await srv.reset();
                let c = 0;
                for (let k = 0; k < cpuReps; k++) for (let s = 0; s < sets; s++) c += (await fetchSet(s)).cpuMs;
                serverCpu = (await srv.stats()).cpuMs / (cpuReps * sets);
                clientCpu = c / (cpuReps * sets);
              }
              runs.push({
                server: srv.kind,
                rtt,
                size: g.size,
                method,
                sets: nSets,
                serverMs: mean(perSet.map((x) => x.serverMs)),
                clientMs: mean(perSet.map((x) => x.clientMs)),
                totalMs: mean(perSet.map((x) => x.totalMs)),
                connections: perSet[0]?.connections,
                serverCpu,
                clientCpu,
              });
              ctx.log(`  ${srv.kind} rtt=${rtt} ${g.name} ${method}: total ${round(runs.at(-1).totalMs)} ms`);
            }
          }
        } finally {
          await proxy?.close();
        }
      }
    } finally {
      await srv.close();
    }
  }
  return { id, title, raw: runs, ...report(runs, sizes) };
}

/**
 * @param {any[]} runs
 * @param {number[]} sizes
 */
function report(runs, sizes) {
  const tables = [];
  const plots = [];
  const servers = [...new Set(runs.map((r) => r.server))];
  const sizeCols = sizes.map((s) => `${s / 1024} KB`);
  const find = (/** @type {any} */ q) => runs.find((r) => Object.entries(q).every(([k, v]) => r[k] === v));
  // nginx logs times in whole milliseconds: a package served in under 1 ms reads as 0.
  const pct = (/** @type {number} */ a, /** @type {number} */ b) =>
    Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a === 0 ? '<1 ms' : `${Math.round((100 * a) / b)}%`) : 'n/a';
  for (const server of servers) {
    const rtts = [...new Set(runs.filter((r) => r.server === server).map((r) => r.rtt))];
    const rows = [];
    for (const metric of /** @type {const} */ (['serverCpu', 'serverMs', 'clientCpu', 'clientMs'])) {
      for (const method of /** @type {const} */ (['keepalive', 'package'])) {
        const ours = sizes.map((size) =>
          pct(
            find({ server, rtt: 0, size, method })?.[metric],
            find({ server, rtt: 0, size, method: 'http10' })?.[metric],
          ),
        );
        const theirs = PAPER_TABLE7[metric][method].map((v) => `${v}%`);
        rows.push([METRIC_LABEL[metric], LABEL[method], ...ours.map((o, i) => `${o} (${theirs[i]})`)]);
      }
    }
    tables.push({
      title: `Table 7 on ${server}, loopback: % of HTTP/1.0 — ours (paper)`,
      columns: ['Metric', 'Method', ...sizeCols],
      rows,
    });
    const abs = [];
    for (const rtt of rtts)
      for (const method of METHODS) {
        const cells = sizes.map((size) => {
          const r = find({ server, rtt, size, method });
          return r ? `${round(r.serverMs)} / ${round(r.clientMs)} / ${round(r.totalMs)}` : '';
        });
        abs.push([`${rtt} ms`, LABEL[method], ...cells]);
      }
    tables.push({
      title: `Tables 4/6 on ${server}: server response / client response (000's definition) / total page time, ms`,
      columns: ['RTT', 'Method', ...sizeCols],
      rows: abs,
    });
    if (rtts.length > 1) {
      const rttRows = [];
      for (const rtt of rtts.filter((r) => r > 0))
        for (const method of /** @type {const} */ (['keepalive', 'package'])) {
          rttRows.push([
            `${rtt} ms`,
            LABEL[method],
            ...sizes.map((size) =>
              pct(find({ server, rtt, size, method })?.totalMs, find({ server, rtt, size, method: 'http10' })?.totalMs),
            ),
          ]);
        }
      tables.push({
        title: `Total page time through the delay proxy on ${server}: % of HTTP/1.0`,
        columns: ['RTT', 'Method', ...sizeCols],
        rows: rttRows,
      });
    }
    plots.push({
      name: `${server}-client-time`,
      title: `000 on ${server}: client response time, % of HTTP/1.0 (paper hatched)`,
      groups: sizeCols,
      series: /** @type {const} */ (['keepalive', 'package']).flatMap((method) => [
        {
          label: `${LABEL[method]} (ours)`,
          values: sizes.map((size) =>
            ratio(
              find({ server, rtt: 0, size, method })?.clientMs,
              find({ server, rtt: 0, size, method: 'http10' })?.clientMs,
            ),
          ),
        },
        { label: `${LABEL[method]} (paper)`, values: PAPER_TABLE7.clientMs[method], paper: true },
      ]),
      unit: '%',
    });
  }
  return { tables, plots };
}

const ratio = (/** @type {number | undefined} */ a, /** @type {number | undefined} */ b) =>
  a !== undefined && b ? (100 * a) / b : NaN;
