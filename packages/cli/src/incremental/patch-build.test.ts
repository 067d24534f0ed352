/**
 * The incremental fast path against the pipeline, on a generated 200-page SURGE-like site: after each edit
 * the patched outputs must be byte-identical to what the pipeline writes from the same previous output,
 * and equal (build ids aside) to a full build of a fresh copy with the same edits. Edits that change
 * closures (a page gains a stylesheet, a CSS @import changes, a file is deleted) must fall back.
 */
import {
  cpSync,
  existsSync,
  linkSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build, type BuildResult } from '../build.js';
import { settle } from '../pipeline/settle.js';
import type { WorkerAssets } from '../emit/sw-assets.js';
import { REGISTER_TAG } from '../inject/inject.js';
import { fakeWorkerAssets } from '../test-utils/site.js';
import { loadState, outputSignatures, saveState, STATE_FILE } from './build-state.js';
import { patchBuild } from './patch-build.js';
import { expectSameAsFullBuild, expectSameBytes, readManifest } from '../test-utils/same-output.js';

const GENERATORS = new URL('../../../../fixtures/generators/index.mjs', import.meta.url).href;

const dir = mkdtempSync(path.join(tmpdir(), 'objpack-patch-'));
const pristine = path.join(dir, 'pristine');
let assets: WorkerAssets;
let copies = 0;
// Generous hooks: the copies add up to thousands of files, removed and written on a shared, loaded disk.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 180_000);
beforeAll(async () => {
  const gen = (await import(GENERATORS)) as {
    generateSurgeSite(o: { pages: number; outDir: string }): Promise<unknown>;
  };
  await gen.generateSurgeSite({ pages: 200, outDir: pristine });
  // Host headers for every page and more for some: the patch must carry them as the pipeline does.
  writeFileSync(
    path.join(pristine, '_headers'),
    "/*\n  Content-Security-Policy: default-src 'self'\n/pages/p0004*\n  X-Frame-Options: DENY\n",
  );
  assets = await fakeWorkerAssets();
}, 180_000);

// The report in the output, so the comparisons below cover it.
const run = (root: string, cache = true): Promise<BuildResult> =>
  build({ root, cache, workerAssets: assets, concurrency: 1, reportFile: path.join(root, 'objpack-report.html') });
const copy = (from: string): string => {
  const to = path.join(dir, `copy-${++copies}`);
  cpSync(from, to, { recursive: true });
  return to;
};

describe('incremental fast path (issue 3)', () => {
  const edits: Array<(root: string) => void> = [];
  /** Applies an edit to the built site and records it, so a fresh copy can be given the same history. */
  const edit = (root: string, change: (root: string) => void) => {
    change(root);
    edits.push(change);
  };
  /** A full build (no cache) of a fresh copy of the generated site with every edit so far. */
  const fullBuildWithEdits = async (): Promise<string> => {
    const fresh = copy(pristine);
    for (const change of edits) change(fresh);
    const r = await run(fresh, false);
    expect(r.patched).toBe(false);
    return fresh;
  };
  /** The pipeline's own incremental build from the same previous output (fast path disabled by dropping the state). */
  const pipelineFrom = async (before: string, change: (root: string) => void): Promise<BuildResult> => {
    rmSync(path.join(before, STATE_FILE));
    change(before);
    const r = await run(before);
    expect(r.patched).toBe(false);
    return r;
  };
  const appendTo = (rel: string, text: string) => (root: string) =>
    writeFileSync(path.join(root, rel), readFileSync(path.join(root, rel), 'utf8') + text);

  let site: string;
  // A full build of 200 pages on one thread: past the 60 s default on a shared machine under load.
  beforeAll(async () => {
    site = copy(pristine);
    await run(site, false);
  }, 240_000);

  test('an edited page is patched: same bytes as the pipeline, same outputs as a full build', async () => {
    for (const text of ['<p>edited</p>\n', '<p>edited again</p>\n']) {
      const before = copy(site);
      const change = appendTo('pages/p00042.html', text);
      edit(site, change);
      const r = await run(site);
      expect(r.patched).toBe(true);
      expect(r.pagesParsed).toBe(1);
      expect(r.written).toEqual([
        `_objpack/pages/pages/p00042.html.${r.buildId}.objp`,
        'objpack-report.html',
        '_objpack/routes.json',
        'objpack-manifest.json',
      ]);
      const pipeline = await pipelineFrom(before, change);
      await expectSameBytes(site, before);
      expect(r.buildId).toBe(pipeline.buildId);
      expect(r.summary).toEqual(pipeline.summary);
      expect(r.diagnostics).toEqual(pipeline.diagnostics);
      expect(r.reused).toBe(pipeline.reused);
      expect(r.plan.stats).toEqual(pipeline.plan.stats);
      expect(r.plan.pages.map((p) => p.closure.map((o) => [o.url, o.sri, o.sendBytes, o.headers]))).toEqual(
        pipeline.plan.pages.map((p) => p.closure.map((o) => [o.url, o.sri, o.sendBytes, o.headers])),
      );
      await expectSameAsFullBuild(site, await fullBuildWithEdits());
      // The result's lazily loaded parts are the written ones.
      expect(r.manifest).toEqual(JSON.parse(readFileSync(path.join(site, 'objpack-manifest.json'), 'utf8')));
      expect(r.plan.pages.find((p) => p.file === 'pages/p00042.html')?.objects[0]?.sri).toBe(
        r.manifest.objects['/pages/p00042.html']?.digest,
      );
      expect(r.manifest.objects['/pages/p00042.html']?.headers).toEqual([
        ['content-security-policy', "default-src 'self'"],
        ['x-frame-options', 'DENY'],
      ]);
    }
  }, 120_000); // two rounds of three builds of 200 pages each: past 30 s on a loaded 2-core machine

  const insertAfterBody = (rel: string, text: string) => (root: string) =>
    writeFileSync(
      path.join(root, rel),
      readFileSync(path.join(root, rel), 'utf8').replace('<body>\n', `<body>\n${text}`),
    );

  test('an edit that moves every reference of the page down is patched', async () => {
    const before = copy(site);
    const change = insertAfterBody('pages/p00044.html', '<p>a new\nparagraph of\nthree lines</p>\n');
    edit(site, change);
    const r = await run(site);
    expect(r.patched).toBe(true);
    const pipeline = await pipelineFrom(before, change);
    await expectSameBytes(site, before);
    expect(r.diagnostics).toEqual(pipeline.diagnostics);
    await expectSameAsFullBuild(site, await fullBuildWithEdits());
  });

  test('a page with a warning is not patched once its lines move: the warning names the new line', async () => {
    // The missing image is a reference change: the pipeline builds it and records the warning's line.
    edit(site, insertAfterBody('pages/p00045.html', '<img src="/assets/img/missing.png" alt="">\n'));
    expect((await run(site)).patched).toBe(false);
    edit(site, insertAfterBody('pages/p00045.html', '<p>pushes the image down</p>\n'));
    const r = await run(site);
    expect(r.patched).toBe(false);
    const missing = r.diagnostics.find((d) => d.file === 'pages/p00045.html' && d.ref === '/assets/img/missing.png');
    const lines = readFileSync(path.join(site, 'pages/p00045.html'), 'utf8').split('\n');
    expect(missing?.line).toBe(lines.findIndex((l) => l.includes('missing.png')) + 1);
    await expectSameAsFullBuild(site, await fullBuildWithEdits());
  });

  test('a page regenerated without the registration tag is patched and gets the tag back', async () => {
    const before = copy(site);
    const rel = 'pages/p00043.html';
    const change = (root: string) =>
      writeFileSync(path.join(root, rel), `${readFileSync(path.join(pristine, rel), 'utf8')}<p>regenerated</p>\n`);
    edit(site, change);
    const r = await run(site);
    expect(r.patched).toBe(true);
    expect(r.written).toContain(rel);
    expect(readFileSync(path.join(site, rel), 'utf8')).toContain(REGISTER_TAG);
    await pipelineFrom(before, change);
    await expectSameBytes(site, before);
    await expectSameAsFullBuild(site, await fullBuildWithEdits());
    // Its new signature is recorded: the next build has nothing to do.
    expect((await run(site)).written).toEqual([]);
  });

  test('an unchanged site is a no-op and a touched page writes nothing', async () => {
    const r = await run(site);
    expect(r.patched).toBe(true);
    expect(r.written).toEqual([]);
    const now = new Date();
    const { utimesSync } = await import('node:fs');
    utimesSync(path.join(site, 'pages/p00007.html'), now, now);
    const touched = await run(site);
    expect(touched.patched).toBe(true);
    expect(touched.written).toEqual([]);
    expect(touched.buildId).toBe(r.buildId);
  });

  const fallbacks: Array<[string, (root: string) => void]> = [
    [
      'a page adds a stylesheet',
      (root) => {
        const rel = path.join(root, 'pages/p00010.html');
        writeFileSync(
          rel,
          readFileSync(rel, 'utf8').replace('<head>', '<head><link rel="stylesheet" href="/assets/css/s00135.css">'),
        );
      },
    ],
    [
      'a stylesheet changes its @import',
      (root) => {
        const rel = path.join(root, 'assets/css/s00135.css');
        writeFileSync(
          rel,
          readFileSync(rel, 'utf8').replace(
            '@import url("/assets/css/s00147.css");',
            '@import url("/assets/css/s00010.css");',
          ),
        );
      },
    ],
    ['a file is deleted', (root) => unlinkSync(path.join(root, 'assets/img/i00175.png'))],
    ['a page is deleted', (root) => unlinkSync(path.join(root, 'pages/p00150.html'))],
  ];
  test.each(fallbacks)('%s: falls back to the pipeline, then patches again', async (_name, change) => {
    edit(site, change);
    const r = await run(site);
    expect(r.patched).toBe(false);
    await expectSameAsFullBuild(site, await fullBuildWithEdits());
    // The pipeline leaves a state the next page edit is patched from.
    edit(site, appendTo('pages/p00042.html', '<p>and again</p>\n'));
    const next = await run(site);
    expect(next.patched).toBe(true);
    await expectSameAsFullBuild(site, await fullBuildWithEdits());
  });

  test('a page edit that changes its references falls back', async () => {
    edit(site, appendTo('pages/p00042.html', '<img src="/assets/img/i00001.png" alt="">\n'));
    const r = await run(site);
    expect(r.patched).toBe(false);
    await expectSameAsFullBuild(site, await fullBuildWithEdits());
  });

  test(
    'a page with inline CSS and a module script: patched ' + 'while their references stay, not once they change',
    async () => {
      // The fast path loads the inline parsers only for such pages; they must still see the references.
      const rel = 'pages/p00046.html';
      const replaceIn = (from: string, to: string) => (root: string) =>
        writeFileSync(path.join(root, rel), readFileSync(path.join(root, rel), 'utf8').replace(from, to));
      edit(
        site,
        insertAfterBody(
          rel,
          '<style>.hero { background: url(/assets/img/i00000.png) }</style>\n<p style="background: ' +
            'url(/assets/img/i00004.png)">x</p>\n<script type="module">import "/assets/js/m00003.js";</script>\n',
        ),
      );
      expect((await run(site)).patched).toBe(false);
      const before = copy(site);
      const change = insertAfterBody(rel, '<p>text only</p>\n');
      edit(site, change);
      expect((await run(site)).patched).toBe(true);
      await pipelineFrom(before, change);
      await expectSameBytes(site, before);
      for (const [from, to] of [
        ['i00000.png', 'i00006.png'],
        ['i00004.png', 'i00013.png'],
        ['m00003.js', 'm00007.js'],
      ] as const) {
        edit(site, replaceIn(from, to));
        expect((await run(site)).patched, `${from} → ${to}`).toBe(false);
      }
      await expectSameAsFullBuild(site, await fullBuildWithEdits());
    },
  );

  test(
    'the pipeline after a patch does not keep a rewritten ' + 'package on the strength of its old cache record',
    async () => {
      const rel = 'pages/p00042.html';
      const original = readFileSync(path.join(site, rel));
      // Same length: the package the patch writes has the size the cache remembers for the original.
      edit(site, (root) =>
        writeFileSync(
          path.join(root, rel),
          readFileSync(path.join(root, rel), 'utf8').replace('<title>/pages/p', '<title>/pages/P'),
        ),
      );
      expect((await run(site)).patched).toBe(true);
      edit(site, (root) => writeFileSync(path.join(root, rel), original));
      rmSync(path.join(site, STATE_FILE));
      expect((await run(site)).patched).toBe(false);
      await expectSameAsFullBuild(site, await fullBuildWithEdits());
    },
  );

  test('outputs touched since the last build are not patched', async () => {
    await appendFile(path.join(site, '_objpack/routes.json'), ' ');
    edit(site, appendTo('pages/p00042.html', '<p>once more</p>\n'));
    const r = await run(site);
    expect(r.patched).toBe(false);
    await expectSameAsFullBuild(site, await fullBuildWithEdits());
  });

  const pageRel = 'pages/p00042.html';
  /** The page's package file, as the manifest names it. */
  const packageOf = (root: string, rel: string) =>
    path.join(root, readManifest(root).pages[`/${rel}`]!.package.slice(1));

  test(
    'a patch killed after writing a package, then the ' + 'edit reverted: the package gets the reverted HTML',
    async () => {
      const original = readFileSync(path.join(site, pageRel));
      // What a patch killed after its package write leaves: the new package, the old state, manifest, route
      // table and report (same inodes and mtimes), and the null mark it wrote first.
      const kept = [STATE_FILE, 'objpack-manifest.json', '_objpack/routes.json', 'objpack-report.html'];
      kept.forEach((f, i) => linkSync(path.join(site, f), path.join(dir, `kept-${i}`)));
      // Same length: the package keeps its size, so only the null mark tells the next build.
      edit(site, (root) =>
        writeFileSync(
          path.join(root, pageRel),
          readFileSync(path.join(root, pageRel), 'utf8').replace('<title>/pages/p', '<title>/pages/Q'),
        ),
      );
      expect((await run(site)).patched).toBe(true);
      kept.forEach((f, i) => renameSync(path.join(dir, `kept-${i}`), path.join(site, f)));
      writeFileSync(
        path.join(site, '_objpack/.cache-updates.json'),
        JSON.stringify({ [`/_objpack/pages/${pageRel}.objp`]: null }),
      );
      edit(site, (root) => writeFileSync(path.join(root, pageRel), original));
      const r = await run(site);
      expect(r.patched).toBe(false);
      await expectSameAsFullBuild(site, await fullBuildWithEdits());
    },
  );

  test('an unreadable .cache-updates.json is not patched', async () => {
    writeFileSync(path.join(site, '_objpack/.cache-updates.json'), '{"cut');
    edit(site, appendTo(pageRel, '<p>after a cut file</p>\n'));
    expect((await run(site)).patched).toBe(false);
    await expectSameAsFullBuild(site, await fullBuildWithEdits());
  });

  test('a deleted shared package is written again', async () => {
    const shared = readdirSync(path.join(site, '_objpack/shared'));
    expect(shared.length).toBeGreaterThan(0);
    unlinkSync(path.join(site, '_objpack/shared', shared[0]!));
    edit(site, appendTo(pageRel, '<p>shared gone</p>\n'));
    expect((await run(site)).patched).toBe(false);
    expect(existsSync(path.join(site, '_objpack/shared', shared[0]!))).toBe(true);
    await expectSameAsFullBuild(site, await fullBuildWithEdits());
  });

  test("a touched page's deleted package is written again", async () => {
    unlinkSync(packageOf(site, 'pages/p00007.html'));
    const now = new Date();
    const { utimesSync } = await import('node:fs');
    utimesSync(path.join(site, 'pages/p00007.html'), now, now);
    expect((await run(site)).patched).toBe(false);
    expect(existsSync(packageOf(site, 'pages/p00007.html'))).toBe(true);
    await expectSameAsFullBuild(site, await fullBuildWithEdits());
  });

  test.each(['objpack-manifest.json', '_objpack/routes.json'])(
    'a %s the patch cannot edit falls back before anything is written',
    async (rel) => {
      expect((await run(site)).patched).toBe(true);
      // Same content, another layout; the state is told it is the build's own output.
      const file = path.join(site, rel);
      const text = readFileSync(file, 'utf8');
      writeFileSync(
        file,
        rel.endsWith('routes.json') ? JSON.stringify(JSON.parse(text), null, 1) : JSON.stringify(JSON.parse(text)),
      );
      const state = loadState(site)!;
      await saveState(site, { ...state, outputs: { ...state.outputs, ...outputSignatures(site, [rel]) } });
      edit(site, appendTo(pageRel, '<p>odd layout</p>\n'));
      const pkg = statSync(packageOf(site, pageRel));
      const ctx = await settle({
        root: site,
        workerAssets: assets,
        concurrency: 1,
        reportFile: path.join(site, 'objpack-report.html'),
      });
      expect(ctx.fingerprint).toBe(state.fingerprint);
      const patched = await patchBuild(ctx);
      expect(patched).toBeUndefined();
      const after = statSync(packageOf(site, pageRel));
      expect([after.ino, after.mtimeMs, after.size]).toEqual([pkg.ino, pkg.mtimeMs, pkg.size]);
      expect(existsSync(path.join(site, '_objpack/.cache-updates.json'))).toBe(false);
      expect((await run(site)).patched).toBe(false);
      await expectSameAsFullBuild(site, await fullBuildWithEdits());
    },
  );
});
