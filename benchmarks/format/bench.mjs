#!/usr/bin/env node
// OBJP encode/decode throughput and per-object overhead, beside a Buffer.concat copy baseline measured in
// the same run (these machines are shared and noisy, so ratios matter more than absolute numbers).
//
//   npx -y pnpm@10.34.9 --filter @objpack/format run build
//   flock /tmp/objpack-bench.lock node benchmarks/format/bench.mjs [--quick] [--out benchmarks/results/format.json]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wrapMarkdown } from '../lib/report.mjs';
import { Decoder, encodePackage, encodePackageSync, sha256 } from '../../packages/format/dist/index.js';
import { nodeSha256 } from '../../packages/format/dist/node.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const outArg = args.indexOf('--out');
const out = outArg >= 0 ? args[outArg + 1] : fileURLToPath(new URL('../results/format.json', import.meta.url));
const REPS = quick ? 3 : 9;
const BUDGET_MS = quick ? 60 : 250; // minimum time per repetition of one measurement
const CHUNK = 64 * 1024; // the size of a typical socket or fs read

const CASES = [
  { label: '100 × 4 KB', count: 100, size: 4 * 1024 },
  { label: '100 × 32 KB', count: 100, size: 32 * 1024 },
  { label: '10 × 1 MB', count: 10, size: 1024 * 1024 },
  // Index-only: what each object costs when there are no body bytes to move.
  { label: '1000 × 0 B', count: 1000, size: 0 },
];

const TYPES = [
  'text/html; charset=utf-8',
  'text/css; charset=utf-8',
  'text/javascript; charset=utf-8',
  'image/webp',
  'font/woff2',
];

/** Realistic names (~30 bytes), a few content types, a cache header on every fourth object. */
function makeInput({ count, size }) {
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
  return {
    buildId: 'bench-0001',
    objects: Array.from({ length: count }, (_, i) => ({
      name:
        i === 0
          ? '/index.html'
          : `/assets/chunk-${String(i).padStart(6, '0')}.${['css', 'js', 'webp', 'woff2'][i % 4]}`,
      contentType: TYPES[i === 0 ? 0 : 1 + (i % 4)],
      headers: i % 4 === 1 ? [['cache-control', 'public, max-age=31536000, immutable']] : [],
      body: Uint8Array.from({ length: size }, rand),
    })),
  };
}

const split = (bytes) => {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += CHUNK) chunks.push(bytes.subarray(i, i + CHUNK));
  return chunks;
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Mean time (ms) of one call over a run of at least BUDGET_MS. */
async function timeOnce(fn) {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < BUDGET_MS || n < 3) {
    await fn();
    n++;
    t = performance.now();
  }
  return (t - t0) / n;
}

/**
 * Runs every variant once per repetition, interleaved, so a noisy neighbour slows all of them alike;
 * returns the median time of each and the per-repetition times (for ratios taken within a repetition).
 */
async function measureAll(variants) {
  const runs = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (const fn of Object.values(variants)) await fn(); // warm-up
  for (let r = 0; r < REPS; r++) for (const [k, fn] of Object.entries(variants)) runs[k].push(await timeOnce(fn));
  const pick = (f) => Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, f(v)]));
  return { median: pick(median), best: pick((v) => Math.min(...v)), runs };
}

let sink = 0; // keeps results alive so the work cannot be optimised away

function decode(chunks, options) {
  let bytes = 0;
  const d = new Decoder({ onObjectData: (_e, b) => (bytes += b.length), onObjectEnd: () => sink++ }, options);
  for (const c of chunks) d.push(c);
  d.end();
  sink += bytes;
}

async function drain(gen) {
  for await (const c of gen) sink += c.length;
}

const loadBefore = os.loadavg()[0];
const results = [];
for (const c of CASES) {
  const input = makeInput(c);
  const withDigests = { ...input, objects: input.objects.map((o) => ({ ...o, digest: sha256(o.body) })) };
  const pkg = encodePackageSync(input);
  const chunks = split(pkg);
  const index = (() => {
    let ix;
    const d = new Decoder({ onIndex: (i) => (ix = i) }, { verify: false });
    d.push(pkg);
    d.end();
    return ix;
  })();
  // Sanity: every variant must produce or accept the same package.
  if (!Buffer.from(encodePackageSync(withDigests)).equals(pkg)) throw new Error('encoder is not deterministic');
  decode(chunks, { hash: nodeSha256 });

  const {
    median: t,
    best,
    runs,
  } = await measureAll({
    copy: () => void (sink += Buffer.concat(chunks).length),
    decodeNoVerify: () => decode(chunks, { verify: false }),
    decodePortable: () => decode(chunks),
    decodeNode: () => decode(chunks, { hash: nodeSha256 }),
    encodeSyncGiven: () => void (sink += encodePackageSync(withDigests).length),
    encodeSyncPortable: () => void (sink += encodePackageSync(input).length),
    encodeSyncNode: () => void (sink += encodePackageSync(input, { hash: nodeSha256 }).length),
    encodeAsyncGiven: () => drain(encodePackage(withDigests)),
  });
  const mbps = (ms) => (c.count * c.size === 0 ? null : +(pkg.length / 1e6 / (ms / 1e3)).toFixed(1));
  const perObject = (ms) => +((ms * 1000) / c.count).toFixed(3);
  const row = {
    case: c.label,
    objects: c.count,
    objectBytes: c.size,
    packageBytes: pkg.length,
    indexBytes: index.headerBytes,
    indexBytesPerObject: +(index.headerBytes / c.count).toFixed(1),
    ms: Object.fromEntries(Object.entries(t).map(([k, v]) => [k, +v.toFixed(4)])),
    mbPerSec: Object.fromEntries(Object.entries(t).map(([k, v]) => [k, mbps(v)])),
    // Median over repetitions of the ratio within each repetition (both ran under the same load).
    decodeNoVerifyVsCopy:
      c.size === 0 ? null : +median(runs.copy.map((cp, i) => cp / runs.decodeNoVerify[i])).toFixed(2),
    // Whole decode (no verification) or encode (digests given) time spread over the objects; for the
    // index-only case this is the pure per-object overhead.
    decodeUsPerObject: perObject(t.decodeNoVerify),
    // Fastest repetition: closest to the code's own cost when neighbours load the machine.
    decodeUsPerObjectBest: perObject(best.decodeNoVerify),
    encodeUsPerObjectBest: perObject(best.encodeSyncGiven),
    copyUsPerObject: perObject(t.copy),
    encodeUsPerObject: perObject(t.encodeSyncGiven),
    encodeAsyncUsPerObject: perObject(t.encodeAsyncGiven),
  };
  results.push(row);
  process.stderr.write(`${c.label}: done\n`);
}

// A hostile or very slow sender: the index of the 1000-object package arriving one byte per push.
const tiny = encodePackageSync(makeInput({ count: 1000, size: 0 }));
const oneByteMs = await timeOnce(() => {
  const d = new Decoder({}, { verify: false });
  for (let i = 0; i < tiny.length; i++) d.push(tiny.subarray(i, i + 1));
  d.end();
});
const indexOnly = results.find((r) => r.objectBytes === 0);

const table = [
  '| package | bytes | index B/object | copy MB/s | decode no-verify MB/s (× copy) | decode portable SHA ' +
    'MB/s | decode node:crypto MB/s | encode (digests given) MB/s | encode portable / node MB/s | encode async ' +
    'MB/s | decode µs/object | encode µs/object |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map((r) => {
    const m = r.mbPerSec;
    const f = (v) => (v === null ? '–' : String(v));
    return (
      `| ${r.case} | ${r.packageBytes} | ${r.indexBytesPerObject} | ${f(m.copy)} | ${f(m.decodeNoVerify)} ` +
      `(${f(r.decodeNoVerifyVsCopy)}) | ${f(m.decodePortable)} | ${f(m.decodeNode)} | ${f(m.encodeSyncGiven)} | ` +
      `${f(m.encodeSyncPortable)} / ${f(m.encodeSyncNode)} | ${f(m.encodeAsyncGiven)} | ${r.decodeUsPerObject} | ` +
      `${r.encodeUsPerObject} |`
    );
  }),
  '',
  `Per-object overhead (1000 × 0 B, index only, no verification), median (best) of ${REPS}: ` +
    (`decode ${indexOnly.decodeUsPerObject} (${indexOnly.decodeUsPerObjectBest}) µs, encode ` +
      `${indexOnly.encodeUsPerObject} (${indexOnly.encodeUsPerObjectBest}) µs, `) +
    `async encode ${indexOnly.encodeAsyncUsPerObject} µs. ` +
    `The same ${tiny.length}-byte package pushed one byte at a time: ${oneByteMs.toFixed(1)} ms.`,
].join('\n');

const report = {
  benchmark: 'format',
  date: new Date().toISOString(),
  node: process.version,
  cpu: os.cpus()[0]?.model,
  cpus: os.cpus().length,
  loadAverage1m: { before: +loadBefore.toFixed(2), after: +os.loadavg()[0].toFixed(2) },
  repetitions: REPS,
  budgetMsPerRepetition: BUDGET_MS,
  chunkBytes: CHUNK,
  targets: { decodeNoVerifyVsCopy: 0.5, perObjectOverheadUs: 2 },
  results,
  perObjectOverheadUs: {
    decode: indexOnly.decodeUsPerObject,
    encode: indexOnly.encodeUsPerObject,
    encodeAsync: indexOnly.encodeAsyncUsPerObject,
  },
  oneBytePushes: { bytes: tiny.length, ms: +oneByteMs.toFixed(2) },
  table,
  sink: sink > 0,
};
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(
  `${table}\n\nload average ${report.loadAverage1m.before} → ${report.loadAverage1m.after} on ${report.cpus} CPUs; ` +
    `written ${out}\n`,
);
// The results section of README.md is regenerated from this run (only for the default output).
const readme = fileURLToPath(new URL('./README.md', import.meta.url));
if (outArg < 0 && existsSync(readme)) {
  const [start, end] = ['<!-- format-results:start -->', '<!-- format-results:end -->'];
  const text = readFileSync(readme, 'utf8');
  const at = text.indexOf(start);
  const until = text.indexOf(end);
  if (at >= 0 && until > at) {
    const section = [
      start,
      `Measured ${report.date.slice(0, 16).replace('T', ' ')} UTC, Node ${report.node}, ${report.cpu} × ` +
        `${report.cpus}, ` +
        (`load average ${report.loadAverage1m.before} → ${report.loadAverage1m.after}${quick ? ', --quick' : ''}; ` +
          `${REPS} repetitions, median.`),
      '',
      table,
      end,
    ].join('\n');
    writeFileSync(readme, text.slice(0, at) + wrapMarkdown(section) + text.slice(until + end.length));
  }
}
// Not a correctness check: a quick look that node:crypto and the package agree on one digest.
if (createHash('sha256').update('').digest('hex') !== Buffer.from(sha256(new Uint8Array(0))).toString('hex'))
  throw new Error('sha256 mismatch');
