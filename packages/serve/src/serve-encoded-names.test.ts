/**
 * The manifest names pages, packages and objects by URL path as the browser requests them, percent-encoded
 * (`/a%7Cb.svg` for the file `a|b.svg`, `/_objpack/pages/%5Bslug%5D.html.objp`, `/caf%C3%A9.css`); this
 * server's index is keyed by decoded path. Looking a name up as it is found nothing: every such page was
 * stale, its dynamic package left the object out, and its header values were encoded twice. The URLs this
 * server writes itself (redirects) must take the same form, or the worker does not know the page there.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Decoder, encodePackageSync, type BuildManifest } from '@objpack/format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ObjpackServer } from './index.js';
import { get } from './test-utils/http.js';

const sri = (b: Uint8Array) => `sha256-${createHash('sha256').update(b).digest('base64')}`;
const names = (bytes: Uint8Array) => {
  const out: string[] = [];
  const d = new Decoder({ onObjectStart: (e) => out.push(e.name) });
  d.push(bytes);
  d.end();
  return out;
};

/** The page `[slug].html` with an image `a|b.svg` and a stylesheet `café.css`, as `objpack build` names them. */
function makeSite(root: string): void {
  const html = Buffer.from(
    '<!doctype html><title>post</title><link rel="stylesheet" href="café.css"><img src="a|b.svg" alt="">',
  );
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
  const css = Buffer.from('h1{color:blue}');
  const objects = [
    { name: '/[slug].html', file: '[slug].html', contentType: 'text/html; charset=utf-8', body: html },
    { name: '/caf%C3%A9.css', file: 'café.css', contentType: 'text/css; charset=utf-8', body: css },
    { name: '/a%7Cb.svg', file: 'a|b.svg', contentType: 'image/svg+xml', body: svg },
  ];
  const pkgUrl = '/_objpack/pages/%5Bslug%5D.html.objp';
  const files: Record<string, Uint8Array> = Object.fromEntries(objects.map((o) => [o.file, o.body]));
  files['_objpack/pages/[slug].html.objp'] = encodePackageSync({
    buildId: 'b1',
    objects: objects.map(({ name, contentType, body }) => ({ name, contentType, body })),
  });
  const manifest: BuildManifest = {
    version: 1,
    buildId: 'b1',
    pages: {
      '/[slug].html': {
        file: '[slug].html',
        package: pkgUrl,
        shared: [],
        closure: objects.map((o) => o.name),
        critical: [{ path: '/caf%C3%A9.css', as: 'style' }],
        preconnect: [],
      },
    },
    packages: {
      [pkgUrl]: {
        kind: 'page',
        file: '_objpack/pages/[slug].html.objp',
        bytes: 0,
        digest: '',
        objects: objects.map((o) => o.name),
      },
    },
    objects: Object.fromEntries(
      objects.map((o) => [
        o.name,
        { file: o.file, bytes: o.body.length, digest: sri(o.body), contentType: o.contentType, as: 'fetch' },
      ]),
    ),
  };
  files['objpack-manifest.json'] = Buffer.from(JSON.stringify(manifest));
  files['[lang]/index.html'] = Buffer.from('<!doctype html><title>lang</title>');
  files['a|b ü/index.html'] = Buffer.from('<!doctype html><title>a|b</title>');
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
}

describe('page and object URLs as the browser requests them ([ ] kept, | ^ and non-ASCII escaped)', () => {
  let root: string;
  let s: ObjpackServer;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'objpack-serve-names-'));
    makeSite(root);
    s = await serve({ root, port: 0 });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('finds their files: the page is current, its package prebuilt and named once-encoded', async () => {
    expect(s.stats().index.stalePages).toBe(0);
    for (const path of ['/[slug].html', '/%5Bslug%5D.html']) {
      const r = await get(s.url, path, { headers: { 'x-objpack': 'package' } });
      expect([path, r.status, r.headers['x-objpack-dynamic'], r.headers['content-location']]).toEqual([
        path,
        200,
        undefined,
        '/_objpack/pages/%5Bslug%5D.html.objp',
      ]);
      expect(names(r.body)).toEqual(['/[slug].html', '/caf%C3%A9.css', '/a%7Cb.svg']);
    }
    // Asked for by its own URL (as the worker does), it is the page's package: it varies on what the client holds.
    const own = await get(s.url, '/_objpack/pages/%5Bslug%5D.html.objp');
    expect([own.status, own.headers.vary]).toEqual([200, 'X-Objpack-Have']);
  });

  it('puts every object in a delta package and announces the stylesheet as the page requests it', async () => {
    const delta = await get(s.url, '/[slug].html', {
      headers: { 'x-objpack': 'package', 'x-objpack-have': 'AAAAAAAAAAAA' },
    });
    expect([delta.status, delta.headers['x-objpack-dynamic']]).toEqual([200, 'delta']);
    expect(names(delta.body)).toEqual(['/[slug].html', '/caf%C3%A9.css', '/a%7Cb.svg']);
    const page = await get(s.url, '/[slug].html');
    expect([page.status, page.headers.link]).toEqual([200, '</caf%C3%A9.css>; rel=preload; as=style']);
  });

  it(
    'redirects a directory to its slash in the form the ' + "route table keys it (Chromium's: [ ] kept, | ^ escaped)",
    async () => {
      for (const [path, location] of [
        ['/[lang]', '/[lang]/'],
        ['/%5Blang%5D?x=1', '/[lang]/?x=1'],
        ['/a%7Cb%20%C3%BC', '/a%7Cb%20%C3%BC/'],
      ]) {
        const r = await get(s.url, path!);
        expect([path, r.status, r.headers.location]).toEqual([path, 301, location]);
      }
    },
  );
});

describe(
  "the site's host header rules reach a page or a file " + 'whichever way the rule and the request spell its URL',
  () => {
    let root: string;
    let s: ObjpackServer;
    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'objpack-serve-names-'));
      makeSite(root);
      // A second page, café/index.html, keyed as the build keys it.
      const html = Buffer.from('<!doctype html><title>café</title>');
      const pkgUrl = '/_objpack/pages/caf%C3%A9/index.html.objp';
      for (const dir of ['café', '_objpack/pages/café']) mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, 'café/index.html'), html);
      writeFileSync(
        join(root, '_objpack/pages/café/index.html.objp'),
        encodePackageSync({
          buildId: 'b1',
          objects: [{ name: '/caf%C3%A9/', contentType: 'text/html; charset=utf-8', body: html }],
        }),
      );
      const file = join(root, 'objpack-manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as BuildManifest;
      manifest.pages['/caf%C3%A9/'] = {
        file: 'café/index.html',
        package: pkgUrl,
        shared: [],
        closure: ['/caf%C3%A9/'],
        critical: [],
        preconnect: [],
      };
      manifest.packages[pkgUrl] = {
        kind: 'page',
        file: '_objpack/pages/café/index.html.objp',
        bytes: 0,
        digest: '',
        objects: ['/caf%C3%A9/'],
      };
      manifest.objects['/caf%C3%A9/'] = {
        file: 'café/index.html',
        bytes: html.length,
        digest: sri(html),
        contentType: 'text/html; charset=utf-8',
        as: 'document',
      };
      // Rules as the build records them, each written one way: decoded, or as the browser requests the URL.
      manifest.hostHeaders = [
        { for: '/café/', match: '^/café/?$', headers: [['x-r-page-decoded', '1']] },
        { for: '/caf%C3%A9/', match: '^/caf%C3%A9/?$', headers: [['x-r-page-encoded', '1']] },
        { for: '/café.css', match: '^/café\\.css/?$', headers: [['x-r-file-decoded', '1']] },
        { for: '/caf%C3%A9.css', match: '^/caf%C3%A9\\.css/?$', headers: [['x-r-file-encoded', '1']] },
        { for: '/*.css', match: '^/(.*)\\.css/?$', headers: [['x-r-css', '1']] },
        { for: '/goné/*', match: '^/goné/?(.*)/?$', headers: [['x-r-gone-decoded', '1']] },
        { for: '/gon%C3%A9/*', match: '^/gon%C3%A9/?(.*)/?$', headers: [['x-r-gone-encoded', '1']] },
      ];
      writeFileSync(file, JSON.stringify(manifest));
      s = await serve({ root, port: 0 });
    });
    afterAll(async () => {
      await s?.close();
      rmSync(root, { recursive: true, force: true });
    });

    const ruled = (h: Record<string, string | string[] | undefined>) =>
      Object.keys(h)
        .filter((k) => k.startsWith('x-r-'))
        .sort();

    it(
      'a rule written decoded or encoded applies to the page ' + 'and to the file, at every spelling of the request',
      async () => {
        expect(s.stats().index.stalePages).toBe(0);
        for (const path of ['/caf%C3%A9/', '/caf%c3%a9/', '/caf%C3%A9/index.html']) {
          const r = await get(s.url, path);
          expect([path, r.status, ruled(r.headers)]).toEqual([path, 200, ['x-r-page-decoded', 'x-r-page-encoded']]);
        }
        for (const path of ['/caf%C3%A9.css', '/caf%c3%a9.css', '/caf%C3%A9.css?v=1']) {
          const r = await get(s.url, path);
          expect([path, r.status, ruled(r.headers)]).toEqual([
            path,
            200,
            ['x-r-css', 'x-r-file-decoded', 'x-r-file-encoded'],
          ]);
        }
      },
    );

    it('a URL with no file (the 404 answer) gets the rules of its path whichever way they are written', async () => {
      for (const path of ['/gon%C3%A9/x', '/gon%c3%a9/x']) {
        const r = await get(s.url, path);
        expect([path, r.status, ruled(r.headers)]).toEqual([path, 404, ['x-r-gone-decoded', 'x-r-gone-encoded']]);
      }
    });
  },
);
