import { readFile, rm, writeFile } from 'node:fs/promises';
import { serve } from '@objpack/serve';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build } from './build.js';
import type { HostTarget } from './hosts/index.js';
import { makeSite, SMALL_SITE } from './test-utils/site.js';
import { verifyOutput } from './test-utils/verify-output.js';
import { count, decodeAll, opts } from './test-utils/build-helpers.js';

describe("build: the host's headers", () => {
  test(
    "pages carry the host's headers from the user's _headers " +
      'into their packages; an edit to them rewrites the packages',
    async () => {
      // Connection headers in `_headers` are left out (the encoder refuses `Upgrade`; HTTP/2 throws on `TE`).
      const root = await makeSite({
        'index.html': '<!doctype html><title>a</title>',
        'b.html': '<!doctype html><title>b</title>',
        'f.css': 'p{}',
        _headers:
          "/*\n  Content-Security-Policy: default-src 'self'\n/b.html\n  Upgrade: h2c\n  TE: gzip\n/f.css\n  " +
          'Access-Control-Allow-Origin: *\n  Cache-Control: max-age=60\n',
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
      // The worker gets the rules' Cache-Control for the objects it answers, as the host sends it with the files.
      const routes = async () => JSON.parse(await readFile(path.join(root, '_objpack/routes.json'), 'utf8'));
      const cssRule = manifest.hostHeaders!.find((r) => r.for === '/f.css')!;
      expect((await routes()).objectCache).toEqual([[cssRule.match, 'iu', 'max-age=60']]);
      expect(new RegExp(cssRule.match, 'iu').test('/f.css')).toBe(true);
      // An incremental rebuild (a page edit) keeps them.
      await writeFile(path.join(root, 'b.html'), '<!doctype html><title>b2</title>');
      expect((await build(options)).patched).toBe(true);
      expect((await verifyOutput(root)).hostHeaders).toEqual(manifest.hostHeaders);
      expect((await routes()).objectCache).toEqual([[cssRule.match, 'iu', 'max-age=60']]);
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
    },
  );

  test(
    '--target cloudflare: the host rules objpack serve applies ' +
      'match as Cloudflare Pages matches them, case included',
    async () => {
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
    },
  );

  test(
    'on Netlify a _headers rule naming a path decoded (/café.css) applies nowhere, as there (objpack serve ' +
      'neither), with a warning',
    async () => {
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
    },
  );

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

  test(
    "vercel.json / firebase.json: the user's rules for a page objpack also has rules for survive rebuilds, go " +
      "into the page's package, and objpack's stale entries go",
    async () => {
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
      expect(firebase.hosting.headers[0]).toEqual({
        source: '/',
        headers: [{ key: 'X-Frame-Options', value: 'DENY' }],
      });
      expect(firebase.hosting.headers.some((h) => h.source === '/old.html')).toBe(false);
      // The page's package carries both hosts' headers; objpack's own entries (Link…) are not read back as the site's.
      const both: Array<[string, string]> = [
        ['content-security-policy', "default-src 'self'"],
        ['x-frame-options', 'DENY'],
      ];
      expect(second.manifest.objects['/']!.headers).toEqual(both);
      expect((await decodeAll(path.join(root, second.manifest.pages['/']!.package.slice(1))))[0]!.headers).toEqual(
        both,
      );
      expect(second.manifest.hostHeaders?.map((r) => r.for)).toEqual(['/', '/']);
    },
  );
});
