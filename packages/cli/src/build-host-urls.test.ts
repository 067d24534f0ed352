import { readFile, writeFile } from 'node:fs/promises';
import { serve } from '@objpack/serve';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build, type BuildOptions } from './build.js';
import { makeSite, SMALL_SITE } from './test-utils/site.js';
import { verifyOutput } from './test-utils/verify-output.js';
import { opts } from './test-utils/build-helpers.js';

describe("build: the host's URL forms (cleanUrls, trailingSlash, bareDirUrls)", () => {
  test(
    'cleanUrls: from the option, else from vercel.json/firebase.json; ' +
      'recorded in the manifest and the route table',
    async () => {
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
          '<!doctype html><title>b</title><a href="/contact">c</a> <a href="contact?x=1#y">again</a> <a ' +
          'href="/contact.html">plain</a>',
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
      const firebase = await makeSite({
        ...SMALL_SITE,
        'firebase.json': '{"hosting":{"public":".","cleanUrls":true}}',
      });
      const fbOptions = await opts(firebase);
      expect((await build(fbOptions)).manifest.cleanUrls).toBe(true);
      // A page edit is patched, and the patch keeps it.
      await writeFile(
        path.join(firebase, 'about/index.html'),
        (await readFile(path.join(firebase, 'about/index.html'), 'utf8')).replace('<title>About', '<title>About us'),
      );
      const patched = await build(fbOptions);
      expect([patched.patched, (await verifyOutput(firebase)).cleanUrls, (await routesOf(firebase)).cleanUrls]).toEqual(
        [true, true, true],
      );
    },
  );

  test(
    'cleanUrls with trailingSlash: true (Vercel, Firebase): the host serves blog.html at /blog/; recorded as ' +
      'cleanSlashUrls, answered there by objpack serve, and the page is not taken for redirected',
    async () => {
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
      expect([
        patched.patched,
        (await verifyOutput(root)).cleanSlashUrls,
        (await routesOf(root)).cleanSlashUrls,
      ]).toEqual([true, true, true]);
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
    },
  );

  test(
    'firebase.json cleanUrls/trailingSlash are recorded (firebaseUrls, {} for neither) and objpack serve ' +
      "redirects as Firebase's file lookup does; its header rules reach the custom 404 page as superstatic's " +
      'missing.js applies them',
    async () => {
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
      // The worker's table leaves what the host redirects to the network (client-sw routes-refresh.test checks
      // lookupRoute on these).
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
    },
  );

  test(
    'bareDirUrls: from the option, else from vercel.json (unless trailingSlash: true) or firebase.json ' +
      '(trailingSlash: false, or cleanUrls alone); in the manifest and the route table',
    async () => {
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
      // Pages that link to /about for about/index.html get one warning pointing at the option, unless it or a host
      // config decided.
      const linking = {
        'blog.html':
          '<!doctype html><title>b</title><a href="/about">a</a> <a href="about?x=1">again</a> <a ' +
          'href="/about/">slash</a> <a href="/about/index.html">file</a>',
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
        await hint({
          'blog.html': '<!doctype html><title>b</title><a href="/index">i</a> <a href="/about/index">a</a>',
        }),
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
    },
  );
});
