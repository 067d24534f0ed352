import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build } from './build.js';
import { inspectPackage } from './inspect/inspect-package.js';
import { REGISTER_TAG } from './inject/inject.js';
import { ErrorCode } from './errors.js';
import { fakeWorkerAssets, makeSite, SMALL_SITE, writeFiles } from './test-utils/site.js';
import { listFiles, verifyOutput } from './test-utils/verify-output.js';
import { count, opts } from './test-utils/build-helpers.js';

describe('build (in place)', () => {
  test('writes decodable packages, manifest, routes, headers, push manifest, report and worker', async () => {
    const root = await makeSite(SMALL_SITE);
    const r = await build(await opts(root));
    const manifest = await verifyOutput(root);
    expect(manifest.buildId).toBe(r.buildId);
    expect(Object.keys(manifest.pages).sort()).toEqual(['/', '/about/', '/blog.html']);
    const files = await listFiles(root);
    for (const f of [
      'objpack-manifest.json',
      '_objpack/routes.json',
      '_headers',
      'push-manifest.json',
      'objpack-sw.js',
      'objpack-register.js',
    ])
      expect(files).toContain(f);
    // The page package carries the page (with the tag) and its own image; shared objects are referenced.
    const home = await inspectPackage(path.join(root, manifest.pages['/']!.package.slice(1)));
    expect(home.buildId).toBe(r.buildId);
    expect(home.objects.map((o) => o.name)).toEqual(['/', '/img/home.png']);
    expect(home.sharedRefs).toEqual(manifest.pages['/']!.shared);
    expect(manifest.pages['/']!.closure).toEqual([
      '/',
      '/css/site.css',
      '/css/base.css',
      '/fonts/x.woff2',
      '/js/app.js',
      '/js/lib.js',
      '/img/logo.png',
      '/img/home.png',
    ]);
    const headers = await readFile(path.join(root, '_headers'), 'utf8');
    expect(headers).toContain('</fonts/x.woff2>; rel=preload; as=font; crossorigin');
    expect(headers).toMatch(/\/_objpack\/shared\/\*\n {2}Cache-Control: public, max-age=31536000, immutable/);
    const push = JSON.parse(await readFile(path.join(root, 'push-manifest.json'), 'utf8'));
    expect(push['/']['/css/site.css']).toEqual({ type: 'style', weight: 1 });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['OBJPACK_W_MISSING_REF']);
    expect(r.summary.missingReferences).toBe(1);
    expect(await readFile(r.report!, 'utf8')).toMatch(/<svg[^>]*>.*\/img\/missing\.png/s);
  });

  test(
    'a crossorigin stylesheet or script is announced with ' + 'its request mode (else the browser fetches twice)',
    async () => {
      const root = await makeSite({
        'index.html':
          '<!doctype html><link rel="stylesheet" href="/a.css" crossorigin><link rel="stylesheet" ' +
          'href="/b.css"><script src="/c.js" crossorigin="use-credentials"></script>',
        'a.css': 'a{}',
        'b.css': 'b{}',
        'c.js': '1',
      });
      await build(await opts(root));
      const manifest = await verifyOutput(root);
      expect(manifest.pages['/']!.critical).toEqual([
        { path: '/a.css', as: 'style', cors: 'anonymous' },
        { path: '/b.css', as: 'style' },
        { path: '/c.js', as: 'script', cors: 'use-credentials' },
      ]);
      const headers = await readFile(path.join(root, '_headers'), 'utf8');
      expect(headers).toContain(
        '</a.css>; rel=preload; as=style; crossorigin, </b.css>; rel=preload; as=style, </c.js>; rel=preload; ' +
          'as=script; crossorigin=use-credentials',
      );
    },
  );

  test('a windows-1252 page keeps its bytes on disk and in its package, and is not labelled UTF-8', async () => {
    const legacy = Buffer.concat([
      Buffer.from('<!doctype html><meta charset="windows-1252"><title>Caf'),
      Buffer.from([0xe9]),
      Buffer.from(
        '</title><link rel="stylesheet" href="/l.css"><link rel="stylesheet" href="/u.css"><img src="/a.png">',
      ),
    ]);
    const latin1Css = Buffer.concat([
      Buffer.from('@charset "iso-8859-1"; a::after { content: "caf'),
      Buffer.from([0xe9]),
      Buffer.from('" }'),
    ]);
    const root = await makeSite({
      'index.html': legacy,
      'utf8.html': '<!doctype html><title>café</title>',
      'a.png': 'png',
      'l.css': latin1Css,
      'u.css': 'a::after { content: "café" }',
    });
    await build(await opts(root));
    const manifest = await verifyOutput(root);
    const onDisk = await readFile(path.join(root, 'index.html'));
    expect(onDisk.equals(Buffer.from(legacy.toString('latin1').replace('<img', `${REGISTER_TAG}<img`), 'latin1'))).toBe(
      true,
    );
    expect(manifest.objects['/']!.contentType).toBe('text/html');
    expect(manifest.objects['/utf8.html']!.contentType).toBe('text/html; charset=utf-8');
    // Stylesheets likewise: only bytes that are UTF-8 are labelled so.
    expect(manifest.objects['/l.css']!.contentType).toBe('text/css');
    expect(manifest.objects['/u.css']!.contentType).toBe('text/css; charset=utf-8');
    // Files over 1 MB (read in chunks): a euro sign across the first chunk boundary is still UTF-8, a
    // latin-1 byte far into the file is not.
    const pad = (n: number) => `/*${'x'.repeat(n - 4)}*/`;
    await writeFiles(root, {
      // The euro sign is bytes 1 MiB − 1 … 1 MiB + 1.
      'big-u.js': Buffer.from(`${pad((1 << 20) - 1 - 'const euro = "'.length)}const euro = "€";\n`),
      'big-l.js': Buffer.concat([
        Buffer.from(`${pad(3 << 19)}const s = "caf`),
        Buffer.from([0xe9]),
        Buffer.from('";\n'),
      ]),
      'big.html': '<!doctype html><title>big</title><script src="/big-u.js"></script><script src="/big-l.js"></script>',
    });
    await build(await opts(root));
    const withBig = await verifyOutput(root);
    expect(withBig.objects['/big-u.js']!.contentType).toBe('text/javascript; charset=utf-8');
    expect(withBig.objects['/big-l.js']!.contentType).toBe('text/javascript');
    // The worker answers navigations before the package's index: the route table names the odd page's type.
    expect(JSON.parse(await readFile(path.join(root, '_objpack/routes.json'), 'utf8')).htmlTypes).toEqual({
      '/': 'text/html',
    });
    const pkg = await inspectPackage(path.join(root, manifest.pages['/']!.package.slice(1)));
    expect(pkg.objects[0]).toMatchObject({ name: '/', contentType: 'text/html', size: onDisk.length });
    // Again from the build cache: the same type.
    await writeFiles(root, { 'a.png': 'png2' });
    await build(await opts(root));
    expect((await verifyOutput(root)).objects['/']!.contentType).toBe('text/html');
  });

  test('injects the registration tag once, on disk and in the package; rebuilding is idempotent', async () => {
    const root = await makeSite(SMALL_SITE);
    const first = await build(await opts(root));
    const html = await readFile(path.join(root, 'index.html'), 'utf8');
    expect(count(html, REGISTER_TAG)).toBe(1);
    expect(html.indexOf(REGISTER_TAG)).toBeLessThan(html.indexOf('</head>'));
    const before = await listFiles(root);
    const bytes = await Promise.all(before.map((f) => readFile(path.join(root, f))));
    const second = await build(await opts(root));
    const third = await build(await opts(root, { cache: false }));
    expect(second.buildId).toBe(first.buildId);
    expect(third.buildId).toBe(first.buildId);
    expect(second.written).toEqual([]);
    expect(count(await readFile(path.join(root, 'index.html'), 'utf8'), REGISTER_TAG)).toBe(1);
    const after = await listFiles(root);
    expect(after).toEqual(before);
    // Dotfiles under _objpack/ are the build's private caches (.cache.v8, incremental state).
    for (const [i, f] of after.entries())
      if (!f.startsWith('_objpack/.')) expect(await readFile(path.join(root, f)), f).toEqual(bytes[i]);
  });

  test(
    'incremental: pages the build injected, touched pages ' + 'and unchanged pages are not re-parsed; an edited one is',
    async () => {
      const root = await makeSite(SMALL_SITE);
      const first = await build(await opts(root, { cache: false }));
      expect(first.pagesParsed).toBe(3);
      // The full build rewrote all three pages (registration tag): their new size/mtime/inode must not cost a parse.
      const second = await build(await opts(root));
      expect(second.pagesParsed).toBe(0);
      expect(second.written).toEqual([]);
      // A regenerated site: same bytes, new mtimes. Read and hashed, never parsed.
      const later = new Date(Date.now() + 5000);
      for (const f of ['index.html', 'about/index.html', 'blog.html']) utimesSync(path.join(root, f), later, later);
      const touched = await build(await opts(root));
      expect(touched.pagesParsed).toBe(0);
      expect(touched.written).toEqual([]);
      writeFileSync(
        path.join(root, 'blog.html'),
        (await readFile(path.join(root, 'blog.html'), 'utf8')).replace('</body>', '<p>edited</p></body>'),
      );
      const edited = await build(await opts(root));
      expect(edited.pagesParsed).toBe(1);
      expect(edited.written.filter((f) => f.endsWith('.objp'))).toEqual([
        `_objpack/pages/blog.html.${edited.buildId}.objp`,
      ]);
    },
  );

  test(
    'a changed page rewrites only its package; stale packages ' + 'go once the generation that named them is replaced',
    async () => {
      const root = await makeSite(SMALL_SITE);
      const first = await build(await opts(root));
      await writeFiles(root, {
        'blog.html': (SMALL_SITE['blog.html'] as string).replace('Blog', 'Blog 2'),
        'css/base.css': 'body{margin:1px}',
      });
      const second = await build(await opts(root));
      expect(second.buildId).not.toBe(first.buildId);
      const m = await verifyOutput(root);
      const old = Object.keys(first.manifest.packages)
        .filter((u) => !m.packages[u])
        .map((u) => u.slice(1));
      expect(old.filter((f) => f.includes('/shared/')).length).toBeGreaterThan(0);
      expect(old).toContain(first.manifest.pages['/blog.html']!.package.slice(1));
      // A worker holding the first build's route table still finds every package it names.
      expect(second.removed).toEqual([]);
      for (const f of old) expect(existsSync(path.join(root, f)), f).toBe(true);
      await writeFiles(root, { 'blog.html': (SMALL_SITE['blog.html'] as string).replace('Blog', 'Blog 3') });
      const third = await build(await opts(root));
      expect(third.removed.sort()).toEqual(old.sort());
      expect((await listFiles(root)).filter((f) => f.includes('.objpack-tmp-'))).toEqual([]);
    },
  );

  test('a throw at any write leaves the previous output valid; the next build completes it', async () => {
    const root = await makeSite(SMALL_SITE);
    await build(await opts(root));
    const edit = {
      'about/index.html': (SMALL_SITE['about/index.html'] as string).replace('About', 'About us'),
      'css/site.css': 'body{color:red}',
    };
    await writeFiles(root, edit);
    let total = 0;
    await build(
      await opts(root, {
        cache: false,
        onProgress: (p) => void (p.phase === 'write' && (total = Math.max(total, p.done))),
      }),
    );
    const reference = await verifyOutput(root);
    // Back to the first site, then fail the build to the edited site at every single write.
    for (let n = 1; n <= total; n++) {
      await writeFiles(root, {
        'about/index.html': SMALL_SITE['about/index.html']!,
        'css/site.css': SMALL_SITE['css/site.css']!,
      });
      await build(await opts(root, { cache: false }));
      const previous = await verifyOutput(root);
      await writeFiles(root, edit);
      const failing = build(
        await opts(root, {
          cache: false,
          onProgress: (p) => {
            if (p.phase === 'write' && p.done === n) throw new Error(`stop at ${n}`);
          },
        }),
      );
      await expect(failing).rejects.toThrow(`stop at ${n}`);
      // Page packages written before the failure have names no table knows yet: the previous table still holds.
      const still = await verifyOutput(root);
      // Until the manifest is replaced (the last write), the previous manifest is the one in place.
      expect(still.buildId === previous.buildId || still.buildId === reference.buildId).toBe(true);
      expect((await listFiles(root)).filter((f) => f.includes('.objpack-tmp-'))).toEqual([]);
    }
    await build(await opts(root));
    expect((await verifyOutput(root)).buildId).toBe(reference.buildId);
  });

  test('large audio/video is packaged as a prefix with the partial flag', async () => {
    const root = await makeSite({
      'index.html':
        '<!doctype html><html><head><title>v</title></head><body><video src="/v.mp4"></video></body></html>',
      'v.mp4': new Uint8Array(300_000).map((_, i) => i % 251),
    });
    const r = await build(await opts(root, { partialThreshold: 100_000 }));
    const pkg = await inspectPackage(path.join(root, r.manifest.pages['/']!.package.slice(1)));
    const v = pkg.objects.find((o) => o.name === '/v.mp4')!;
    expect(v).toMatchObject({ partial: true, size: 100_000, totalSize: 300_000, verified: true });
    expect(r.manifest.objects['/v.mp4']!.bytes).toBe(300_000);
  });

  test('--unregister writes the self-unregistering worker; --no-inject leaves pages alone', async () => {
    const root = await makeSite(SMALL_SITE);
    const assets = await fakeWorkerAssets();
    await build({ root, workerAssets: assets, unregister: true, inject: false });
    expect(await readFile(path.join(root, 'objpack-sw.js'), 'utf8')).toBe('/* unregister */');
    expect(await readFile(path.join(root, 'index.html'), 'utf8')).toBe(SMALL_SITE['index.html']);
  });

  test(
    'a site file that changes between hashing and packaging ' + 'fails the build instead of shipping a lying package',
    async () => {
      const root = await makeSite(SMALL_SITE);
      let changed = false;
      const p = build(
        await opts(root, {
          onProgress: (e) => {
            if (e.phase === 'plan' && !changed) {
              changed = true;
              writeFileSync(path.join(root, 'img/home.png'), new Uint8Array(3000).fill(9));
            }
          },
        }),
      );
      await expect(p).rejects.toMatchObject({ code: ErrorCode.SOURCE_CHANGED });
    },
  );
});
