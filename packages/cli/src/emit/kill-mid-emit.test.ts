import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { build as buildFn } from '../build.js';
import { fakeWorkerAssets, makeSite, SMALL_SITE, writeFiles } from '../test-utils/site.js';
import { listFiles, verifyOutput } from '../test-utils/verify-output.js';

// A real SIGKILL needs a separate process running the built library (dist/), as a user's build would.
const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const built = existsSync(DIST);
if (!built) console.warn(`SKIPPED kill-mid-emit tests: ${DIST} is missing (run \`pnpm --filter objpack run build\`)`);

/** Runs a build in a child that kills itself with SIGKILL right after its n-th file write. */
function buildAndDie(root: string, assets: object, n: number): Promise<string | null> {
  const script = `
    import { build } from ${JSON.stringify(DIST)};
    await build({ root: ${JSON.stringify(root)}, workerAssets: ${JSON.stringify(assets)}, cache: false,
      onProgress: (p) => { if (p.phase === 'write' && p.done === ${n}) process.kill(process.pid, 'SIGKILL'); } });`;
  const file = path.join(tmpdir(), `objpack-kill-${process.pid}-${n}.mjs`);
  writeFileSync(file, script);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { stdio: 'ignore' });
    child.on('exit', (_code, signal) => resolve(signal));
  });
}

describe.skipIf(!built)('a build killed mid-emit (SIGKILL)', () => {
  test('leaves the previous output valid at every kill point, and the next build completes', async () => {
    const root = await makeSite(SMALL_SITE);
    const assets = await fakeWorkerAssets();
    const { build } = (await import(DIST)) as { build: typeof buildFn };
    const first = await build({ root, workerAssets: assets as never });
    await writeFiles(root, { 'index.html': (SMALL_SITE['index.html'] as string).replace('Home', 'Home 2'), 'css/base.css': 'body{padding:0}' });
    const seen: string[] = [];
    for (const n of [1, 2, 3, 4, 5, 6, 8, 10]) {
      const signal = await buildAndDie(root, assets, n);
      // Killed or not, what is on disk must be a complete output (every package decodes, every ref exists).
      // (Page packages written before the kill carry the killed build's id: a worker takes them for a newer deploy.)
      const m = await verifyOutput(root, { buildIds: false });
      if (signal === 'SIGKILL') seen.push(m.buildId);
    }
    const last = await build({ root, workerAssets: assets as never });
    expect((await verifyOutput(root)).buildId).toBe(last.buildId);
    // Before its manifest landed a killed build left the previous output; after, the new one, complete.
    expect(seen.length).toBeGreaterThan(3);
    for (const id of seen) expect([first.buildId, last.buildId]).toContain(id);
    expect(seen).toContain(first.buildId);
    expect((await listFiles(root)).filter((f) => f.includes('.objpack-tmp-'))).toEqual([]);
  });
});
