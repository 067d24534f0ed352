import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build } from './build.js';
import { REGISTER_TAG } from './inject/inject.js';
import { ErrorCode, ObjpackError } from './errors.js';
import { makeSite, SMALL_SITE } from './test-utils/site.js';
import { verifyOutput } from './test-utils/verify-output.js';
import { count, opts } from './test-utils/build-helpers.js';

describe('build --out', () => {
  test('writes a full copy, leaves the source untouched, and never crawls an output inside the input', async () => {
    const root = await makeSite(SMALL_SITE);
    const out = path.join(root, 'deploy');
    await build(await opts(root, { out }));
    await build(await opts(root, { out }));
    expect(await readFile(path.join(root, 'index.html'), 'utf8')).toBe(SMALL_SITE['index.html']);
    const m = await verifyOutput(out);
    expect(Object.keys(m.pages).some((p) => p.startsWith('/deploy'))).toBe(false);
    expect(await readFile(path.join(out, 'img/logo.png'))).toEqual(
      Buffer.from(SMALL_SITE['img/logo.png'] as Uint8Array),
    );
    expect(count(await readFile(path.join(out, 'index.html'), 'utf8'), REGISTER_TAG)).toBe(1);
  });

  test(
    "a second build with --out removes what it copied there before and the site no longer has; the directory's " +
      'other files stay',
    async () => {
      const root = await makeSite({
        ...SMALL_SITE,
        'about/index.html': '<!doctype html><title>about</title><img src="/about/team.png">',
        'about/team.png': 'png',
      });
      const out = await makeSite({ CNAME: 'example.com', 'about/mine.txt': 'kept' });
      await build(await opts(root, { out }));
      expect(existsSync(path.join(out, 'about/index.html'))).toBe(true);
      rmSync(path.join(root, 'about/index.html'));
      rmSync(path.join(root, 'about/team.png'));
      const second = await build(await opts(root, { out }));
      // The deleted page would otherwise be deployed from the copy, as it was.
      expect(existsSync(path.join(out, 'about/index.html'))).toBe(false);
      expect(existsSync(path.join(out, 'about/team.png'))).toBe(false);
      expect(second.removed).toEqual(expect.arrayContaining(['about/index.html', 'about/team.png']));
      expect(readFileSync(path.join(out, 'CNAME'), 'utf8')).toBe('example.com');
      expect(readFileSync(path.join(out, 'about/mine.txt'), 'utf8')).toBe('kept');
      expect(existsSync(path.join(out, 'index.html'))).toBe(true);
      // A record that names paths outside the copy is ignored, not followed.
      writeFileSync(
        path.join(out, '_objpack/.copied.json'),
        JSON.stringify(['../escape.txt', '/etc/hostname', 'a/../../b']),
      );
      writeFileSync(path.join(path.dirname(out), 'escape.txt'), 'outside');
      await build(await opts(root, { out }));
      expect(readFileSync(path.join(path.dirname(out), 'escape.txt'), 'utf8')).toBe('outside');
    },
  );

  test("a build with --out into a site built in place drops that site's incremental state before writing", async () => {
    // The state vouches for the outputs it lists; a killed --out build leaves new shared packages beside
    // them, which a patch (it never looks for stale packages) would keep for ever.
    const target = await makeSite(SMALL_SITE);
    await build(await opts(target));
    const state = path.join(target, '_objpack', '.state.v8');
    expect(existsSync(state)).toBe(true);
    await build(await opts(await makeSite(SMALL_SITE), { out: target }));
    expect(existsSync(state)).toBe(false);
  });

  test('bad input: missing directory, a file, an empty directory, --out above the input, --out a file', async () => {
    const root = await makeSite(SMALL_SITE);
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: unknown) => (e instanceof ObjpackError ? e.code : String(e)),
      );
    expect(await code(build(await opts(path.join(root, 'nope'))))).toBe(ErrorCode.INPUT_NOT_FOUND);
    expect(await code(build(await opts(path.join(root, 'index.html'))))).toBe(ErrorCode.INPUT_NOT_DIRECTORY);
    expect(await code(build(await opts(await makeSite({}))))).toBe(ErrorCode.NO_PAGES);
    expect(await code(build(await opts(path.join(root, 'css'), { out: root })))).toBe(ErrorCode.OUT_CONTAINS_INPUT);
    // Not an ENOTDIR from deep in the writer (a stack trace on the command line, exit 1); the file is kept.
    const file = path.join(await makeSite({}), 'deploy');
    writeFileSync(file, 'mine');
    expect(await code(build(await opts(root, { out: file })))).toBe(ErrorCode.USAGE);
    expect(await code(build(await opts(root, { out: path.join(file, 'sub') })))).toBe(ErrorCode.USAGE);
    expect(readFileSync(file, 'utf8')).toBe('mine');
  });
});
