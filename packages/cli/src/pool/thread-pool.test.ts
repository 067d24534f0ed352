import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalHtml } from '../inject/inject.js';
import { extractCss, type CssExtract } from '../discover/css-extract.js';
import { extractJs, jsReady } from '../discover/js-extract.js';
import { extractPage } from '../discover/page-extract.js';
import { INLINE_PARSERS } from './pool-jobs.js';
import { ThreadPool } from './thread-pool.js';
import { compilePoolWorker } from '../test-utils/pool-worker.js';
import { contentHash, decodeCss, decodeHtml } from '../discover/read-site-file.js';

const PAGES = [
  'html-elements/site/index.html',
  'css-references/site/index.html',
  'js-modules/site/index.html',
  'bad-input/site/index.html',
].map((p) => fileURLToPath(new URL(`../../../../fixtures/closure/${p}`, import.meta.url)));

const fixture = (p: string) => fileURLToPath(new URL(`../../../../fixtures/closure/${p}`, import.meta.url));
const ASSETS = ['css/base.css', 'css/print.css', 'css/nested/deep.css', 'css/site.css'].map((p) =>
  fixture(`css-references/site/${p}`),
);
const MODULES = ['js/a.js', 'js/b.js', 'js/lazy-dep.js'].map((p) => fixture(`js-modules/site/${p}`));

describe('ThreadPool worker threads', () => {
  let dir: string;
  let workerUrl: URL;
  beforeAll(async () => {
    ({ dir, workerUrl } = await compilePoolWorker('objpack-worker-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('parses pages on 2 threads exactly as in-process, with content hashes', async () => {
    await jsReady;
    const pool = await ThreadPool.create(3, workerUrl);
    try {
      expect(pool.threads).toBe(0); // started lazily, after the first few pages
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => pool.parse(PAGES[i % PAGES.length] as string, true)),
      );
      expect(pool.threads).toBe(2);
      results.forEach((r, i) => {
        const bytes = readFileSync(PAGES[i % PAGES.length] as string);
        expect(r).toEqual({ id: i, hash: contentHash(bytes), extract: extractPage(decodeHtml(bytes), INLINE_PARSERS) });
      });
    } finally {
      await pool.close();
    }
  });

  it(
    "parses stylesheets and modules, and digests pages' final " +
      'HTML, on threads exactly as in-process (batched answers)',
    async () => {
      await jsReady;
      const pool = await ThreadPool.create(3, workerUrl);
      try {
        const pages = await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            pool.parse(PAGES[i % PAGES.length] as string, false, undefined, i % 2 ? 'inject' : 'plain'),
          ),
        );
        expect(pool.threads).toBe(2);
        pages.forEach((r, i) => {
          const bytes = readFileSync(PAGES[i % PAGES.length] as string);
          const f = finalHtml(bytes, i % 2 === 1);
          const final = r.error ? undefined : r.final;
          expect(final).toEqual({
            sha256: f.sha256,
            bytes: f.body.length,
            source: bytes.length,
            changed: f.changed,
            type: f.contentType,
          });
          expect(final?.changed).toBe(i % 2 === 1); // no fixture page loads the registration script yet
        });
        // A latin-1 sheet too: threads decode stylesheets as the main thread does (@charset, windows-1252).
        const latin1 = path.join(dir, 'latin1.css');
        writeFileSync(latin1, Buffer.from('@charset "iso-8859-1";\na { background: url(caf\xe9.png) }', 'latin1'));
        const assets = [
          ...ASSETS.map((f) => [f, 'css'] as const),
          [latin1, 'css'] as const,
          ...MODULES.map((f) => [f, 'js'] as const),
        ];
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            pool.asset(assets[i % assets.length]![0], assets[i % assets.length]![1], true),
          ),
        );
        results.forEach((r, i) => {
          const [file, as] = assets[i % assets.length]!;
          const bytes = readFileSync(file);
          expect(r).toEqual({
            id: r.id,
            hash: contentHash(bytes),
            extract: as === 'css' ? extractCss(decodeCss(bytes)) : extractJs(bytes.toString('utf8')),
          });
        });
        expect((results[ASSETS.length] as { extract: CssExtract }).extract.refs).toContainEqual(
          expect.objectContaining({ v: 'café.png' }),
        );
        expect((await pool.asset(path.join(dir, 'gone.css'), 'css', false)).error).toMatchObject({ code: 'ENOENT' });
      } finally {
        await pool.close();
      }
    },
  );

  it('parses on the calling thread when a worker dies, instead of hanging', async () => {
    const crashing = path.join(dir, 'crashing-worker.mjs');
    writeFileSync(
      crashing,
      "import { parentPort } from 'node:worker_threads';\nparentPort.once('message', () => { throw new " +
        "Error('boom'); });\n",
    );
    const pool = await ThreadPool.create(3, pathToFileURL(crashing));
    try {
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => pool.parse(PAGES[i % PAGES.length] as string, false)),
      );
      for (const [i, r] of results.entries())
        expect(r).toEqual({
          id: i,
          hash: '',
          extract: extractPage(decodeHtml(readFileSync(PAGES[i % PAGES.length] as string)), INLINE_PARSERS),
        });
      expect(pool.threads).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('reports a missing file as an error result, not a crash', async () => {
    const pool = await ThreadPool.create(2, workerUrl);
    try {
      const results = await Promise.all(
        Array.from({ length: 60 }, () => pool.parse(path.join(dir, 'gone.html'), false)),
      );
      expect(pool.threads).toBe(1);
      for (const r of results) expect(r.error).toMatchObject({ code: 'ENOENT' });
    } finally {
      await pool.close();
    }
  });
});
