import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// Worker threads only exist in the compiled package (tests run from sources parse in-process), so these
// run the built dist exactly as a user's `node -e` or script would.
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const GENERATORS = fileURLToPath(new URL('../../../../fixtures/generators/index.mjs', import.meta.url));
const built = existsSync(path.join(DIST, 'pool/pool-worker.js'));
if (!built)
  console.warn('SKIPPED worker lifetime tests: packages/cli/dist is missing (run `pnpm --filter objpack run build`)');

/** Runs an ES module body with `node --input-type=module -e`; the timeout only turns a hang into a failure. */
const runEval = (code: string, flags: string[] = []) => {
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', code], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout.trim(), stderr: r.stderr };
};

describe.skipIf(!built)('worker threads never hang or keep a process alive', () => {
  let site: string;
  beforeAll(async () => {
    site = await mkdtemp(path.join(tmpdir(), 'objpack-workers-'));
    const r = runEval(
      `import { generateSurgeSite } from ${JSON.stringify(GENERATORS)}; await generateSurgeSite({ pages: 90, outDir: ` +
        `${JSON.stringify(site)} });`,
    );
    expect(r.status, r.stderr).toBe(0);
  });
  afterAll(() => rm(site, { recursive: true, force: true }));

  test('discoverSite under `node --input-type=module -e` uses threads and exits on its own', () => {
    const r = runEval(`
      import { discoverSite } from ${JSON.stringify(path.join(DIST, 'discover/index.js'))};
      const g = await discoverSite(${JSON.stringify(site)}, { concurrency: 3 });
      console.log(g.pages.length);`);
    expect(r.signal, 'hung').toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('90');
  });

  /** Parses 80 pages on a pool (never closed) in a fresh `node -e` process; prints `<threads> <parsed>`. */
  const parseOnPool = (flags: string[] = []) =>
    runEval(
      `
      import { ThreadPool } from ${JSON.stringify(path.join(DIST, 'pool/thread-pool.js'))};
      const p = await ThreadPool.create(3);
      const rs = await Promise.all(Array.from({ length: 80 }, (_, i) => p.parse(${JSON.stringify(site)} + '/pages/p' ` +
        `+ String(i + 1).padStart(5, '0') + '.html', true)));
      console.log(p.threads, rs.filter((x) => x.extract).length);`,
      flags,
    );

  test('a pool nobody closes does not keep the process alive once idle', () => {
    const r = parseOnPool();
    expect(r.signal, 'hung').toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('2 80');
  });

  test('Node flags a worker refuses (--max-old-space-size, --stack-size, --title) do not stop the threads', () => {
    // `new Worker` throws ERR_WORKER_INVALID_EXEC_ARGV on them: the pool drops them and keeps the others.
    const r = parseOnPool(['--max-old-space-size=600', '--stack-size=900', '--trace-warnings', '--title=objpack-test']);
    expect(r.signal, 'hung').toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('2 80');
  });

  test('closing the pool while hashes are in flight and queued ends cleanly (no unsettled await, exit 13)', () => {
    const r = runEval(
      `
      import { readdirSync } from 'node:fs';
      import { ThreadPool } from ${JSON.stringify(path.join(DIST, 'pool/thread-pool.js'))};
      const dir = ${JSON.stringify(site)} + '/assets/img';
      const files = readdirSync(dir).map((n) => dir + '/' + n);
      const p = await ThreadPool.create(3);
      const jobs = [];
      for (let i = 0; i < 400; i++) jobs.push(p.digest(files[i % files.length], 1e9, { size: 0, mtimeMs: 0 ` +
        `}).then(() => 'done', (e) => e.code));
      await new Promise((r) => setTimeout(r, 20));
      await p.close();
      const answers = await Promise.all(jobs);
      console.log(answers.length, answers.includes('ECANCELED'));`,
    );
    expect(r.signal, 'hung').toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('400 true');
  });

  test('build() twice in one `-e` process (cold, then warm after an edit) exits 0', () => {
    const r = runEval(`
      import { appendFileSync } from 'node:fs';
      import { build } from ${JSON.stringify(path.join(DIST, 'index.js'))};
      const a = await build({ root: ${JSON.stringify(site)}, report: false, cache: false });
      appendFileSync(${JSON.stringify(site)} + '/pages/p00003.html', '<p>edit</p>');
      const b = await build({ root: ${JSON.stringify(site)}, report: false });
      console.log(a.summary.pages, b.written.filter((f) => f.endsWith('.objp')).length);`);
    expect(r.signal, 'hung').toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('90 1');
  });
});

describe('workerExecArgv', () => {
  test("drops the flags about the parent's own entry point, keeps the rest", async () => {
    const { workerExecArgv } = await import('./thread-pool.js');
    expect(workerExecArgv(['--input-type=module', '-e', 'code', '--max-old-space-size=512'])).toEqual([
      '--max-old-space-size=512',
    ]);
    expect(workerExecArgv(['--input-type', 'module', '--eval', 'x', '--enable-source-maps', '-p', 'y'])).toEqual([
      '--enable-source-maps',
    ]);
  });
});
