/**
 * Every URL a build writes or injects lies under the base the site is served at: the registration tag, the
 * packages (and the shared packages each page package names), the route table with its preloads, the
 * manifest, the push manifest, `_headers`, vercel.json, firebase.json, the nginx include and the report.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { BuildManifest, RouteTable } from '@objpack/format';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../build.js';
import { fakeWorkerAssets, makeSite } from '../test-utils/site.js';
import { verifyOutput } from '../test-utils/verify-output.js';
import { HEADERS_BEGIN, HEADERS_END } from '../hosts/header-rules.js';
import { inspectPackage } from '../inspect/inspect-package.js';

/** Relative references only: the same files work under any base. */
const SITE = {
  'index.html':
    '<!doctype html><title>Home</title><link rel="stylesheet" href="css/site.css">' +
    '<script type="module" src="js/app.js"></script>' +
    '<img src="img/home.png"><a href="about/">About</a><a href="blog.html">Blog</a>',
  'about/index.html':
    '<!doctype html><title>About</title><link rel="stylesheet" href="../css/site.css">' +
    '<script type="module" src="../js/app.js">' +
    '</script><img src="../img/team.png">',
  'blog.html': '<!doctype html><title>Blog</title><link rel="stylesheet" href="css/site.css"><img src="img/home.png">',
  'css/site.css':
    `@font-face{font-family:x;src:url(../fonts/x.woff2) ` +
    `format("woff2")}body{font-family:x}/*${'c'.repeat(9000)}*/`,
  'fonts/x.woff2': new Uint8Array(12000).fill(7),
  'js/app.js': `import './lib.js';\n//${'j'.repeat(9000)}\n`,
  'js/lib.js': `export const a = 1;\n//${'l'.repeat(9000)}\n`,
  'img/home.png': new Uint8Array(3000).fill(2),
  'img/team.png': new Uint8Array(3000).fill(3),
};

const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

/** Paths in a `Link` value: `</a.css>; rel=preload…, </b.js>; …`. */
const linkPaths = (value: string) => [...value.matchAll(/<([^>]*)>/g)].map((m) => m[1]!);

describe.each(['/', '/repo/', '/a/b/', '/caf%C3%A9/'])('a build under %s', (base) => {
  const decoded = decodeURIComponent(base);
  const under = (url: string) => url.startsWith(base);
  let root: string;
  let options: Parameters<typeof build>[0];
  let report: string;
  const read = (rel: string) => readFileSync(path.join(root, rel), 'utf8');
  const json = <T>(rel: string) => JSON.parse(read(rel)) as T;

  it('builds', async () => {
    root = await makeSite(SITE);
    roots.push(root);
    // The report beside the site, in a directory of this test's own.
    const projectDir = await makeSite({});
    roots.push(projectDir);
    const workerAssets = await fakeWorkerAssets();
    options = { root, base, projectDir, targets: ['vercel', 'firebase', 'nginx'], workerAssets };
    const r = await build(options);
    expect(r.diagnostics).toEqual([]);
    report = readFileSync(r.report!, 'utf8');
    await verifyOutput(root);
  });

  it('injects the registration tag for the base, once, and writes the worker files beside the pages', () => {
    for (const page of ['index.html', 'about/index.html', 'blog.html']) {
      const tags = [
        ...read(page).matchAll(/<script src="([^"]*objpack-register\.js)" defer fetchpriority="high"><\/script>/g),
      ].map((m) => m[1]);
      expect(tags, page).toEqual([`${base}objpack-register.js`]);
    }
    expect(read('objpack-sw.js')).toBe('/* worker */');
    expect(read('objpack-register.js')).toBe('/* register */');
  });

  it('names pages, packages and objects under the base in the manifest, files from the root', async () => {
    const m = json<BuildManifest>('objpack-manifest.json');
    expect(m.base).toBe(base === '/' ? undefined : base);
    expect(Object.keys(m.pages).sort()).toEqual([base, `${base}about/`, `${base}blog.html`]);
    for (const [url, pkg] of Object.entries(m.packages)) {
      expect(under(url), url).toBe(true);
      expect(pkg.file).toBe(decodeURIComponent(url.slice(base.length)));
      const index = await inspectPackage(path.join(root, pkg.file));
      for (const ref of index.sharedRefs) expect(under(ref), ref).toBe(true);
      for (const o of index.objects) expect(under(o.name), o.name).toBe(true);
    }
    for (const [url, page] of Object.entries(m.pages)) {
      expect(under(page.package), page.package).toBe(true);
      for (const u of [...page.shared, ...page.closure, ...page.critical.map((c) => c.path)])
        expect(under(u), `${url}: ${u}`).toBe(true);
    }
    // Pages are keyed by their URL (`/repo/about/`), other objects by their file's URL.
    for (const [url, o] of Object.entries(m.objects))
      expect([o.file.replace(/(^|\/)index\.html$/, '$1'), o.file]).toContain(
        decodeURIComponent(url.slice(base.length)),
      );
  });

  it('writes the route table with packages, pages and preloads under the base', () => {
    const routes = json<RouteTable>('_objpack/routes.json');
    for (const u of [...routes.packages, ...Object.keys(routes.pages), ...routes.preload!.urls.map((e) => e[0])]) {
      expect(under(u), u).toBe(true);
    }
    expect(routes.preload!.urls.map((e) => e[0])).toContain(`${base}objpack-register.js`);
  });

  it('writes the push manifest and _headers under the base, with no Service-Worker-Allowed beyond it', () => {
    const push = json<Record<string, Record<string, unknown>>>('push-manifest.json');
    for (const [page, resources] of Object.entries(push)) {
      expect(under(page), page).toBe(true);
      for (const r of Object.keys(resources)) expect(under(r), r).toBe(true);
    }
    const text = read('_headers');
    const block = text
      .slice(text.indexOf(HEADERS_BEGIN) + HEADERS_BEGIN.length, text.indexOf(HEADERS_END))
      .trim()
      .split('\n');
    const paths = block.filter((l) => !l.startsWith(' '));
    expect(paths).toEqual(
      expect.arrayContaining([
        `${base}_objpack/shared/*`,
        `${base}_objpack/pages/*`,
        `${base}_objpack/routes.json`,
        `${base}objpack-sw.js`,
      ]),
    );
    for (const p of paths) expect(under(p), p).toBe(true);
    for (const l of block.filter((x) => x.trim().startsWith('Link:')))
      for (const p of linkPaths(l)) expect(under(p), p).toBe(true);
    const allowed = block.filter((l) => l.includes('Service-Worker-Allowed'));
    expect(allowed).toEqual(base === '/' ? ['  Service-Worker-Allowed: /'] : []);
  });

  it('writes vercel.json, firebase.json and the nginx include for URLs under the base', () => {
    const vercel = json<{ headers: Array<{ source: string; headers: Array<{ key: string; value: string }> }> }>(
      'vercel.json',
    );
    const firebase = json<{
      hosting: { headers: Array<{ source: string; headers: Array<{ key: string; value: string }> }> };
    }>('firebase.json');
    for (const entries of [vercel.headers, firebase.hosting.headers]) {
      expect(entries.length).toBeGreaterThan(4);
      for (const e of entries) {
        // Escapes of the host's pattern syntax aside, each source starts with the base.
        expect(e.source.replace(/\\/g, '').startsWith(base), e.source).toBe(true);
        for (const h of e.headers.filter((x) => x.key === 'Link'))
          for (const p of linkPaths(h.value)) expect(under(p), p).toBe(true);
      }
    }
    const locations = [...read('objpack-nginx.conf').matchAll(/^location (?:= |\^~ )"?([^"{ ]+)/gm)].map((m) => m[1]!);
    expect(locations.length).toBeGreaterThan(4);
    for (const l of locations) expect(l.startsWith(decoded), l).toBe(true);
  });

  it('patches an edited page under the base as a full build writes it', async () => {
    writeFileSync(path.join(root, 'blog.html'), `${SITE['blog.html']}<p>edited</p>`);
    const r = await build(options);
    expect(r.patched).toBe(true);
    await verifyOutput(root);
    const tags = [
      ...read('blog.html').matchAll(/<script src="([^"]*objpack-register\.js)" defer fetchpriority="high">/g),
    ].map((m) => m[1]);
    expect(tags).toEqual([`${base}objpack-register.js`]);
    const m = json<BuildManifest>('objpack-manifest.json');
    const index = await inspectPackage(path.join(root, m.packages[m.pages[`${base}blog.html`]!.package]!.file));
    expect(index.objects[0]!.name).toBe(`${base}blog.html`);
    expect(index.sharedRefs.every(under)).toBe(true);
  });

  it('lists the packages at their URLs under the base in the report', () => {
    const shown = [...report.matchAll(/<code>([^<]*\.objp)<\/code>/g)].map((m) => m[1]!);
    expect(shown.length).toBeGreaterThan(0);
    for (const s of shown) expect(under(s), s).toBe(true);
  });
});
