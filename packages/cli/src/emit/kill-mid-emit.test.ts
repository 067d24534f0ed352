import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RouteTable } from '@objpack/format';
import { describe, expect, test } from 'vitest';
import type { build as buildFn } from '../build.js';
import { fakeWorkerAssets, makeSite, SMALL_SITE, writeFiles } from '../test-utils/site.js';
import { listFiles, verifyOutput } from '../test-utils/verify-output.js';

// A real SIGKILL needs a separate process running the built library (dist/), as a user's build would.
const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const GENERATORS = new URL('../../../../fixtures/generators/index.mjs', import.meta.url).href;
const built = existsSync(DIST);
if (!built) console.warn(`SKIPPED kill-mid-emit tests: ${DIST} is missing (run \`pnpm --filter objpack run build\`)`);

/**
 * Runs a build in a child that kills itself with SIGKILL during its write phase: `delayMs` after its first
 * file is written, or at once after the `afterFile`-th. Resolves with the signal (null when the build
 * finished first) and, for a finished build, how long its write phase took.
 */
function buildAndDie(
  root: string,
  assets: object,
  kill: { afterFile?: number; delayMs?: number },
  cache: boolean,
): Promise<{ signal: string | null; writeMs?: number }> {
  const script = `
    import { build } from ${JSON.stringify(DIST)};
    let first;
    const die = () => process.kill(process.pid, 'SIGKILL');
    await build({ root: ${JSON.stringify(root)}, workerAssets: ${JSON.stringify(assets)}, cache: ${cache},
      onProgress: (p) => {
        if (p.phase !== 'write') return;
        if (first === undefined) {
          first = performance.now();
          ${kill.delayMs !== undefined ? `setTimeout(die, ${kill.delayMs});` : ''}
        }
        ${kill.afterFile !== undefined ? `if (p.done === ${kill.afterFile}) die();` : ''}
      } });
    process.stdout.write(JSON.stringify({ writeMs: performance.now() - (first ?? performance.now()) }));`;
  const file = path.join(tmpdir(), `objpack-kill-${process.pid}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, script);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (_code, signal) => resolve({ signal, ...(out ? (JSON.parse(out) as { writeMs: number }) : {}) }));
  });
}

const readRoutes = (root: string) =>
  JSON.parse(readFileSync(path.join(root, '_objpack/routes.json'), 'utf8')) as RouteTable;

describe.skipIf(!built)('a build killed mid-emit (SIGKILL)', () => {
  test('leaves one whole generation at every kill point, and the next build completes', async () => {
    const root = await makeSite(SMALL_SITE);
    const assets = await fakeWorkerAssets();
    const { build } = (await import(DIST)) as { build: typeof buildFn };
    const first = await build({ root, workerAssets: assets as never });
    await writeFiles(root, {
      'index.html': (SMALL_SITE['index.html'] as string).replace('Home', 'Home 2'),
      'css/base.css': 'body{padding:0}',
    });
    const seen: string[] = [];
    for (const n of [1, 2, 3, 4, 5, 6, 8, 10]) {
      const { signal } = await buildAndDie(root, assets, { afterFile: n }, false);
      // Killed or not, what is on disk is a complete output, of one build's packages.
      const m = await verifyOutput(root);
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

  test(
    '50 kills at random points of in-place rebuilds ' + '(pipeline and incremental): never a mixed generation',
    async () => {
      const gen = (await import(GENERATORS)) as {
        generateSurgeSite(o: { pages: number; outDir: string; seed?: string }): Promise<unknown>;
        createRng(seed: string): { next(): number; int(n: number): number };
      };
      const seed = process.env.OBJPACK_KILL_SEED ?? 'kill-mid-emit';
      const rng = gen.createRng(seed);
      const root = await makeSite({});
      await gen.generateSurgeSite({ pages: 24, outDir: root, seed: 'kill-site' });
      const assets = await fakeWorkerAssets();
      const { build } = (await import(DIST)) as { build: typeof buildFn };
      await build({ root, workerAssets: assets as never });
      const css = readdirSync(path.join(root, 'assets/css')).map((f) => path.join(root, 'assets/css', f));
      const pages = readdirSync(path.join(root, 'pages')).map((f) => path.join(root, 'pages', f));
      const ids = new Set<string>();
      let killed = 0;
      // How long each kind of rebuild writes, from the last one that finished (kills spread over that time).
      const writeMs = { page: 100, css: 300, cold: 300 };
      for (let trial = 0; trial < 50; trial++) {
        // Odd trials edit a few pages' text (the incremental patch), even ones a stylesheet many pages carry
        // (the pipeline, most page packages rewritten), every fourth without the cache.
        const kind = trial % 2 ? 'page' : trial % 4 ? 'css' : 'cold';
        if (kind === 'page')
          for (let k = 0; k < 1 + rng.int(3); k++)
            appendFileSync(pages[rng.int(pages.length)]!, `<p>edit ${trial}.${k}</p>\n`);
        else appendFileSync(css[rng.int(css.length)]!, `/* edit ${trial} */\n`);
        // Up to 1.2 times the last write phase: some kills land after the manifest, in the clean-up.
        const delayMs = Math.round(rng.next() * 1.2 * writeMs[kind]);
        const r = await buildAndDie(root, assets, { delayMs }, kind !== 'cold');
        if (r.signal === 'SIGKILL') killed++;
        if (r.writeMs !== undefined) writeMs[kind] = Math.max(1, r.writeMs);
        const where =
          `seed ${seed}, trial ${trial} (${kind}), killed ${delayMs} ms into the write phase: ` +
          `${r.signal ?? 'finished'}`;
        // Every package the manifest and the route table name exists, verifies, and carries the build id the
        // table (or its packageBuilds) gives it.
        const manifest = await verifyOutput(root).catch((err: Error) => {
          throw new Error(`${where}: ${err.message}`);
        });
        const routes = readRoutes(root);
        ids.add(routes.buildId);
        expect(Object.keys(routes.pages).sort(), where).toEqual(Object.keys(manifest.pages).sort());
      }
      // The kills hit: most trials died mid-write, and some builds still switched between them (how many
      // depends on the machine's speed against the random delays, so only that there were several).
      expect(killed).toBeGreaterThanOrEqual(35);
      expect(ids.size).toBeGreaterThan(2);
      // The next build finishes what the killed ones left: the same output as a build without any cache.
      const last = await build({ root, workerAssets: assets as never });
      expect((await verifyOutput(root)).buildId).toBe(last.buildId);
      const fresh = await build({ root, workerAssets: assets as never, cache: false });
      expect(fresh.buildId).toBe(last.buildId);
      expect((await listFiles(root)).filter((f) => f.includes('.objpack-tmp-'))).toEqual([]);
    },
    240_000,
  ); // ~25 s of CPU (50 child builds); the bound is for a loaded shared machine
});
