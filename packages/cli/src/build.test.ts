import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { Decoder, type PackageIndex } from '@objpack/format';
import { serve } from '@objpack/serve';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build, type BuildOptions } from './build.js';
import { inspectPackage } from './emit/inspect-package.js';
import { REGISTER_TAG } from './emit/inject.js';
import { ErrorCode, ObjpackError } from './errors.js';
import type { HostTarget } from './hosts/index.js';
import { fakeWorkerAssets, makeSite, SMALL_SITE, writeFiles } from './test-utils/site.js';
import { listFiles, verifyOutput } from './test-utils/verify-output.js';

const opts = async (root: string, extra: Partial<BuildOptions> = {}): Promise<BuildOptions> => ({
  root,
  workerAssets: await fakeWorkerAssets(),
  ...extra,
});
/** A project directory holding `files` and a built site in `dist/`, with the build running from the project (`npx objpack build dist/`). */
const inProject = async (
  files: Record<string, string>,
  run: (project: string, root: string) => Promise<void>,
): Promise<void> => {
  const project = await makeSite(files);
  const root = path.join(project, 'dist');
  await writeFiles(root, {
    'index.html': '<!doctype html><title>a</title>',
    'b.html': '<!doctype html><title>b</title>',
  });
  const cwd = process.cwd();
  process.chdir(project);
  try {
    await run(project, root);
  } finally {
    process.chdir(cwd);
  }
};
const count = (s: string, sub: string) => s.split(sub).length - 1;
/** The index entries of a package file. */
const decodeAll = async (file: string): Promise<PackageIndex['entries']> => {
  let index: PackageIndex | undefined;
  const d = new Decoder({ onIndex: (i) => void (index = i) });
  d.push(await readFile(file));
  d.end();
  return index!.entries;
};

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

  test('a crossorigin stylesheet or script is announced with its request mode (else the browser fetches twice)', async () => {
    const root = await makeSite({
      'index.html':
        '<!doctype html><link rel="stylesheet" href="/a.css" crossorigin><link rel="stylesheet" href="/b.css"><script src="/c.js" crossorigin="use-credentials"></script>',
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
      '</a.css>; rel=preload; as=style; crossorigin, </b.css>; rel=preload; as=style, </c.js>; rel=preload; as=script; crossorigin=use-credentials',
    );
  });

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
      'big-u.js': Buffer.from(`${pad((1 << 20) - 1 - 'const euro = "'.length)}const euro = "€";\n`), // bytes 1 MiB − 1 … 1 MiB + 1
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

  test("pages carry the host's headers from the user's _headers into their packages; an edit to them rewrites the packages", async () => {
    // Connection headers in `_headers` are left out (the encoder refuses `Upgrade`; HTTP/2 throws on `TE`).
    const root = await makeSite({
      'index.html': '<!doctype html><title>a</title>',
      'b.html': '<!doctype html><title>b</title>',
      'f.css': 'p{}',
      _headers:
        "/*\n  Content-Security-Policy: default-src 'self'\n/b.html\n  Upgrade: h2c\n  TE: gzip\n/f.css\n  Access-Control-Allow-Origin: *\n  Cache-Control: max-age=60\n",
    });
    const options = await opts(root);
    await build(options);
    let manifest = await verifyOutput(root);
    const csp: Array<[string, string]> = [['content-security-policy', "default-src 'self'"]];
    expect(manifest.objects['/']!.headers).toEqual(csp);
    expect(manifest.objects['/b.html']!.headers).toEqual(csp);
    expect(JSON.parse(await readFile(path.join(root, '_objpack/routes.json'), 'utf8')).htmlHeaders).toEqual({
      sets: [csp],
      pages: { '/': 0, '/b.html': 0 },
    });
    const pkg = path.join(root, manifest.pages['/']!.package.slice(1));
    expect((await decodeAll(pkg))[0]!.headers).toEqual(csp);
    // objpack serve sends them with the page as the host would.
    const server = await serve({ root, port: 0 });
    try {
      for (const page of ['/', '/index.html', '/b.html', '/b']) {
        expect((await fetch(new URL(page, server.url))).headers.get('content-security-policy'), page).toBe(
          "default-src 'self'",
        );
      }
      // And the rules for other files, as the host applies them (the manifest records them for it).
      const css = await fetch(new URL('/f.css', server.url));
      expect([
        css.headers.get('access-control-allow-origin'),
        css.headers.get('cache-control'),
        css.headers.get('content-security-policy'),
      ]).toEqual(['*', 'max-age=60', "default-src 'self'"]);
    } finally {
      await server.close();
    }
    expect(manifest.hostHeaders?.map((r) => r.for)).toEqual(['/*', '/b.html', '/f.css']);
    // An incremental rebuild (a page edit) keeps them.
    await writeFile(path.join(root, 'b.html'), '<!doctype html><title>b2</title>');
    expect((await build(options)).patched).toBe(true);
    expect((await verifyOutput(root)).hostHeaders).toEqual(manifest.hostHeaders);
    // The user's rules survive next to objpack's block.
    expect(await readFile(path.join(root, '_headers'), 'utf8')).toMatch(
      /^\/\*\n {2}Content-Security-Policy: default-src 'self'\n/,
    );
    await writeFile(
      path.join(root, '_headers'),
      (await readFile(path.join(root, '_headers'), 'utf8')).replace("'self'", "'none'"),
    );
    const r = await build(await opts(root));
    manifest = await verifyOutput(root);
    expect(r.written).toContain(manifest.pages['/']!.package.slice(1));
    expect((await decodeAll(path.join(root, manifest.pages['/']!.package.slice(1))))[0]!.headers).toEqual([
      ['content-security-policy', "default-src 'none'"],
    ]);
  });

  test('--target cloudflare: the host rules objpack serve applies match as Cloudflare Pages matches them, case included', async () => {
    const root = await makeSite({
      'index.html': '<!doctype html><title>a</title><link rel="stylesheet" href="/Site.css">',
      'Site.css': 'a{}',
      _headers: '/site.css\n  X-Css: 1\n',
    });
    const served = async (targets: HostTarget[]) => {
      await build(await opts(root, { targets, cache: false }));
      const server = await serve({ root, port: 0 });
      try {
        return (await fetch(new URL('/Site.css', server.url))).headers.get('x-css');
      } finally {
        await server.close();
      }
    };
    // Netlify's parser ignores case (@netlify/headers-parser: flags `iu`); Cloudflare's rules engine does not.
    expect(await served([])).toBe('1');
    expect(await served(['cloudflare'])).toBeNull();
  });

  test('on Netlify a _headers rule naming a path decoded (/café.css) applies nowhere, as there (objpack serve neither), with a warning', async () => {
    const root = await makeSite({
      'index.html': '<!doctype html><title>a</title><link rel="stylesheet" href="/café.css">',
      'café.css': 'a{}',
      _headers: '/café.css\n  X-Css: 1\n/*\n  X-All: 1\n',
    });
    const served = async (targets: HostTarget[]) => {
      const r = await build(await opts(root, { targets, cache: false }));
      const server = await serve({ root, port: 0 });
      try {
        const res = await fetch(new URL('/caf%C3%A9.css', server.url));
        return [
          res.headers.get('x-css'),
          res.headers.get('x-all'),
          r.diagnostics.filter((d) => d.code === 'OBJPACK_W_HOST_HEADERS').length,
        ];
      } finally {
        await server.close();
      }
    };
    expect(await served([])).toEqual(['1', '1', 0]);
    expect(await served(['netlify'])).toEqual([null, '1', 1]);
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

  test('incremental: pages the build injected, touched pages and unchanged pages are not re-parsed; an edited one is', async () => {
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
  });

  test('a changed page rewrites only its package; stale packages go once the generation that named them is replaced', async () => {
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
  });

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

  test('a user _headers keeps its rules; targets write vercel.json, firebase.json and an nginx include', async () => {
    const root = await makeSite({
      ...SMALL_SITE,
      _headers: '/secret\n  X-Robots-Tag: noindex\n',
      'vercel.json': '{"cleanUrls":true}',
    });
    await build(await opts(root, { targets: ['vercel', 'firebase', 'nginx'] }));
    await build(await opts(root, { targets: ['vercel', 'firebase', 'nginx'] }));
    const headers = await readFile(path.join(root, '_headers'), 'utf8');
    expect(headers.startsWith('/secret\n  X-Robots-Tag: noindex\n')).toBe(true);
    expect(count(headers, '# objpack:begin')).toBe(1);
    const vercel = JSON.parse(await readFile(path.join(root, 'vercel.json'), 'utf8'));
    expect(vercel.cleanUrls).toBe(true);
    expect(vercel.headers.find((h: { source: string }) => h.source === '/_objpack/shared/(.*)')).toBeTruthy();
    expect(new Set(vercel.headers.map((h: { source: string }) => JSON.stringify(h))).size).toBe(vercel.headers.length);
    const firebase = JSON.parse(await readFile(path.join(root, 'firebase.json'), 'utf8'));
    expect(firebase.hosting.headers.some((h: { source: string }) => h.source === '/_objpack/shared/**')).toBe(true);
    expect(await readFile(path.join(root, 'objpack-nginx.conf'), 'utf8')).toContain('location ^~ /_objpack/shared/ {');
  });

  test("vercel.json / firebase.json: the user's rules for a page objpack also has rules for survive rebuilds, go into the page's package, and objpack's stale entries go", async () => {
    const csp = { key: 'Content-Security-Policy', value: "default-src 'self'" };
    const root = await makeSite({
      ...SMALL_SITE,
      'old.html': '<!doctype html><title>old</title><link rel="stylesheet" href="/css/site.css">',
      'vercel.json': JSON.stringify({ headers: [{ source: '/', headers: [csp] }] }),
      'firebase.json': JSON.stringify({
        hosting: { public: '.', headers: [{ source: '/', headers: [{ key: 'X-Frame-Options', value: 'DENY' }] }] },
      }),
    });
    const targets: HostTarget[] = ['vercel', 'firebase'];
    const first = await build(await opts(root, { targets }));
    await rm(path.join(root, 'old.html'));
    const second = await build(await opts(root, { targets }));
    const vercel = JSON.parse(await readFile(path.join(root, 'vercel.json'), 'utf8')) as {
      headers: Array<{ source: string; headers: unknown[] }>;
    };
    // Before, objpack's Link rule for '/' replaced the user's CSP rule for '/' (same source).
    expect(vercel.headers[0]).toEqual({ source: '/', headers: [csp] });
    expect(vercel.headers.filter((h) => h.source === '/')).toHaveLength(2);
    // old.html had a Link rule after the first build; after the second, no trace of it.
    expect(first.manifest.pages['/old.html']).toBeDefined();
    expect(vercel.headers.some((h) => h.source === '/old.html')).toBe(false);
    expect(new Set(vercel.headers.map((h) => JSON.stringify(h))).size).toBe(vercel.headers.length);
    const firebase = JSON.parse(await readFile(path.join(root, 'firebase.json'), 'utf8')) as {
      hosting: { headers: Array<{ source: string }> };
    };
    expect(firebase.hosting.headers[0]).toEqual({ source: '/', headers: [{ key: 'X-Frame-Options', value: 'DENY' }] });
    expect(firebase.hosting.headers.some((h) => h.source === '/old.html')).toBe(false);
    // The page's package carries both hosts' headers; objpack's own entries (Link…) are not read back as the site's.
    const both: Array<[string, string]> = [
      ['content-security-policy', "default-src 'self'"],
      ['x-frame-options', 'DENY'],
    ];
    expect(second.manifest.objects['/']!.headers).toEqual(both);
    expect((await decodeAll(path.join(root, second.manifest.pages['/']!.package.slice(1))))[0]!.headers).toEqual(both);
    expect(second.manifest.hostHeaders?.map((r) => r.for)).toEqual(['/', '/']);
  });

  test('cleanUrls: from the option, else from vercel.json/firebase.json; recorded in the manifest and the route table', async () => {
    const routesOf = async (root: string) =>
      JSON.parse(await readFile(path.join(root, '_objpack/routes.json'), 'utf8')) as { cleanUrls?: boolean };
    const plain = await makeSite(SMALL_SITE);
    expect((await build(await opts(plain))).manifest.cleanUrls).toBeUndefined();
    expect((await routesOf(plain)).cleanUrls).toBeUndefined();
    expect((await build(await opts(plain, { cleanUrls: true }))).manifest.cleanUrls).toBe(true);
    expect((await routesOf(plain)).cleanUrls).toBe(true);
    const vercel = await makeSite({ ...SMALL_SITE, 'vercel.json': '{"cleanUrls":true}' });
    expect((await build(await opts(vercel))).manifest.cleanUrls).toBe(true);
    expect((await build(await opts(vercel, { cleanUrls: false }))).manifest.cleanUrls).toBeUndefined();
    expect((await routesOf(vercel)).cleanUrls).toBeUndefined();
    // Pages that link to /about for about.html get one warning pointing at the option, unless it was given.
    const linking = await makeSite({
      ...SMALL_SITE,
      'contact.html': '<!doctype html><title>c</title>',
      'blog.html':
        '<!doctype html><title>b</title><a href="/contact">c</a> <a href="contact?x=1#y">again</a> <a href="/contact.html">plain</a>',
    });
    const hint = (await build(await opts(linking))).diagnostics.filter((d) => d.code === 'OBJPACK_W_CLEAN_URL_LINKS');
    expect(hint.map((d) => [d.file, d.message.split(' (')[0]])).toEqual([
      ['blog.html', '1 link on 1 page name pages without .html'],
    ]);
    for (const cleanUrls of [true, false])
      expect((await build(await opts(linking, { cleanUrls }))).diagnostics.map((d) => d.code)).not.toContain(
        'OBJPACK_W_CLEAN_URL_LINKS',
      );
    // With trailingSlash as well the host redirects /about to /about/: not turned on.
    expect(
      (
        await build(
          await opts(await makeSite({ ...SMALL_SITE, 'vercel.json': '{"cleanUrls":true,"trailingSlash":true}' })),
        )
      ).manifest.cleanUrls,
    ).toBeUndefined();
    const firebase = await makeSite({ ...SMALL_SITE, 'firebase.json': '{"hosting":{"public":".","cleanUrls":true}}' });
    const fbOptions = await opts(firebase);
    expect((await build(fbOptions)).manifest.cleanUrls).toBe(true);
    // A page edit is patched, and the patch keeps it.
    await writeFile(
      path.join(firebase, 'about/index.html'),
      (await readFile(path.join(firebase, 'about/index.html'), 'utf8')).replace('<title>About', '<title>About us'),
    );
    const patched = await build(fbOptions);
    expect([patched.patched, (await verifyOutput(firebase)).cleanUrls, (await routesOf(firebase)).cleanUrls]).toEqual([
      true,
      true,
      true,
    ]);
  });

  test('cleanUrls with trailingSlash: true (Vercel, Firebase): the host serves blog.html at /blog/; recorded as cleanSlashUrls, answered there by objpack serve, and the page is not taken for redirected', async () => {
    const routesOf = async (root: string) =>
      JSON.parse(await readFile(path.join(root, '_objpack/routes.json'), 'utf8')) as {
        cleanSlashUrls?: boolean;
        cleanUrls?: boolean;
      };
    const redirected = (r: { diagnostics: Array<{ code: string }> }) =>
      r.diagnostics.filter((d) => d.code === 'OBJPACK_W_PAGES_REDIRECTED').length;
    const configs: Array<Record<string, string>> = [
      { 'vercel.json': '{"cleanUrls":true,"trailingSlash":true}' },
      { 'firebase.json': '{"hosting":{"public":".","cleanUrls":true,"trailingSlash":true}}' },
    ];
    for (const config of configs) {
      const root = await makeSite({ ...SMALL_SITE, ...config });
      const r = await build(await opts(root));
      const table = await routesOf(root);
      expect(
        [r.manifest.cleanSlashUrls, r.manifest.cleanUrls, table.cleanSlashUrls, table.cleanUrls, redirected(r)],
        Object.keys(config)[0],
      ).toEqual([true, undefined, true, undefined, 0]);
    }
    const root = await makeSite({ ...SMALL_SITE, 'vercel.json': '{"cleanUrls":true,"trailingSlash":true}' });
    const options = await opts(root);
    await build(options);
    // A page edit is patched, and the patch keeps it.
    await writeFile(
      path.join(root, 'blog.html'),
      (await readFile(path.join(root, 'blog.html'), 'utf8')).replace('<title>', '<title>News '),
    );
    const patched = await build(options);
    expect([patched.patched, (await verifyOutput(root)).cleanSlashUrls, (await routesOf(root)).cleanSlashUrls]).toEqual(
      [true, true, true],
    );
    const server = await serve({ root, port: 0 });
    try {
      const blog = await fetch(new URL('/blog/', server.url), { redirect: 'manual' });
      expect([blog.status, await blog.text()]).toEqual([200, await readFile(path.join(root, 'blog.html'), 'utf8')]);
      expect(blog.headers.get('link')).toContain('</css/site.css>; rel=preload; as=style');
      for (const url of ['/blog', '/blog.html']) {
        const r = await fetch(new URL(url, server.url), { redirect: 'manual' });
        expect([r.status, r.headers.get('location')], url).toEqual([308, '/blog/']);
      }
    } finally {
      await server.close();
    }
    // `--no-clean-urls` says the host serves no page at a clean URL.
    expect((await build(await opts(root, { cleanUrls: false }))).manifest.cleanSlashUrls).toBeUndefined();
    // Links to /blog are the host's redirect to /blog/, not a reason to suggest --clean-urls.
    const linking = await makeSite({
      ...SMALL_SITE,
      'vercel.json': '{"cleanUrls":true,"trailingSlash":true}',
      'index.html': '<!doctype html><title>h</title><a href="/blog">b</a>',
    });
    expect((await build(await opts(linking))).diagnostics.map((d) => d.code)).not.toContain(
      'OBJPACK_W_CLEAN_URL_LINKS',
    );
  });

  test("firebase.json cleanUrls/trailingSlash are recorded (firebaseUrls, {} for neither) and objpack serve redirects as Firebase's file lookup does; its header rules reach the custom 404 page as superstatic's missing.js applies them", async () => {
    const headers = [{ source: '/404.html', headers: [{ key: 'X-Robots-Tag', value: 'noindex' }] }];
    const root = await makeSite({
      ...SMALL_SITE,
      '404.html': '<!doctype html><title>Not found</title>',
      'firebase.json': JSON.stringify({ hosting: { public: '.', cleanUrls: true, trailingSlash: false, headers } }),
    });
    const r = await build(await opts(root));
    expect([r.manifest.firebaseUrls, r.manifest.hostHeaders?.map((h) => h.errorPage)]).toEqual([
      { cleanUrls: true, trailingSlash: false },
      [true],
    ]);
    // The worker's table leaves what the host redirects to the network (client-sw routes-refresh.test checks lookupRoute on these).
    const table = JSON.parse(await readFile(path.join(root, '_objpack/routes.json'), 'utf8')) as {
      redirects?: unknown;
    };
    expect(table.redirects).toEqual([
      ['\\.html$', ''],
      ['^\\/.+\\/$', ''],
    ]);
    const server = await serve({ root, port: 0 });
    try {
      for (const [url, status, location] of [
        ['/blog.html?a=1', 301, '/blog?a=1'],
        ['/blog/', 301, '/blog'],
        ['/blog', 200, null],
        ['/index.html', 301, '/'],
      ] as const) {
        const res = await fetch(new URL(url, server.url), { redirect: 'manual' });
        expect([res.status, res.headers.get('location')], url).toEqual([status, location]);
      }
      const missing = await fetch(new URL('/missing', server.url));
      expect([missing.status, missing.headers.get('x-robots-tag')]).toEqual([404, 'noindex']);
    } finally {
      await server.close();
    }
    // Without either setting Firebase's own defaults: `/blog` is no page there (objpack serve's aliases would
    // serve blog.html), a directory is redirected to its slash.
    const plain = await makeSite({
      ...SMALL_SITE,
      'guide/index.html': '<p>guide',
      'firebase.json': '{"hosting":{"public":"."}}',
    });
    expect((await build(await opts(plain))).manifest.firebaseUrls).toEqual({});
    const plainServer = await serve({ root: plain, port: 0 });
    try {
      for (const [url, status, location] of [
        ['/blog', 404, null],
        ['/blog.html', 200, null],
        ['/guide', 301, '/guide/'],
        ['/guide/', 200, null],
      ] as const) {
        const res = await fetch(new URL(url, plainServer.url), { redirect: 'manual' });
        expect([res.status, res.headers.get('location')], url).toEqual([status, location]);
      }
    } finally {
      await plainServer.close();
    }
  });

  test('bareDirUrls: from the option, else from vercel.json (unless trailingSlash: true) or firebase.json (trailingSlash: false, or cleanUrls alone); in the manifest and the route table', async () => {
    const routesOf = async (root: string) =>
      JSON.parse(await readFile(path.join(root, '_objpack/routes.json'), 'utf8')) as { bareDirUrls?: boolean };
    const bare = async (files: Record<string, string>, o: Partial<BuildOptions> = {}) => {
      const root = await makeSite({ ...SMALL_SITE, ...files });
      const r = await build(await opts(root, o));
      expect((await routesOf(root)).bareDirUrls).toBe(r.manifest.bareDirUrls);
      return r.manifest.bareDirUrls ?? false;
    };
    expect(await bare({})).toBe(false);
    expect(await bare({}, { bareDirUrls: true })).toBe(true);
    expect(await bare({ 'vercel.json': '{}' })).toBe(true);
    expect(await bare({ 'vercel.json': '{"trailingSlash":false}' })).toBe(true);
    expect(await bare({ 'vercel.json': '{"trailingSlash":true}' })).toBe(false);
    expect(await bare({ 'vercel.json': '{}' }, { bareDirUrls: false })).toBe(false);
    expect(await bare({ 'firebase.json': '{"hosting":{"public":"."}}' })).toBe(false);
    expect(await bare({ 'firebase.json': '{"hosting":{"public":".","trailingSlash":false}}' })).toBe(true);
    expect(await bare({ 'firebase.json': '{"hosting":{"public":".","cleanUrls":true}}' })).toBe(true);
    expect(await bare({ 'firebase.json': '{"hosting":{"public":".","cleanUrls":true,"trailingSlash":true}}' })).toBe(
      false,
    );
    expect(await bare({ _redirects: '/x /y 301\n' })).toBe(false);
    // Pages that link to /about for about/index.html get one warning pointing at the option, unless it or a host config decided.
    const linking = {
      'blog.html':
        '<!doctype html><title>b</title><a href="/about">a</a> <a href="about?x=1">again</a> <a href="/about/">slash</a> <a href="/about/index.html">file</a>',
    };
    const hint = async (files: Record<string, string>, o: Partial<BuildOptions> = {}) =>
      (await build(await opts(await makeSite({ ...SMALL_SITE, ...files }), o))).diagnostics
        .filter((d) => d.code === 'OBJPACK_W_BARE_DIR_LINKS')
        .map((d) => [d.file, d.message.split(' (')[0]]);
    expect(await hint(linking)).toEqual([
      ['blog.html', '1 link on 1 page name directory pages without their trailing slash'],
    ]);
    expect(await hint(linking, { bareDirUrls: false })).toEqual([]);
    expect(await hint(linking, { bareDirUrls: true })).toEqual([]);
    expect(await hint({ ...linking, 'vercel.json': '{}' })).toEqual([]);
    expect(await hint({})).toEqual([]);
    // `/index` and `/about/index` reach their pages by their file names, not as bare directory URLs.
    expect(
      await hint({ 'blog.html': '<!doctype html><title>b</title><a href="/index">i</a> <a href="/about/index">a</a>' }),
    ).toEqual([]);
    // A host config that says the host redirects decides too: no suggestion of --bare-dir-urls.
    expect(await hint({ ...linking, 'vercel.json': '{"trailingSlash":true}' })).toEqual([]);
    // --target vercel alone names the host, which serves /about (no vercel.json needed; trailing-slash-guide's
    // Vercel deploys): on, and no warning, every build (the vercel.json it writes holds objpack's entries only).
    const target = await makeSite({ ...SMALL_SITE, ...linking });
    for (let i = 0; i < 2; i++) {
      const r = await build(await opts(target, { targets: ['vercel'], cache: false }));
      expect([r.manifest.bareDirUrls, r.diagnostics.filter((d) => d.code === 'OBJPACK_W_BARE_DIR_LINKS')]).toEqual([
        true,
        [],
      ]);
    }
    // …unless the user's vercel.json sends /about to /about/; beside another host's target it stays unknown.
    expect(await bare({ 'vercel.json': '{"trailingSlash":true}' }, { targets: ['vercel'] })).toBe(false);
    expect(await bare({}, { targets: ['vercel', 'netlify'] })).toBe(false);
    expect(await hint(linking, { targets: ['vercel', 'netlify'] })).toHaveLength(1);
    // A page edit is patched, and the patch keeps it.
    const root = await makeSite({ ...SMALL_SITE, 'vercel.json': '{}' });
    const options = await opts(root);
    await build(options);
    await writeFile(
      path.join(root, 'about/index.html'),
      (await readFile(path.join(root, 'about/index.html'), 'utf8')).replace('<title>About', '<title>About us'),
    );
    const patched = await build(options);
    expect([patched.patched, (await verifyOutput(root)).bareDirUrls, (await routesOf(root)).bareDirUrls]).toEqual([
      true,
      true,
      true,
    ]);
  });

  test('host redirects: pages the host takes before its files are named in a warning and in the route table; rules that take no page stay out', async () => {
    type Routes = { redirects?: Array<[string, string]> };
    const routesOf = async (root: string) =>
      JSON.parse(await readFile(path.join(root, '_objpack/routes.json'), 'utf8')) as Routes;
    const redirected = (r: { diagnostics: Array<{ code: string; message: string }> }) =>
      r.diagnostics.filter((d) => d.code === 'OBJPACK_W_PAGES_REDIRECTED').map((d) => d.message.split(' (')[0]);
    const takes = (routes: Routes, url: string) =>
      (routes.redirects ?? []).some(([m, f]) => new RegExp(m, f).test(url));

    // Netlify / Cloudflare Pages: redirects count, a forced rewrite counts, an unforced rewrite does not.
    const netlify = await makeSite({
      ...SMALL_SITE,
      _redirects: '/blog.html /news 301\n/nothing/* /x 301\n/* /index.html 200\n/about/ /x.html 200!\n',
    });
    const options = await opts(netlify);
    const r = await build(options);
    expect(redirected(r)).toEqual(['2 pages are redirected by the host before it serves files']);
    expect(r.manifest.hostRedirects?.map((h) => h.for)).toEqual(['/blog.html', '/about/']);
    const routes = await routesOf(netlify);
    expect(['/blog.html', '/about/', '/', '/nothing/x'].map((u) => takes(routes, u))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    // A page edit is patched and the table keeps the rules.
    await writeFile(
      path.join(netlify, 'index.html'),
      (await readFile(path.join(netlify, 'index.html'), 'utf8')).replace('<title>', '<title>Home '),
    );
    expect((await build(options)).patched).toBe(true);
    expect((await routesOf(netlify)).redirects).toEqual(routes.redirects);

    // Vercel: clean URLs send /blog.html to /blog and trailingSlash: false /about/ to /about; a user redirect takes /blog.
    const vercel = await makeSite({
      ...SMALL_SITE,
      'vercel.json': JSON.stringify({
        cleanUrls: true,
        trailingSlash: false,
        redirects: [{ source: '/blog', destination: '/news' }],
      }),
    });
    const v = await build(await opts(vercel));
    // /about/ is redirected to /about, where Vercel serves the same page: the worker answers it there (bareDirUrls).
    expect(redirected(v)).toEqual(['1 page is redirected by the host before it serves files']);
    expect(v.manifest.bareDirUrls).toBe(true);
    const vr = await routesOf(vercel);
    expect(['/blog.html', '/blog', '/about/', '/about/index.html', '/'].map((u) => takes(vr, u))).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);

    // Firebase: `redirects` globs, before any file.
    const firebase = await makeSite({
      ...SMALL_SITE,
      'firebase.json': JSON.stringify({
        hosting: {
          public: '.',
          redirects: [
            { source: '/about/**', destination: '/', type: 301 },
            { source: '/gone', destination: '/' },
          ],
        },
      }),
    });
    const f = await build(await opts(firebase));
    expect(redirected(f)).toEqual(['1 page is redirected by the host before it serves files']);
    expect(f.manifest.hostRedirects?.map((h) => h.for)).toEqual(['/about/**']);

    // No rules: nothing in the manifest or the table.
    const plain = await makeSite(SMALL_SITE);
    const p = await build(await opts(plain));
    expect([p.manifest.hostRedirects, (await routesOf(plain)).redirects, redirected(p)]).toEqual([
      undefined,
      undefined,
      [],
    ]);
  });

  test('host redirects and rewrites: the manifest records them with destinations and objpack serve answers as the host would', async () => {
    const skipped = (r: { diagnostics: Array<{ code: string }> }) =>
      r.diagnostics.filter((d) => d.code === 'OBJPACK_W_HOST_ROUTES_SKIPPED').length;
    const check = async (
      root: string,
      cases: Array<[url: string, status: number, location?: string, sameAs?: string]>,
    ) => {
      const server = await serve({ root, port: 0 });
      try {
        for (const [url, status, location, sameAs] of cases) {
          const r = await fetch(new URL(url, server.url), { redirect: 'manual' });
          const body = Buffer.from(await r.arrayBuffer());
          expect([r.status, r.headers.get('location') ?? undefined], url).toEqual([status, location]);
          if (sameAs)
            expect(body.equals(Buffer.from(await (await fetch(new URL(sameAs, server.url))).arrayBuffer())), url).toBe(
              true,
            );
        }
      } finally {
        await server.close();
      }
    };

    // Netlify: unforced rules yield to files; a proxy is the host's, with a warning (and a 502 in objpack serve).
    const netlify = await makeSite({
      ...SMALL_SITE,
      _redirects:
        '/old /blog.html 301\n/news/* /about/:splat 302\n/app/* /index.html 200\n/about/ /x 301\n/api/* https://api.example.com/:splat 200\n',
    });
    const netlifyOptions = await opts(netlify);
    const n = await build(netlifyOptions);
    expect(n.manifest.hostRoutes?.map((r) => r.slice(1, 3))).toEqual([
      ['/blog.html', 301],
      ['/about/${splat}', 302],
      ['/index.html', 200],
      ['/x', 301],
      ['', 502],
    ]);
    expect(skipped(n)).toBe(1);
    await check(netlify, [
      ['/old?x=1', 301, '/blog.html?x=1'],
      ['/news/a', 302, '/about/a'],
      ['/app/deep', 200, undefined, '/'],
      ['/about/', 200],
      ['/api/x', 502],
    ]);
    // One line per rule (50,000 redirects would take eight each), and a patched build keeps them.
    const text = async () => readFile(path.join(netlify, 'objpack-manifest.json'), 'utf8');
    expect((await text()).split('\n').filter((l) => l.startsWith('    ["^')).length).toBe(5);
    await writeFile(
      path.join(netlify, 'blog.html'),
      (await readFile(path.join(netlify, 'blog.html'), 'utf8')).replace('<title>', '<title>News '),
    );
    const patched = await build(netlifyOptions);
    expect([patched.patched, JSON.parse(await text()).hostRoutes]).toEqual([true, n.manifest.hostRoutes]);

    // Vercel: clean URLs and redirects before the files, rewrites after them.
    const vercel = await makeSite({
      ...SMALL_SITE,
      'vercel.json': JSON.stringify({
        cleanUrls: true,
        redirects: [{ source: '/old/:slug', destination: '/news/:slug' }],
        rewrites: [{ source: '/r/(.*)', destination: '/about/index.html' }],
      }),
    });
    const v = await build(await opts(vercel));
    expect([v.manifest.hostRoutes?.length, skipped(v)]).toEqual([4, 0]);
    await check(vercel, [
      ['/blog.html', 308, '/blog'],
      ['/blog', 200],
      ['/old/x?a=1', 308, '/news/x?a=1'],
      ['/r/1', 200, undefined, '/about/'],
    ]);

    // Firebase: `:segments` substituted, the query kept, a function rewrite left to the host.
    const firebase = await makeSite({
      ...SMALL_SITE,
      'firebase.json': JSON.stringify({
        hosting: {
          public: '.',
          redirects: [{ source: '/old/:id', destination: '/n/:id', type: 302 }],
          rewrites: [
            { source: '/api/**', function: 'api' },
            { source: '**', destination: '/index.html' },
          ],
        },
      }),
    });
    const f = await build(await opts(firebase));
    expect(skipped(f)).toBe(1);
    await check(firebase, [
      ['/old/5?q=1', 302, '/n/5?q=1'],
      ['/missing/page', 200, undefined, '/'],
      ['/blog.html', 200],
      ['/api/x', 502],
    ]);

    // No rules: nothing recorded.
    expect((await build(await opts(await makeSite(SMALL_SITE)))).manifest.hostRoutes).toBeUndefined();
  });

  test('Firebase `:rest*` with nothing to take: objpack serve redirects `/old/` to `/new`, as superstatic compiles the destination', async () => {
    const root = await makeSite({
      ...SMALL_SITE,
      'firebase.json': JSON.stringify({
        hosting: { public: '.', redirects: [{ source: '/old/:rest*', destination: '/new/:rest*' }] },
      }),
    });
    await build(await opts(root));
    const server = await serve({ root, port: 0 });
    try {
      const got = [];
      for (const url of ['/old/', '/old', '/old/a/b/?q=1']) {
        const r = await fetch(new URL(url, server.url), { redirect: 'manual' });
        got.push([url, r.status, r.headers.get('location')]);
      }
      expect(got).toEqual([
        ['/old/', 301, '/new'],
        ['/old', 301, '/new'],
        ['/old/a/b/?q=1', 301, '/new/a/b?q=1'],
      ]);
    } finally {
      await server.close();
    }
  });

  test("a host rule applied before the files that takes objpack's own URLs (worker, route table, packages) is named with its file and line; rules that yield to files are not", async () => {
    const shadows = async (files: Record<string, string>) => {
      const r = await build(await opts(await makeSite({ ...SMALL_SITE, ...files })));
      return r.diagnostics
        .filter((d) => d.code === 'OBJPACK_W_HOST_ROUTE_SHADOWS_OWN')
        .map((d) => [d.file, d.line, /takes (\S+)/.exec(d.message)?.[1]]);
    };
    // Netlify: a forced single-page fallback takes the worker; unforced, it yields to files.
    expect(await shadows({ _redirects: '# app\n/old /new 301\n/*  /index.html  200!\n' })).toEqual([
      ['_redirects', 3, '/objpack-sw.js'],
    ]);
    expect(await shadows({ _redirects: '/*  /index.html  200\n' })).toEqual([]);
    // objpack's paths rewritten to themselves first keep them; a forced redirect of packages only names a package.
    expect(
      await shadows({
        _redirects:
          '/objpack-sw.js /objpack-sw.js 200!\n/objpack-register.js /objpack-register.js 200!\n/_objpack/* /_objpack/:splat 200!\n/* /index.html 200!\n',
      }),
    ).toEqual([]);
    expect((await shadows({ _redirects: '/_objpack/pages/* /gone 301!\n' }))[0]?.[2]).toMatch(/^\/_objpack\/pages\//);
    // A condition on the visitor makes it theirs, not every visitor's.
    expect(await shadows({ _redirects: '/* /fr/:splat 302! Country=fr\n' })).toEqual([]);
    expect(
      await shadows({
        'netlify.toml':
          '[build]\npublish = "."\n\n[[redirects]]\n  from = "/*"\n  to = "/index.html"\n  status = 200\n  force = true\n',
      }),
    ).toEqual([['netlify.toml', 5, '/objpack-sw.js']]);
    // Vercel: a redirect and a legacy route before the filesystem take it; a rewrite, cleanUrls and trailingSlash do not.
    const vercel = (config: unknown) => ({ 'vercel.json': JSON.stringify(config, null, 2) });
    expect(
      await shadows(
        vercel({
          cleanUrls: true,
          trailingSlash: true,
          headers: [{ source: '/(.*)', headers: [{ key: 'X-A', value: '1' }] }],
          redirects: [
            { source: '/old', destination: '/' },
            { source: '/(.*)', destination: 'https://new.example/$1' },
          ],
        }),
      ),
    ).toEqual([['vercel.json', 21, '/objpack-sw.js']]);
    expect(await shadows(vercel({ routes: [{ src: '/(.*)', dest: '/index.html' }] }))).toEqual([
      ['vercel.json', 4, '/objpack-sw.js'],
    ]);
    expect(
      await shadows(
        vercel({ cleanUrls: true, trailingSlash: false, rewrites: [{ source: '/(.*)', destination: '/index.html' }] }),
      ),
    ).toEqual([]);
    // Firebase: redirects come before any file, rewrites after.
    expect(
      await shadows({
        'firebase.json': JSON.stringify(
          { hosting: { public: '.', redirects: [{ source: '**', destination: '/moved', type: 301 }] } },
          null,
          2,
        ),
      }),
    ).toEqual([['firebase.json', 6, '/objpack-sw.js']]);
    expect(
      await shadows({
        'firebase.json': JSON.stringify({
          hosting: { public: '.', rewrites: [{ source: '**', destination: '/index.html' }] },
        }),
      }),
    ).toEqual([]);
  });

  test("Cloudflare Pages applies every `_redirects` rule it accepts before its files: one that takes objpack's own URLs is named for it, unless a netlify.toml says the site is Netlify's", async () => {
    const shadows = async (files: Record<string, string>) => {
      const r = await build(await opts(await makeSite({ ...SMALL_SITE, ...files })));
      return r.diagnostics
        .filter((d) => d.code === 'OBJPACK_W_HOST_ROUTE_SHADOWS_OWN')
        .map((d) => [d.file, d.line, /takes (\S+)/.exec(d.message)?.[1], /on Cloudflare Pages/.test(d.message)]);
    };
    expect(await shadows({ _redirects: '# maintenance\n/* /maintenance.html 302\n' })).toEqual([
      ['_redirects', 2, '/objpack-sw.js', true],
    ]);
    expect(await shadows({ _redirects: '/old /new 301\n/* /app.html 200\n' })).toEqual([
      ['_redirects', 2, '/objpack-sw.js', true],
    ]);
    expect((await shadows({ _redirects: '/_objpack/pages/* /gone 301\n' }))[0]?.slice(2)).toEqual([
      expect.stringMatching(/^\/_objpack\/pages\//),
      true,
    ]);
    // Rules Cloudflare drops: its infinite-loop rule, a forced status, a condition; objpack's paths kept first keep them.
    expect(await shadows({ _redirects: '/*  /index.html  200\n/* /x 302 Country=fr\n' })).toEqual([]);
    expect(
      await shadows({
        _redirects:
          '/objpack-sw.js /objpack-sw.js 200\n/objpack-register.js /objpack-register.js 200\n/_objpack/* /_objpack/:splat 200\n/* /app.html 200\n',
      }),
    ).toEqual([]);
    // A forced rule is Netlify's warning (Cloudflare rejects `200!`), once.
    expect(await shadows({ _redirects: '/* /app.html 200!\n' })).toEqual([['_redirects', 1, '/objpack-sw.js', false]]);
    // With a netlify.toml the site is Netlify's, which applies a rule without `!` only where no file is.
    expect(
      await shadows({ _redirects: '/* /maintenance.html 302\n', 'netlify.toml': '[build]\npublish = "."\n' }),
    ).toEqual([]);
  });

  test("switching --target keeps the record of the other config: its stale entries still go, none is read back as the site's", async () => {
    const root = await makeSite({
      ...SMALL_SITE,
      'old.html': '<!doctype html><title>old</title><link rel="stylesheet" href="/css/site.css">',
    });
    await build(await opts(root, { targets: ['vercel', 'firebase'] }));
    const mid = await build(await opts(root, { targets: ['firebase'] }));
    // Had the record forgotten vercel.json, objpack's Link/Cache-Control entries there would count as the site's.
    expect(mid.manifest.hostHeaders).toBeUndefined();
    await rm(path.join(root, 'old.html'));
    await build(await opts(root, { targets: ['vercel'] }));
    const vercel = JSON.parse(await readFile(path.join(root, 'vercel.json'), 'utf8')) as {
      headers: Array<{ source: string }>;
    };
    expect(vercel.headers.some((h) => h.source === '/old.html')).toBe(false);
  });

  test('firebase.json with several hosting sites gets the rules in the one for this directory; one it cannot read is left alone', async () => {
    const other = {
      target: 'docs',
      public: 'docs',
      headers: [{ source: '**', headers: [{ key: 'X-Docs', value: '1' }] }],
    };
    const root = await makeSite({
      ...SMALL_SITE,
      'firebase.json': JSON.stringify({ hosting: [other, { target: 'app', public: '.' }] }),
    });
    await build(await opts(root, { targets: ['firebase'] }));
    const fb = JSON.parse(await readFile(path.join(root, 'firebase.json'), 'utf8')) as {
      hosting: Array<Record<string, unknown>>;
    };
    expect(fb.hosting[0]).toEqual(other);
    expect(fb.hosting[1]).toMatchObject({ target: 'app', public: '.' });
    expect((fb.hosting[1]!.headers as Array<{ source: string }>).some((h) => h.source === '/_objpack/shared/**')).toBe(
      true,
    );

    const noSite = JSON.stringify({ hosting: [other] });
    const withComments = '// firebase-tools reads comments\n{ "hosting": { "public": "." } }\n';
    for (const text of [noSite, withComments]) {
      await writeFile(path.join(root, 'firebase.json'), text);
      const r = await build(await opts(root, { targets: ['firebase'] }));
      expect(await readFile(path.join(root, 'firebase.json'), 'utf8')).toBe(text);
      expect(r.diagnostics.map((d) => d.code)).toContain('OBJPACK_W_HOST_CONFIG_KEPT');
    }
  });

  test('netlify.toml in the project directory: its headers and forced redirects apply to the published `dist/`; an edit to it is not patched over', async () => {
    const toml = (frame: string) =>
      `[build]\npublish = "dist"\n\n[[headers]]\nfor = "/*"\n[headers.values]\nX-Frame-Options = "${frame}"\n\n[[redirects]]\nfrom = "/b.html"\nto = "/"\nstatus = 301\nforce = true\n\n[[redirects]]\nfrom = "/"\nto = "/en/"\nstatus = 302\n`;
    await inProject({ 'netlify.toml': toml('DENY') }, async (project, root) => {
      const options = await opts(root);
      const r = await build(options);
      expect(r.manifest.objects['/']!.headers).toEqual([['x-frame-options', 'DENY']]);
      // Netlify serves the file at `/` (an unforced rule does not shadow it); the forced one takes /b.html.
      expect(r.manifest.hostRedirects?.map((h) => [h.file, h.for])).toEqual([['netlify.toml', '/b.html']]);
      await writeFile(path.join(project, 'netlify.toml'), toml('SAMEORIGIN'));
      await writeFile(path.join(root, 'index.html'), '<!doctype html><title>a2</title>');
      const again = await build(options);
      expect([again.patched, again.manifest.objects['/']!.headers]).toEqual([
        false,
        [['x-frame-options', 'SAMEORIGIN']],
      ]);
      // A netlify.toml publishing another directory is another site's.
      await writeFile(
        path.join(project, 'netlify.toml'),
        toml('DENY').replace('publish = "dist"', 'publish = "public"'),
      );
      const other = await build(options);
      expect([other.manifest.objects['/']!.headers, other.manifest.hostRedirects]).toEqual([undefined, undefined]);
    });
  });

  test('vercel.json in the project directory (the build runs there on `dist/`) is read, and an edit to it is not patched over', async () => {
    await inProject(
      {
        'vercel.json': JSON.stringify({
          headers: [{ source: '/(.*)', headers: [{ key: 'Cross-Origin-Opener-Policy', value: 'same-origin' }] }],
        }),
      },
      async (project, root) => {
        const options = await opts(root);
        expect((await build(options)).manifest.objects['/b.html']!.headers).toEqual([
          ['cross-origin-opener-policy', 'same-origin'],
        ]);
        await writeFile(
          path.join(project, 'vercel.json'),
          JSON.stringify({
            headers: [
              { source: '/(.*)', headers: [{ key: 'Cross-Origin-Opener-Policy', value: 'same-origin-allow-popups' }] },
            ],
          }),
        );
        await writeFile(path.join(root, 'b.html'), '<!doctype html><title>b2</title>');
        const r = await build(options);
        expect(r.patched).toBe(false);
        expect(r.manifest.objects['/']!.headers).toEqual([['cross-origin-opener-policy', 'same-origin-allow-popups']]);
        // With --target vercel the site gets a vercel.json of objpack's entries; the project's is still read.
        for (let i = 0; i < 2; i++) {
          const r = await build({ ...options, targets: ['vercel'], cache: false });
          expect(r.manifest.objects['/']!.headers).toEqual([
            ['cross-origin-opener-policy', 'same-origin-allow-popups'],
          ]);
          // …and the build says that the vercel.json it wrote is not the one a deploy from the project reads.
          expect(r.diagnostics.filter((d) => d.code === 'OBJPACK_W_HOST_CONFIG_ELSEWHERE').map((d) => d.file)).toEqual([
            'vercel.json',
          ]);
        }
        expect((await build({ ...options, cache: false })).diagnostics.map((d) => d.code)).not.toContain(
          'OBJPACK_W_HOST_CONFIG_ELSEWHERE',
        );
        // A config naming another output directory belongs to another site.
        await writeFile(
          path.join(project, 'vercel.json'),
          JSON.stringify({
            outputDirectory: 'public',
            headers: [{ source: '/(.*)', headers: [{ key: 'X-Frame-Options', value: 'DENY' }] }],
          }),
        );
        expect((await build(options)).manifest.objects['/']!.headers).toBeUndefined();
      },
    );
  });

  test("a project vercel.json naming no outputDirectory is not applied to a site outside a framework's output directory", async () => {
    const project = await makeSite({
      'vercel.json': JSON.stringify({
        headers: [{ source: '/(.*)', headers: [{ key: 'X-Frame-Options', value: 'DENY' }] }],
      }),
      'docs/site/index.html': '<!doctype html><title>a</title>',
      'docs/site/guide/index.html': '<!doctype html><title>g</title>',
    });
    const cwd = process.cwd();
    try {
      process.chdir(project);
      const r = await build({ ...(await opts(path.join(project, 'docs/site'))), targets: ['vercel'] });
      expect([r.manifest.objects['/']!.headers, r.manifest.bareDirUrls]).toEqual([undefined, undefined]);
      // One warning that says how to apply it, and none asking to copy objpack's entries into a config of another site.
      expect(r.diagnostics.filter((d) => d.code.startsWith('OBJPACK_W_HOST_CONFIG')).map((d) => d.code)).toEqual([
        'OBJPACK_W_HOST_CONFIG_SKIPPED',
      ]);
    } finally {
      process.chdir(cwd);
    }
  });

  test('a build run from another working directory, with no project config there either, is still patched', async () => {
    const outer = await makeSite({
      'app/dist/index.html': '<!doctype html><title>a</title>',
      'app/dist/b.html': '<!doctype html><title>b</title>',
    });
    const [project, root] = [path.join(outer, 'app'), path.join(outer, 'app', 'dist')];
    const cwd = process.cwd();
    try {
      process.chdir(project);
      const options = await opts(root);
      await build(options);
      await writeFile(path.join(root, 'b.html'), '<!doctype html><title>b2</title>');
      process.chdir(outer);
      expect((await build(options)).patched).toBe(true);
      // A project config that appears is read: the build is not patched over it.
      await writeFile(
        path.join(outer, 'netlify.toml'),
        '[[headers]]\nfor = "/*"\n[headers.values]\nX-Frame-Options = "DENY"\n',
      );
      await writeFile(path.join(root, 'b.html'), '<!doctype html><title>b3</title>');
      const r = await build(options);
      expect([r.patched, r.manifest.objects['/b.html']!.headers]).toEqual([false, [['x-frame-options', 'DENY']]]);
    } finally {
      process.chdir(cwd);
    }
  });
});

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

  test("a second build with --out removes what it copied there before and the site no longer has; the directory's other files stay", async () => {
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
  });

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

test('a site file that changes between hashing and packaging fails the build instead of shipping a lying package', async () => {
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
});
