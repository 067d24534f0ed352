import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { decodeStream } from '@objpack/format';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build } from '../build.js';
import { ThreadPool } from '../pool/thread-pool.js';
import { ErrorCode, ObjpackError } from '../errors.js';
import type { PlanObject } from '../plan/types.js';
import { compilePoolWorker } from '../test-utils/pool-worker.js';
import { fakeWorkerAssets, makeSite, SMALL_SITE, writeFiles } from '../test-utils/site.js';
import { listFiles } from '../test-utils/verify-output.js';
import { TEMP_MARK } from './atomic-write.js';
import { REGISTER_TAG, injectRegister } from '../inject/inject.js';
import type { WriteJob } from './write-job.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest();

function object(file: string, url: string, body: Uint8Array, extra: Partial<PlanObject> = {}): PlanObject {
  return {
    url,
    path: url,
    file,
    rel: url.slice(1),
    bytes: body.length,
    contentType: 'text/html',
    as: 'document',
    sendBytes: body.length,
    digest: sha(body),
    sri: '',
    ...extra,
  };
}

async function entries(file: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const dec = new TextDecoder();
  for await (const ev of decodeStream(
    (async function* () {
      yield new Uint8Array(await readFile(file));
    })(),
  )) {
    if (ev.type === 'data') out.set(ev.entry.name, (out.get(ev.entry.name) ?? '') + dec.decode(ev.bytes));
  }
  return out;
}

describe('package writes on worker threads', () => {
  let dir: string;
  let pool: ThreadPool;
  beforeAll(async () => {
    let workerUrl: URL;
    ({ dir, workerUrl } = await compilePoolWorker('objpack-write-'));
    pool = await ThreadPool.create(3, workerUrl);
    // Threads start after the first few jobs: warm the pool so the writes below cross to a worker.
    const page = path.join(dir, 'warm.html');
    writeFileSync(page, '<p>warm</p>');
    await Promise.all(Array.from({ length: 60 }, () => pool.parse(page, false)));
    expect(pool.threads).toBe(2);
  });
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a worker encodes the package and stages the injected page; the files decode and match', async () => {
    const site = mkdtempSync(path.join(dir, 'site-'));
    const html = '<!doctype html><html><head><title>t</title></head><body><p>hi</p></body></html>';
    writeFileSync(path.join(site, 'a.html'), html);
    writeFileSync(path.join(site, 'a.css'), 'p{color:red}');
    const injected = Buffer.from(injectRegister(html)!);
    const jobs: WriteJob[] = Array.from({ length: 8 }, (_, i) => ({
      target: path.join(site, `_objpack/pages/a${i}.objp`),
      buildId: 'b1',
      sharedRefs: [],
      objects: [
        object(path.join(site, 'a.html'), '/a.html', injected, { inject: '/' }),
        object(path.join(site, 'a.css'), '/a.css', Buffer.from('p{color:red}'), { contentType: 'text/css' }),
      ],
      html: path.join(site, 'a.html'),
    }));
    const done = await Promise.all(jobs.map((j) => pool.write(j)));
    for (const [i, d] of done.entries()) {
      expect(d.htmlTemp).toContain(TEMP_MARK);
      expect(readFileSync(d.htmlTemp!, 'utf8')).toContain(REGISTER_TAG);
      expect(d.htmlBytes).toBe(injected.length);
      const body = readFileSync(jobs[i]!.target);
      expect(d.bytes).toBe(body.length);
      expect(d.digest).toBe(`sha256-${sha(body).toString('base64')}`);
      expect(await entries(jobs[i]!.target)).toEqual(
        new Map([
          ['/a.html', injected.toString()],
          ['/a.css', 'p{color:red}'],
        ]),
      );
    }
    // The page itself is untouched until the caller renames a staged copy over it.
    expect(readFileSync(path.join(site, 'a.html'), 'utf8')).toBe(html);
    await rename(done[0]!.htmlTemp!, path.join(site, 'a.html'));
    expect(readFileSync(path.join(site, 'a.html'), 'utf8')).toBe(injected.toString());
  });

  test('failures in a worker reject with catalog codes and leave no temporary file', async () => {
    const site = mkdtempSync(path.join(dir, 'site-'));
    writeFileSync(path.join(site, 'a.html'), '<p>a</p>');
    writeFileSync(path.join(site, 'not-a-dir'), 'x');
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: unknown) => (e instanceof ObjpackError ? e.code : String(e)),
      );
    const a = object(path.join(site, 'a.html'), '/a.html', Buffer.from('<p>a</p>'));
    const target = path.join(site, '_objpack/a.objp');
    // A site file that changed since it was hashed, and one that vanished.
    expect(
      await code(
        pool.write({
          target,
          buildId: 'b',
          sharedRefs: [],
          objects: [{ ...a, digest: sha(Buffer.from('other')) }],
          html: path.join(site, 'a.html'),
        }),
      ),
    ).toBe(ErrorCode.SOURCE_CHANGED);
    expect(
      await code(
        pool.write({
          target,
          buildId: 'b',
          sharedRefs: [],
          objects: [a, object(path.join(site, 'gone.css'), '/gone.css', Buffer.from('x'))],
        }),
      ),
    ).toBe(ErrorCode.SOURCE_CHANGED);
    // An output that cannot be written: the staged page (written first, on the worker) is removed again.
    expect(
      await code(
        pool.write({
          target: path.join(site, 'not-a-dir/a.objp'),
          buildId: 'b',
          sharedRefs: [],
          objects: [a],
          html: path.join(site, 'a.html'),
        }),
      ),
    ).toBe(ErrorCode.WRITE);
    expect(
      await code(
        pool.write({ target, buildId: 'b', sharedRefs: [], objects: [a], html: path.join(site, 'not-a-dir/a.html') }),
      ),
    ).toBe(ErrorCode.WRITE);
    expect((await listFiles(site)).filter((f) => f.includes(TEMP_MARK))).toEqual([]);
  });
});

test('a build whose package writes fail throws OBJPACK_E_WRITE and leaves no staged page behind', async () => {
  const root = await makeSite(SMALL_SITE);
  const before = await readFile(path.join(root, 'index.html'), 'utf8');
  // A file where the page packages' directory goes: every page package write fails.
  await writeFiles(root, { '_objpack/pages': 'in the way' });
  const p = build({ root, workerAssets: await fakeWorkerAssets(), cache: false });
  await expect(p).rejects.toMatchObject({ code: ErrorCode.WRITE });
  expect((await listFiles(root)).filter((f) => f.includes(TEMP_MARK))).toEqual([]);
  expect(await readFile(path.join(root, 'index.html'), 'utf8')).toBe(before);
});
