import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeSite } from '../test-utils/site.js';
import { HEADERS_BEGIN, HEADERS_END } from './header-rules.js';
import { readHosts as loadSiteHeaders } from './read-hosts.js';
import { cleanUrlOf } from '../discover/site-origin.js';

describe('loadSiteHeaders', () => {
  test("the user's _headers rules, merged per page; objpack's own block and transfer headers left out", async () => {
    const root = await makeSite({
      _headers: [
        '# security',
        '/*',
        '  X-Frame-Options: DENY',
        "  Content-Security-Policy: default-src 'self'",
        '  Cache-Control: no-cache',
        '/blog/*',
        '  X-Frame-Options: SAMEORIGIN',
        '  Set-Cookie: a=b',
        '/docs/:page',
        '  Referrer-Policy: no-referrer',
        HEADERS_BEGIN,
        '/blog/a/',
        '  Link: </a.css>; rel=preload; as=style',
        '  X-From-Objpack: 1',
        HEADERS_END,
        '',
      ].join('\n'),
    });
    const h = await loadSiteHeaders(root);
    expect(h.diagnostics).toEqual([]);
    expect(h.forPage('/')).toEqual([
      ['content-security-policy', "default-src 'self'"],
      ['x-frame-options', 'DENY'],
    ]);
    // A later matching rule wins, as on Netlify's dev server.
    expect(h.forPage('/blog/a/')).toEqual([
      ['content-security-policy', "default-src 'self'"],
      ['x-frame-options', 'SAMEORIGIN'],
    ]);
    expect(h.forPage('/docs/intro')).toContainEqual(['referrer-policy', 'no-referrer']);
    expect(h.forPage('/docs/a/b')).not.toContainEqual(['referrer-policy', 'no-referrer']);
  });

  test(
    'rules naming one path (looked up by it) apply exactly ' + 'where, and in the order, the host applies them',
    async () => {
      // A block per page, between wildcard rules: each page gets the last value of every rule that takes it.
      const blocks = [
        '/*',
        '/about.html',
        '/guide/',
        '/Caf%C3%A9.html',
        '/caf\u00e9.html',
        '/docs/:p',
        '/about.html',
        '/GUIDE',
        '/x/*',
        '/x/y.html',
        '/',
      ];
      const _headers = blocks.map((b, i) => `${b}\n  X-Rule: ${i}\n  X-${i}: ${b}\n`).join('');
      const root = await makeSite({
        _headers,
        'firebase.json': JSON.stringify({
          hosting: {
            headers: [
              { source: '/about.html', headers: [{ key: 'X-Rule', value: 'fb' }] },
              { source: '**/*.html', headers: [{ key: 'X-Glob', value: '1' }] },
            ],
          },
        }),
      });
      const h = await loadSiteHeaders(root, { cleanUrls: true });
      const pages = [
        '/',
        '/about.html',
        '/guide/',
        '/guide/index.html',
        '/Caf%C3%A9.html',
        '/caf\u00e9.html',
        '/docs/a.html',
        '/x/y.html',
        '/nowhere.html',
        '/GUIDE/',
      ];
      // The reference: every rule tested in order, as before the lookup.
      const rules = h.rules.map((r) => ({ re: new RegExp(r.match, r.flags ?? 'iu'), headers: r.headers }));
      for (const page of pages) {
        // Each tried as written and decoded (a rule may name /caf\u00e9.html or /caf%C3%A9.html).
        const urls = [page, cleanUrlOf(page)].filter((u) => u !== undefined).flatMap((u) => [u, decodeURIComponent(u)]);
        const merged = new Map<string, string>();
        for (const r of rules)
          if (urls.some((u) => r.re.test(u)))
            for (const [n, v] of r.headers) {
              merged.delete(n);
              merged.set(n, v);
            }
        expect(h.forPage(page), page).toEqual([...merged].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
      }
      expect(h.forPage('/about.html')).toContainEqual(['x-rule', 'fb']);
      expect(h.forPage('/guide/')).toContainEqual(['x-rule', '7']);
    },
  );

  test(
    'a firebase.json of several sites: each redirect ' + 'names its line in the site this directory publishes',
    async () => {
      const text = [
        '{',
        '  "hosting": [',
        '    { "public": "other", "redirects": [',
        '      { "source": "/docs/**", "destination": "/a" },',
        '      { "source": "/**", "destination": "/b" }',
        '    ] },',
        '    { "public": ".", "headers": [{ "source": "/**", "headers": [] }], "redirects": [',
        '      { "source": "/**", "destination": "/c" },',
        '      { "source": "/docs/**", "destination": "/d" }',
        '    ] }',
        '  ]',
        '}',
      ].join('\n');
      const root = await makeSite({ 'firebase.json': text });
      const { redirects } = await loadSiteHeaders(root);
      expect(redirects.map((r) => [r.for, r.line])).toEqual([
        ['/**', 8],
        ['/docs/**', 9],
      ]);
    },
  );

  test(
    'with bare directory URLs a directory page carries the ' +
      'rules written for /guide (where the host serves it too)',
    async () => {
      const root = await makeSite({
        'vercel.json': JSON.stringify({
          trailingSlash: false,
          headers: [{ source: '/about', headers: [{ key: 'X-Frame-Options', value: 'DENY' }] }],
        }),
      });
      const h = await loadSiteHeaders(root);
      expect([h.bareDirUrls, h.forPage('/about/')]).toEqual([true, [['x-frame-options', 'DENY']]]);
      expect((await loadSiteHeaders(root, { bareDirUrls: false })).forPage('/about/')).toEqual([]);
      // A vercel.json of objpack's own entries (`--target vercel`) says nothing about the host's settings.
      const own = { source: '/', headers: [{ key: 'Link', value: '</a.css>; rel=preload; as=style' }] };
      const ours = await makeSite({
        'vercel.json': JSON.stringify({ headers: [own] }),
        '_objpack/.host-entries.json': JSON.stringify({ 'vercel.json': [own] }),
      });
      expect((await loadSiteHeaders(ours)).bareDirUrls).toBe(false);
      // The host named (`--target vercel` alone) serves /guide by default; the user's `trailingSlash: true` still wins.
      expect(await loadSiteHeaders(ours, { targets: ['vercel'] })).toMatchObject({
        bareDirUrls: true,
        bareDirKnown: true,
      });
      const slash = await makeSite({ 'vercel.json': '{"trailingSlash":true}' });
      expect(await loadSiteHeaders(slash, { targets: ['vercel'] })).toMatchObject({
        bareDirUrls: false,
        bareDirKnown: true,
      });
      expect(await loadSiteHeaders(await makeSite({}))).toMatchObject({ bareDirUrls: false, bareDirKnown: false });
    },
  );

  test(
    'a project vercel.json naming no outputDirectory configures ' +
      'a site where a framework writes one, and only there',
    async () => {
      const project = await makeSite({
        'vercel.json': JSON.stringify({
          headers: [{ source: '/(.*)', headers: [{ key: 'X-Frame-Options', value: 'DENY' }] }],
        }),
      });
      const at = (rel: string) => loadSiteHeaders(path.join(project, rel), { cwd: project });
      for (const rel of [
        'dist',
        'build',
        'public',
        '_site',
        'out',
        'docs/.vitepress/dist',
        '.output/public',
        'dist/app/browser',
        'build/en',
      ]) {
        const h = await at(rel);
        expect([rel, h.forPage('/'), h.bareDirUrls, h.projectConfigs, h.diagnostics]).toEqual([
          rel,
          [['x-frame-options', 'DENY']],
          true,
          [path.join(project, 'vercel.json')],
          [],
        ]);
      }
      // A docs site or a fixture below it may be another host's: nothing applied (its bare directory URLs
      // would have the worker answer /guide where GitHub Pages redirects), and the build says how to apply it.
      for (const rel of ['site', 'docs/dist', 'fixtures/a/dist', 'dist/a/b/c']) {
        const h = await at(rel);
        expect([rel, h.forPage('/'), h.bareDirUrls, h.projectConfigs, h.diagnostics.map((d) => d.code)]).toEqual([
          rel,
          [],
          false,
          [],
          ['OBJPACK_W_HOST_CONFIG_SKIPPED'],
        ]);
        expect(h.diagnostics[0]!.message).toContain(`"outputDirectory": "${rel}"`);
      }
      // Saying so applies it; naming another directory is another site, without a warning.
      await writeFile(
        path.join(project, 'vercel.json'),
        JSON.stringify({
          outputDirectory: 'docs/dist',
          headers: [{ source: '/(.*)', headers: [{ key: 'X-Frame-Options', value: 'DENY' }] }],
        }),
      );
      expect([
        (await at('docs/dist')).forPage('/'),
        (await at('dist')).forPage('/'),
        (await at('dist')).diagnostics,
      ]).toEqual([[['x-frame-options', 'DENY']], [], []]);
    },
  );

  test(
    'a rule naming a page decoded or as the browser requests ' + 'it applies to the page, as objpack serve applies it',
    async () => {
      const headers = [
        '/café/',
        '  X-Decoded: 1',
        '/caf%C3%A9/',
        '  X-Encoded: 1',
        '/[slug].html',
        '  X-Slug: 1',
        '/%5Bslug%5D.html',
        '  X-Escaped: 1',
        '',
      ].join('\n');
      const root = await makeSite({ _headers: headers });
      const h = await loadSiteHeaders(root);
      expect(h.forPage('/caf%C3%A9/')).toEqual([
        ['x-decoded', '1'],
        ['x-encoded', '1'],
      ]);
      // Chromium requests [slug].html as /[slug].html: neither host matches a rule written /%5Bslug%5D.html to it.
      expect(h.forPage('/[slug].html')).toEqual([['x-slug', '1']]);
      // On Netlify (a netlify.toml, or --target netlify) a rule naming the path decoded never applies: it compares
      // the path as requested; it is left out (serve never sees it either), with a warning giving the spelling that
      // works.
      for (const netlify of [{ targets: ['netlify'] }, { toml: true }]) {
        const site = await makeSite({
          _headers: headers,
          ...(netlify.toml ? { 'netlify.toml': '[build]\npublish = "."\n' } : {}),
        });
        const n = await loadSiteHeaders(site, { targets: netlify.targets });
        expect(n.forPage('/caf%C3%A9/')).toEqual([['x-encoded', '1']]);
        expect(n.rules.map((r) => r.for)).toEqual(['/caf%C3%A9/', '/[slug].html', '/%5Bslug%5D.html']);
        expect(n.diagnostics.map((d) => [d.code, d.message])).toEqual([
          [
            'OBJPACK_W_HOST_HEADERS',
            'host headers: the rule for /café/ never applies on Netlify, which compares the path as the ' +
              'browser requests it (percent-encoded); write it as /caf%C3%A9/',
          ],
        ]);
      }
    },
  );

  test(
    'with --target cloudflare, _headers paths match as Cloudflare Pages matches them: case, escapes and a ' +
      'trailing slash count',
    async () => {
      const root = await makeSite({
        _headers: [
          '/about.html',
          '  X-Lower: 1',
          '/caf%c3%a9/',
          '  X-Hex-Lower: 1',
          '/café/',
          '  X-Decoded: 1',
          '/caf%C3%A9/',
          '  X-Encoded: 1',
          '/docs',
          '  X-No-Slash: 1',
          '/wiki/Help:x',
          '  X-Colon: 1',
          '',
        ].join('\n'),
      });
      const pages = ['/About.html', '/caf%C3%A9/', '/docs/', '/wiki/Help:Contents'];
      const seen = async (targets?: string[]) => {
        const h = await loadSiteHeaders(root, { targets });
        return pages.map((p) => h.forPage(p).map(([n]) => n));
      };
      // Netlify's parser (unknown host, or Netlify's): any case, an optional trailing slash, `:` only at a segment's
      // start.
      expect(await seen()).toEqual([['x-lower'], ['x-decoded', 'x-encoded', 'x-hex-lower'], ['x-no-slash'], []]);
      // With --target netlify too, Netlify's, which never sends /café/ (the rule is left out: see the test above).
      expect(await seen(['netlify', 'cloudflare'])).toEqual([
        ['x-lower'],
        ['x-encoded', 'x-hex-lower'],
        ['x-no-slash'],
        [],
      ]);
      // Cloudflare: the path as the URL parser spells it (café → caf%C3%A9), compared exactly; `:x` a placeholder
      // anywhere.
      expect(await seen(['cloudflare'])).toEqual([[], ['x-decoded', 'x-encoded'], [], ['x-colon']]);
      // The manifest says so, for objpack serve: no `i`.
      expect(
        (await loadSiteHeaders(root, { targets: ['cloudflare'] })).rules.find((r) => r.for === '/about.html'),
      ).toMatchObject({ match: '^\\/about\\.html$', flags: '' });
    },
  );

  test('netlify.toml [[headers]] count too; no config at all gives nothing', async () => {
    const root = await makeSite({
      'netlify.toml':
        '[[headers]]\n  for = "/app/*"\n  [headers.values]\n    Cross-Origin-Opener-Policy = "same-origin"\n',
    });
    expect((await loadSiteHeaders(root)).forPage('/app/x.html')).toEqual([
      ['cross-origin-opener-policy', 'same-origin'],
    ]);
    expect((await loadSiteHeaders(await makeSite({ 'index.html': '' }))).forPage('/')).toEqual([]);
  });
});
