import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostRoute } from '@objpack/format';
import { describe, expect, it } from 'vitest';
import { get } from './test-utils/http.js';
import { routesFixture } from './test-utils/routes-fixture.js';

const fx = routesFixture();
const start = fx.start;

/** `_redirects` rules as the build records them (netlifyRoute): unforced rules are shadowed by files. */
const NETLIFY: HostRoute[] = [
  ['^\\/old\\/?$', '/new', 301, { shadowed: true }],
  ['^\\/news\\/(?<year>[^/]+)(?:\\/(?<splat>.*))?$', '/blog/${year}/${splat}', 302, { shadowed: true }],
  ['^\\/store\\/?$', '/blog/${id}', 301, { shadowed: true, query: [['id', ':id']] }],
  ['^\\/about\\.html\\/?$', '/elsewhere', 301, { shadowed: true }],
  ['^\\/data\\.json\\/?$', '/moved.json', 302],
  ['^\\/app(?:\\/(?<splat>.*))?$', '/about.html', 200],
  ['^\\/en(?:\\/(?<splat>.*))?$', '/about.html', 404, { shadowed: true }],
  ['^\\/ghost\\/?$', '/nowhere.html', 200, { shadowed: true }],
  ['^\\/(?<splat>.*)$', '/index.html', 200, { shadowed: true }],
];

describe("the site's host redirects and rewrites (manifest hostRoutes)", () => {
  it(
    'Netlify: literal and splat/placeholder redirects, query ' +
      'conditions, the query carried, rewrites with their status',
    async () => {
      const s = await start(NETLIFY);
      const old = await get(s.url, '/old?a=1&b=2');
      expect([old.status, old.headers.location, old.headers['content-length']]).toEqual([301, '/new?a=1&b=2', '0']);
      expect((await get(s.url, '/OLD/')).headers.location).toBe('/new');
      const news = await get(s.url, '/news/2024/10/my%20post');
      expect([news.status, news.headers.location]).toEqual([302, '/blog/2024/10/my%20post']);
      // A query condition binds its placeholder; the request's query is not passed on past it.
      expect((await get(s.url, '/store?id=42&x=1')).headers.location).toBe('/blog/42');
      // A 200 rewrite serves another file's bytes at the URL; a 404 one with its status.
      const app = await get(s.url, '/app/deep/link');
      expect([app.status, app.headers.location]).toEqual([200, undefined]);
      expect(app.body.equals(fx.site.files['/about.html']!)).toBe(true);
      const en = await get(s.url, '/en/missing');
      expect(en.status).toBe(404);
      expect(en.body.equals(fx.site.files['/about.html']!)).toBe(true);
      // The single-page fallback takes what no file answers, never what one does.
      const spa = await get(s.url, '/some/client/route');
      expect([spa.status, spa.body.equals(fx.site.files['/index.html']!)]).toEqual([200, true]);
      const css = await get(s.url, '/style.css');
      expect(css.body.equals(fx.site.files['/style.css']!)).toBe(true);
      // A rewrite to a path without a file is a 404, as on the host.
      expect((await get(s.url, '/ghost')).status).toBe(404);
    },
  );

  it(
    'an existing file shadows an unforced rule; a forced one takes it; aliases (/guide → /guide/, /about) ' +
      'count as files',
    async () => {
      const s = await start(NETLIFY);
      const about = await get(s.url, '/about.html');
      expect([about.status, about.body.equals(fx.site.files['/about.html']!)]).toEqual([200, true]);
      const data = await get(s.url, '/data.json');
      expect([data.status, data.headers.location]).toEqual([302, '/moved.json']);
      expect((await get(s.url, '/guide')).headers.location).toBe('/guide/');
      expect((await get(s.url, '/about')).status).toBe(200);
    },
  );

  it(
    'Vercel: routes before the filesystem take files too, rewrites only where no file is, a pass route shields ' +
      'what it matches',
    async () => {
      const s = await start([
        ['^/(.*)\\.html/?$', '/$1', 308],
        ['^/old(?:/([^/]+?))$', '/new/$1', 307, { unless: '^/old/keep$' }],
        ['^/r(?:/([^/]+?))$', '/guide/index.html?id=$1', 200, { shadowed: true }],
      ]);
      const html = await get(s.url, '/about.html?x=1');
      expect([html.status, html.headers.location]).toEqual([308, '/about?x=1']);
      expect((await get(s.url, '/about')).status).toBe(200);
      expect((await get(s.url, '/old/a$b')).headers.location).toBe('/new/a%24b');
      expect((await get(s.url, '/old/keep')).status).toBe(404);
      const r = await get(s.url, '/r/7');
      expect([r.status, r.body.equals(fx.site.files['/guide/index.html']!)]).toEqual([200, true]);
    },
  );

  it(
    'Vercel cleanUrls with trailingSlash: true: about.html is served at /about/, where /about and /about.html ' +
      'are redirected (cleanSlashUrls)',
    async () => {
      // getTransformedRoutes({ cleanUrls: true, trailingSlash: true }) as the build records it.
      const s = await start(
        [
          ['^\\/(?:(.+)\\/)?index(?:\\.html)?\\/?$', '/$1/', 308],
          ['^\\/(.*)\\.html\\/?$', '/$1/', 308],
          ['^\\/((?:[^/]+\\/)*[^/\\.]+)$', '/$1/', 308, { unless: '(?:^/\\.well-known(?:/.*)?$)' }],
          ['^\\/((?:[^/]+\\/)*[^/]+\\.\\w+)\\/$', '/$1', 308, { unless: '(?:^/\\.well-known(?:/.*)?$)' }],
        ],
        { cleanSlashUrls: true },
      );
      const about = await get(s.url, '/about/?x=1');
      expect([about.status, about.body.equals(fx.site.files['/about.html']!)]).toEqual([200, true]);
      expect([
        (await get(s.url, '/about')).headers.location,
        (await get(s.url, '/about.html')).headers.location,
      ]).toEqual(['/about/', '/about/']);
      // A directory's own page keeps its URL; a path naming no page is still a 404.
      const guide = await get(s.url, '/guide/');
      expect([guide.status, guide.body.equals(fx.site.files['/guide/index.html']!)]).toEqual([200, true]);
      expect((await get(s.url, '/nothing/')).status).toBe(404);
      expect((await get(s.url, '/style.css')).status).toBe(200);
      // Without the manifest saying so, /about/ is no page (a host that redirects /about/ to /about).
      await s.close();
      const plain = await start([], { cleanSlashUrls: undefined });
      expect((await get(plain.url, '/about/')).status).toBe(404);
    },
  );

  it('Firebase: regex captures, an external destination the rule names, the query appended', async () => {
    const s = await start([
      ['^\\/p\\/(\\d+)$', '/posts/$1?from=p', 301, { flags: 'u' }],
      ['^\\/ext\\/?$', 'https://example.com/landing#top', 302, { flags: '' }],
    ]);
    expect((await get(s.url, '/p/12?utm=x')).headers.location).toBe('/posts/12?from=p&utm=x');
    const ext = await get(s.url, '/ext?a=b');
    expect([ext.status, ext.headers.location]).toEqual([302, 'https://example.com/landing?a=b#top']);
    expect((await get(s.url, '/EXT')).status).toBe(404);
  });

  it(
    'a URL the host answers with a function or a proxy gets 502, not a later rule (the single-page fallback) ' +
      'nor a file it shadows',
    async () => {
      const s = await start([
        ['^\\/api(?:\\/(?<splat>.*))?$', '', 502, { shadowed: true }],
        ['^\\/data\\.json\\/?$', '', 502],
        ['^\\/(?<splat>.*)$', '/index.html', 200, { shadowed: true }],
      ]);
      const api = await get(s.url, '/api/users?id=1');
      expect([api.status, api.headers.location, api.body.equals(fx.site.files['/index.html']!)]).toEqual([
        502,
        undefined,
        false,
      ]);
      // Unforced, it yields to a file as the host's rule does; forced, it takes it.
      expect((await get(s.url, '/data.json')).status).toBe(502);
      expect((await get(s.url, '/style.css')).body.equals(fx.site.files['/style.css']!)).toBe(true);
      expect((await get(s.url, '/client/route')).body.equals(fx.site.files['/index.html']!)).toBe(true);
      // A status-502 rewrite that names a file is a rewrite like any other.
      const s2 = await start([['^\\/down\\/?$', '/about.html', 502]]);
      const down = await get(s2.url, '/down');
      expect([down.status, down.body.equals(fx.site.files['/about.html']!)]).toEqual([502, true]);
    },
  );

  it(
    'a 200 rewrite to a page serves it as that page: its host headers, Link preloads and 103 Early Hints; ' +
      'never its package',
    async () => {
      // A single-page app's fallback (Netlify `/app/* /guide/index.html 200`), the page's CSP from `_headers`.
      const s = await start(
        [
          ['^\\/app(?:\\/(?<splat>.*))?$', '/guide/index.html', 200, { shadowed: true }],
          ['^\\/dir\\/?$', '/guide', 200],
        ],
        {
          hostHeaders: [
            { for: '/guide/', match: '^/guide/?$', headers: [['content-security-policy', "default-src 'self'"]] },
            // Fresh for an hour: a 103 names only what the browser may reuse without asking.
            { for: '/style.css', match: '^/style\\.css$', headers: [['cache-control', 'public, max-age=3600']] },
          ],
        },
      );
      const direct = await get(s.url, '/guide/');
      expect(direct.headers['content-security-policy']).toBe("default-src 'self'");
      expect(direct.headers.link).toContain('</style.css>; rel=preload; as=style');
      for (const url of ['/app/deep/link', '/app', '/dir']) {
        const r = await get(s.url, url);
        expect([r.status, r.body.equals(fx.site.files['/guide/index.html']!)], url).toEqual([200, true]);
        expect(r.headers['content-security-policy'], url).toBe("default-src 'self'");
        expect(r.headers.link, url).toBe(direct.headers.link);
        expect(
          r.informational.map((i) => [i.status, i.headers.link]),
          url,
        ).toEqual([[103, direct.headers.link]]);
        // This URL never answers with a package, so it neither varies on asking for one nor says where one is.
        expect([r.headers['content-location'], r.headers.vary ?? ''], url).toEqual([
          undefined,
          expect.not.stringContaining('X-Objpack'),
        ]);
        const asked = await get(s.url, url, { headers: { 'x-objpack': 'package', accept: 'application/vnd.objpack' } });
        expect(
          [
            asked.headers['content-type'],
            asked.headers['content-location'],
            asked.body.equals(fx.site.files['/guide/index.html']!),
          ],
          url,
        ).toEqual([expect.stringMatching(/^text\/html/), undefined, true]);
      }
    },
  );

  it('a domain-level rule applies on its host only', async () => {
    const s = await start([['^\\/old\\/?$', '/new', 301, { host: 'a.example' }]]);
    expect((await get(s.url, '/old')).status).toBe(404);
    expect((await get(s.url, '/old', { headers: { host: 'A.example' } })).headers.location).toBe('/new');
  });
});

describe('error pages carry the host headers the host gives them', () => {
  const CSP = "default-src 'self'";
  /** A `/*` rule, a rule for the 404 page's own path, and one for `/blog/*` that differs from it. */
  const rules = (errorPage: boolean) => [
    {
      for: '/*',
      match: '^/.*$',
      headers: [['content-security-policy', CSP]],
      ...(errorPage ? { errorPage: true } : {}),
    },
    {
      for: '/404.html',
      match: '^/404\\.html$',
      headers: [
        ['x-robots-tag', 'noindex'],
        ['x-frame-options', 'DENY'],
      ],
      ...(errorPage ? { errorPage: true } : {}),
    },
    {
      for: '/blog/*',
      match: '^/blog/.*$',
      headers: [['x-frame-options', 'SAMEORIGIN']],
      ...(errorPage ? { errorPage: true } : {}),
    },
  ];
  const withNotFoundPage = () => {
    fx.site.files['/404.html'] = Buffer.from('<!doctype html><title>Not found</title>');
    writeFileSync(join(fx.site.root, '404.html'), fx.site.files['/404.html']);
  };

  it(
    'Netlify and Vercel: a 4xx rewrite and the custom 404 page get the rules of the URL asked for, not those ' +
      "of the page's own path",
    async () => {
      withNotFoundPage();
      // Netlify `/blog/*  /404.html  404`, then no rule: the custom 404 page.
      const s = await start([['^\\/blog(?:\\/(?<splat>.*))?$', '/404.html', 404, { shadowed: true }]], {
        hostHeaders: rules(false),
      });
      const direct = await get(s.url, '/404.html');
      expect([direct.headers['content-security-policy'], direct.headers['x-robots-tag']]).toEqual([CSP, 'noindex']);
      for (const [url, frame] of [
        ['/blog/gone', 'SAMEORIGIN'],
        ['/missing', undefined],
      ] as const) {
        const r = await get(s.url, url);
        expect([r.status, r.body.equals(fx.site.files['/404.html']!)], url).toEqual([404, true]);
        expect(
          [
            r.headers['content-security-policy'],
            r.headers['x-robots-tag'],
            r.headers['x-frame-options'],
            r.headers['cache-control'],
          ],
          url,
        ).toEqual([CSP, undefined, frame, 'no-cache']);
      }
    },
  );

  it('Firebase: the custom 404 page gets its own /404.html rules too, under those of the URL asked for', async () => {
    withNotFoundPage();
    const s = await start([], { hostHeaders: rules(true) });
    const blog = await get(s.url, '/blog/gone');
    expect([
      blog.status,
      blog.headers['content-security-policy'],
      blog.headers['x-robots-tag'],
      blog.headers['x-frame-options'],
    ]).toEqual([404, CSP, 'noindex', 'SAMEORIGIN']);
    const other = await get(s.url, '/missing');
    expect([other.status, other.headers['x-robots-tag'], other.headers['x-frame-options']]).toEqual([
      404,
      'noindex',
      'DENY',
    ]);
  });

  it(
    "a site without a 404.html: this server's own 404 gets the rules of the URL asked for, as the hosts' " +
      'default 404 pages do',
    async () => {
      for (const errorPage of [false, true]) {
        const s = await start([], { hostHeaders: rules(errorPage) });
        const blog = await get(s.url, '/blog/gone');
        expect([
          blog.status,
          blog.headers['content-security-policy'],
          blog.headers['x-frame-options'],
          blog.headers['x-robots-tag'],
        ]).toEqual([404, CSP, 'SAMEORIGIN', undefined]);
        const other = await get(s.url, '/missing');
        expect([
          other.status,
          other.headers['content-security-policy'],
          other.headers['x-frame-options'],
          other.headers['cache-control'],
        ]).toEqual([404, CSP, undefined, 'no-store']);
        // objpack's own directory keeps objpack's answers, as its files do.
        expect((await get(s.url, '/_objpack/pages/gone.objp')).headers['content-security-policy']).toBeUndefined();
      }
    },
  );
});
