import { readFile, rm, writeFile } from 'node:fs/promises';
import { serve } from '@objpack/serve';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build } from './build.js';
import { makeSite, SMALL_SITE } from './test-utils/site.js';
import { opts } from './test-utils/build-helpers.js';

describe("build: the host's redirects and rewrites", () => {
  test(
    'host redirects: pages the host takes before its files are named in a warning and in the route table; ' +
      'rules that take no page stay out',
    async () => {
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

      // Vercel: clean URLs send /blog.html to /blog and trailingSlash: false /about/ to /about; a user redirect takes
      // /blog.
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
    },
  );

  test(
    'host redirects and rewrites: the manifest records them with destinations and objpack serve answers as the ' +
      'host would',
    async () => {
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
              expect(
                body.equals(Buffer.from(await (await fetch(new URL(sameAs, server.url))).arrayBuffer())),
                url,
              ).toBe(true);
          }
        } finally {
          await server.close();
        }
      };

      // Netlify: unforced rules yield to files; a proxy is the host's, with a warning (and a 502 in objpack serve).
      const netlify = await makeSite({
        ...SMALL_SITE,
        _redirects:
          '/old /blog.html 301\n/news/* /about/:splat 302\n/app/* /index.html 200\n/about/ /x 301\n/api/* ' +
          'https://api.example.com/:splat 200\n',
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
    },
  );

  test(
    'Firebase `:rest*` with nothing to take: objpack serve redirects `/old/` to `/new`, as superstatic ' +
      'compiles the destination',
    async () => {
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
    },
  );

  test(
    "a host rule applied before the files that takes objpack's own URLs (worker, route table, packages) is " +
      'named with its file and line; rules that yield to files are not',
    async () => {
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
            '/objpack-sw.js /objpack-sw.js 200!\n/objpack-register.js /objpack-register.js 200!\n/_objpack/* ' +
            '/_objpack/:splat 200!\n/* /index.html 200!\n',
        }),
      ).toEqual([]);
      expect((await shadows({ _redirects: '/_objpack/pages/* /gone 301!\n' }))[0]?.[2]).toMatch(/^\/_objpack\/pages\//);
      // A condition on the visitor makes it theirs, not every visitor's.
      expect(await shadows({ _redirects: '/* /fr/:splat 302! Country=fr\n' })).toEqual([]);
      expect(
        await shadows({
          'netlify.toml':
            '[build]\npublish = "."\n\n[[redirects]]\n  from = "/*"\n  to = "/index.html"\n  status = 200\n  ' +
            'force = true\n',
        }),
      ).toEqual([['netlify.toml', 5, '/objpack-sw.js']]);
      // Vercel: a redirect and a legacy route before the filesystem take it; a rewrite, cleanUrls and trailingSlash do
      // not.
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
          vercel({
            cleanUrls: true,
            trailingSlash: false,
            rewrites: [{ source: '/(.*)', destination: '/index.html' }],
          }),
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
    },
  );

  test(
    "Cloudflare Pages applies every `_redirects` rule it accepts before its files: one that takes objpack's " +
      "own URLs is named for it, unless a netlify.toml says the site is Netlify's",
    async () => {
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
      // Rules Cloudflare drops: its infinite-loop rule, a forced status, a condition; objpack's paths kept first keep
      // them.
      expect(await shadows({ _redirects: '/*  /index.html  200\n/* /x 302 Country=fr\n' })).toEqual([]);
      expect(
        await shadows({
          _redirects:
            '/objpack-sw.js /objpack-sw.js 200\n/objpack-register.js /objpack-register.js 200\n/_objpack/* ' +
            '/_objpack/:splat 200\n/* /app.html 200\n',
        }),
      ).toEqual([]);
      // A forced rule is Netlify's warning (Cloudflare rejects `200!`), once.
      expect(await shadows({ _redirects: '/* /app.html 200!\n' })).toEqual([
        ['_redirects', 1, '/objpack-sw.js', false],
      ]);
      // With a netlify.toml the site is Netlify's, which applies a rule without `!` only where no file is.
      expect(
        await shadows({ _redirects: '/* /maintenance.html 302\n', 'netlify.toml': '[build]\npublish = "."\n' }),
      ).toEqual([]);
    },
  );

  test(
    'switching --target keeps the record of the other config: its stale entries still go, none is read back as ' +
      "the site's",
    async () => {
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
    },
  );
});
