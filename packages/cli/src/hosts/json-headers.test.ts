import { minimatch } from 'minimatch';
import { describe, expect, test } from 'vitest';
import { firebaseRules } from './firebase-headers.js';
import type { SiteRule } from './host.js';
import { vercelRules } from './vercel-headers.js';

const matching = (rules: SiteRule[], url: string) => rules.filter((r) => r.test(url)).map((r) => r.for);

describe('vercel.json headers', () => {
  test('sources compile as Vercel compiles them (path-to-regexp), without regard to case', async () => {
    const config = {
      headers: [
        { source: '/blog/:slug*', headers: [{ key: 'X-A', value: '1' }] },
        { source: '/(.*)', headers: [{ key: 'X-B', value: '2' }] },
        { source: '/about', headers: [{ key: 'X-C', value: '3' }] },
        { source: '/docs/:page', headers: [{ key: 'X-D', value: '4' }] },
      ],
    };
    const { rules, diagnostics } = await vercelRules(config, [], 'vercel.json');
    expect(diagnostics).toEqual([]);
    expect(matching(rules, '/blog')).toEqual(['/blog/:slug*', '/(.*)']);
    expect(matching(rules, '/blog/a/b')).toEqual(['/blog/:slug*', '/(.*)']);
    expect(matching(rules, '/About')).toEqual(['/(.*)', '/about']);
    expect(matching(rules, '/about/')).toEqual(['/(.*)']);
    expect(matching(rules, '/docs/intro')).toEqual(['/(.*)', '/docs/:page']);
    expect(matching(rules, '/docs/a/b')).toEqual(['/(.*)']);
    expect(rules[0]!.values).toEqual([['X-A', '1']]);
  });

  test("conditional, malformed and objpack's own entries are left out; the first two with a warning", async () => {
    const own = { source: '/', headers: [{ key: 'Link', value: '</a.css>; rel=preload; as=style' }] };
    const config = {
      headers: [
        own,
        { source: '/(.*)', has: [{ type: 'cookie', key: 'beta' }], headers: [{ key: 'X-Beta', value: '1' }] },
        { source: '/x', headers: { key: 'X', value: 'not a list' } },
        { source: '/(unclosed', headers: [{ key: 'X', value: '1' }] },
        { source: '/ok', headers: [{ key: 'X-Ok', value: '1' }] },
      ],
    };
    const { rules, diagnostics } = await vercelRules(config, [own], 'vercel.json');
    expect(rules.map((r) => r.for)).toEqual(['/ok']);
    expect(diagnostics.map((d) => [d.code, d.file])).toEqual(Array(3).fill(['OBJPACK_W_HOST_HEADERS', 'vercel.json']));
    expect(diagnostics[0]!.message).toContain('`has`/`missing`');
    expect((await vercelRules({ headers: 'x' }, [], 'vercel.json')).diagnostics).toHaveLength(1);
    expect(await vercelRules({ cleanUrls: true }, [], 'vercel.json')).toEqual({
      rules: [],
      diagnostics: [],
      cleanUrls: true,
      bareDirUrls: true,
    });
    // With trailingSlash: true, about.html is at /about/ (and /about redirects there).
    expect(await vercelRules({ cleanUrls: true, trailingSlash: true }, [], 'vercel.json')).toEqual({
      rules: [],
      diagnostics: [],
      cleanUrls: false,
      bareDirUrls: false,
      cleanSlashUrls: true,
    });
  });
});

describe('firebase.json headers', () => {
  test('globs as superstatic matches them (minimatch, a leading / added), regexes, case kept', async () => {
    const config = {
      hosting: {
        public: 'dist',
        headers: [
          { source: '**/*.@(eot|otf|ttf|woff|woff2)', headers: [{ key: 'Access-Control-Allow-Origin', value: '*' }] },
          { source: '404.html', headers: [{ key: 'X-404', value: '1' }] },
          { source: '/blog/**', headers: [{ key: 'X-Blog', value: '1' }] },
          { regex: '^/docs/[a-z]+$', headers: [{ key: 'X-Docs', value: '1' }] },
          { glob: '/legacy/*', headers: [{ key: 'X-Legacy', value: '1' }] },
        ],
      },
    };
    const { rules, diagnostics } = await firebaseRules(config, [], 'firebase.json', '/p', '/p/dist');
    expect(diagnostics).toEqual([]);
    expect(matching(rules, '/fonts/a.woff2')).toEqual(['**/*.@(eot|otf|ttf|woff|woff2)']);
    expect(matching(rules, '/a.WOFF2')).toEqual([]);
    expect(matching(rules, '/404.html')).toEqual(['404.html']);
    expect(matching(rules, '/blog/')).toEqual(['/blog/**']);
    expect(matching(rules, '/blog/2024/post.html')).toEqual(['/blog/**']);
    expect(matching(rules, '/docs/intro')).toEqual(['^/docs/[a-z]+$']);
    expect(matching(rules, '/docs/Intro')).toEqual([]);
    expect(matching(rules, '/legacy/a')).toEqual(['/legacy/*']);
    expect(matching(rules, '/legacy/a/b')).toEqual([]);
  });

  test(
    "page headers match exactly as superstatic's minimatch(path, glob); the RegExp for objpack serve agrees on " +
      'every page URL',
    async () => {
      const globs = [
        '/about',
        'about',
        '/docs/*',
        '/blog/**',
        '**',
        '/**/*.html',
        '/.well-known/*',
        '!/secret/**',
        '!secret/**',
        '/a/{b,c}',
        '/guide/',
        '**/*.@(css|js)',
        '/x?z',
      ];
      const paths = [
        '/',
        '/blog',
        '/.well-known/a',
        '/about',
        '/about/',
        '/About',
        '/docs/a.html',
        '/docs/guide/',
        '/docs/a/b',
        '/blog/',
        '/blog/2024/post.html',
        '/secret/a',
        '/x/secret/a',
        '/a/b',
        '/a/c/',
        '/guide/',
        '/guide',
        '/s/app.js',
        '/xyz',
        '/x/z',
      ];
      const config = {
        hosting: { public: '.', headers: globs.map((source) => ({ source, headers: [{ key: 'X', value: source }] })) },
      };
      const { rules, diagnostics } = await firebaseRules(config, [], 'firebase.json', '/p', '/p');
      expect(diagnostics).toEqual([]);
      // superstatic adds a leading slash to a source (after a '!'), then asks minimatch.
      const slashed = (g: string): string =>
        g.startsWith('!') ? `!${slashed(g.slice(1))}` : g.startsWith('/') ? g : `/${g}`;
      for (const [i, glob] of globs.entries()) {
        const rule = rules[i]!;
        for (const p of paths) {
          const want = minimatch(p, slashed(glob));
          expect(rule.test(p), `${glob} on ${p}`).toBe(want);
          // makeRe alone missed '/about/' for '/about' and '/docs/guide/' for '/docs/*' (directory pages).
          expect(new RegExp(rule.re.source, rule.re.flags).test(p), `RegExp of ${glob} on ${p}`).toBe(want);
        }
      }
      expect(matching(rules, '/docs/guide/')).toContain('/docs/*');
    },
  );

  test("the hosting site that publishes the built directory; another directory's config is not applied", async () => {
    const site = (dir: string, value: string) => ({
      public: dir,
      headers: [{ source: '**', headers: [{ key: 'X-Site', value }] }],
    });
    const many = { hosting: [site('docs/out', 'docs'), site('dist', 'app')] };
    expect((await firebaseRules(many, [], 'firebase.json', '/p', '/p/dist')).rules[0]!.values).toEqual([
      ['X-Site', 'app'],
    ]);
    expect((await firebaseRules(many, [], 'firebase.json', '/p', '/p/other')).rules).toEqual([]);
    // In the site directory itself (as `--target firebase` writes it: public '.'), a single site is the site.
    expect(
      (await firebaseRules({ hosting: site('public', 'one') }, [], 'firebase.json', '/p/dist', '/p/dist')).rules,
    ).toHaveLength(1);
    const bad = {
      hosting: {
        public: '.',
        headers: [
          { source: '/a', headers: [{ key: 'X' }] },
          { regex: '(', headers: [] },
          { source: '/ok', headers: [] },
        ],
      },
    };
    const r = await firebaseRules(bad, [], 'firebase.json', '/p', '/p');
    expect(r.rules.map((x) => x.for)).toEqual(['/ok']);
    expect(r.diagnostics).toHaveLength(2);
  });
});
