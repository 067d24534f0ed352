import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './run.mjs';
import { END, START } from './lib/report.mjs';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('benchmarks/run.mjs', () => {
  it('runs experiment 004 end to end at tiny size: JSON, SVG and the README section', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'objpack-bench-'));
    dirs.push(dir);
    const readme = join(dir, 'README.md');
    const logs: string[] = [];
    const code = await main(['--quick', '004'], {
      resultsDir: join(dir, 'results'),
      readme,
      log: (m) => logs.push(m),
      pin: false,
      // A race timeout far past the near mirror's 5 ms, so a loaded machine cannot turn its win into the origin's.
      override: { '004-persistent-mirrors': { runs: 1, rtts: [0], raceRuns: 1, raceTimeoutMs: 5000 } },
    });
    expect(code, logs.join('\n')).toBe(0);
    const result = JSON.parse(await readFile(join(dir, 'results', '004-persistent-mirrors.json'), 'utf8'));
    expect(result.mode).toBe('quick');
    const persistent = result.raw.persistent as Array<{ perObjectMs: number; persistentMs: number }>;
    expect(persistent.length).toBeGreaterThanOrEqual(1);
    for (const r of persistent) {
      expect(r.perObjectMs).toBeGreaterThan(0);
      expect(r.persistentMs).toBeGreaterThan(0);
    }
    const mirrors = result.raw.mirrors as Array<{ scenario: string; source: string }>;
    expect(mirrors.map((m) => m.source)).toEqual(['origin', 'near mirror', 'slow mirror', 'origin']);
    const plots = await readdir(join(dir, 'results', 'plots'));
    expect(plots.some((p) => p.endsWith('.svg'))).toBe(true);
    expect(await readFile(join(dir, 'results', 'plots', plots[0]!), 'utf8')).toMatch(
      /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/,
    );
    const md = await readFile(readme, 'utf8');
    expect(md).toContain(START);
    expect(md).toContain(END);
    expect(md).toContain('| Scenario | TTFB ms |');
    expect(md).toMatch(/Delay proxy self-test at the start of this run: RTT 20 ms → ping-pong median [\d.]+ ms/);
    const check = JSON.parse(await readFile(join(dir, 'results', 'proxy-self-test.json'), 'utf8'));
    expect(check.checks[0].minMs).toBeGreaterThanOrEqual(19);
  });

  it('rejects unknown experiments with exit code 2', async () => {
    const write = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      expect(await main(['--quick', 'nope'], { log: () => {} })).toBe(2);
    } finally {
      process.stderr.write = write;
    }
  });
});
