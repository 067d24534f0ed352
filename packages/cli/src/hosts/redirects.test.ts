import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { literalPath } from '@objpack/format';
import { applyRedirects } from './apply-redirects.js';
import type { FirebaseHosting } from './firebase-headers.js';
import { firebaseRouting, fromRe2 } from './firebase-routes.js';
import type { RedirectRule } from './host.js';
import { netlifyToml } from './netlify.js';
import { compileNetlify } from './netlify-pattern.js';
import { netlifyRedirects } from './netlify-redirects.js';
import { vercelRouting } from './vercel-routes.js';

/** The redirect rules of one config and their warnings. */
const vercelRedirects = async (config: unknown, file: string, text?: string) => {
  const { redirects: rules, diagnostics } = await vercelRouting(config, file, text);
  return { rules, diagnostics };
};
const firebaseRedirects = async (site: FirebaseHosting, ...rest: [string, string?, Array<string | number>?]) => {
  const { redirects: rules, diagnostics } = await firebaseRouting(site, ...rest);
  return { rules, diagnostics };
};
const netlifyFrom = (from: string) => {
  const { plain: re, host } = compileNetlify(from);
  return host === undefined ? { re } : { re, host };
};
import { cleanUrlOf } from '../discover/site-origin.js';
import { makeSite } from '../test-utils/site.js';
import type { Diagnostic } from '../discover/types.js';

const PATHS = [
  '/',
  '/a',
  '/a/',
  '/a.html',
  '/a/index.html',
  '/blog',
  '/blog/',
  '/blog/x',
  '/blog/x/y.html',
  '/blogx',
  '/.well-known/x',
  '/docs/v1/intro',
  '/docs/v1/v2/intro',
  '/OLD.html',
  '/old.html',
];
const taken = (rules: RedirectRule[]) => PATHS.filter((u) => rules.some((r) => r.test(u)));
const takenByRe = (rules: RedirectRule[]) => PATHS.filter((u) => rules.some((r) => r.re.test(u)));

describe('Netlify / Cloudflare Pages _redirects', () => {
  it('compiles `from` paths as either host matches them: splats, placeholders, optional trailing slash, any case', () => {
    const m = (from: string) => PATHS.filter((u) => netlifyFrom(from).re.test(u));
    expect(m('/blog/*')).toEqual(['/blog', '/blog/', '/blog/x', '/blog/x/y.html']);
    expect(m('/blog')).toEqual(['/blog', '/blog/']);
    expect(m('/blog/')).toEqual(['/blog', '/blog/']);
    expect(m('/blog*')).toEqual(['/blog', '/blog/', '/blog/x', '/blog/x/y.html', '/blogx']);
    expect(m('/*/y.html')).toEqual(['/blog/x/y.html']);
    expect(m('/docs/:v/intro')).toEqual(['/docs/v1/intro']);
    expect(m('/:name.html')).toEqual(['/a.html', '/OLD.html', '/old.html']);
    expect(m('/old.html')).toEqual(['/OLD.html', '/old.html']);
    expect(m('/*')).toEqual(PATHS);
    // A domain-level rule keeps its host: the worker compares it with its own.
    expect([m('https://a.example/a'), netlifyFrom('https://A.example/a').host]).toEqual([['/a', '/a/'], 'a.example']);
  });

  it('without netlify.toml (Cloudflare Pages applies every rule first; Netlify forced ones): redirects, forced rules and rewrites of a named path take pages; a wildcard rewrite only clean URLs', async () => {
    const root = await makeSite({
      _redirects:
        '/a /b 301\n/blog/* /news/:splat 302\n/* /index.html 200\n/x /y 404\n/docs/* /d.html 200!\n# comment\n',
    });
    const diagnostics: Diagnostic[] = [];
    const rules = await netlifyRedirects(root, undefined, diagnostics);
    expect(rules.map((r) => [r.file, r.for, r.cleanOnly === true])).toEqual([
      ['_redirects', '/a', false],
      ['_redirects', '/blog/*', false],
      ['_redirects', '/*', true],
      ['_redirects', '/x', false],
      ['_redirects', '/docs/*', false],
    ]);
    expect(diagnostics).toEqual([]);
  });

  it('with a netlify.toml the site is on Netlify: only forced rules take a URL that has a file, unforced ones clean URLs', async () => {
    const root = await makeSite({
      _redirects: '/a /b 301\n/docs/* /d.html 200!\n',
      'netlify.toml':
        '[[redirects]]\nfrom = "/old.html"\nto = "/"\nstatus = 301\n\n[[redirects]]\nfrom = "/gone.html"\nto = "/"\nstatus = 301\nforce = true\n',
    });
    const rules = await netlifyRedirects(root, path.join(root, 'netlify.toml'), []);
    expect(rules.map((r) => [r.file, r.for, r.cleanOnly === true])).toEqual([
      ['_redirects', '/a', true],
      ['_redirects', '/docs/*', false],
      ['netlify.toml', '/old.html', true],
      ['netlify.toml', '/gone.html', false],
    ]);
  });

  it("the project's netlify.toml configures the site unless its build.publish names another directory", async () => {
    const project = await makeSite({
      'netlify.toml': '[build]\nbase = "web"\npublish = "dist"\n',
      'web/dist/index.html': '<!doctype html>',
    });
    const root = path.join(project, 'web', 'dist');
    expect(await netlifyToml(root, [root, project])).toBe(path.join(project, 'netlify.toml'));
    expect(await netlifyToml(path.join(project, 'web'), [path.join(project, 'web'), project])).toBeUndefined();
    await writeFile(path.join(project, 'netlify.toml'), '[[headers]]\nfor = "/*"\n');
    expect(await netlifyToml(path.join(project, 'web'), [path.join(project, 'web'), project])).toBe(
      path.join(project, 'netlify.toml'),
    );
  });

  it('a malformed line is a warning, the rest still counts', async () => {
    const root = await makeSite({ _redirects: '/a\n/b /c 301\n' });
    const diagnostics: Diagnostic[] = [];
    expect((await netlifyRedirects(root, undefined, diagnostics)).map((r) => r.for)).toEqual(['/b']);
    expect(diagnostics.map((d) => d.code)).toEqual(['OBJPACK_W_HOST_REDIRECTS']);
  });
});

describe('vercel.json', () => {
  it('redirects, cleanUrls and trailingSlash as Vercel routes them; rewrites come after the files', async () => {
    const { rules } = await vercelRedirects(
      {
        redirects: [{ source: '/old.html', destination: '/' }],
        rewrites: [{ source: '/(.*)', destination: '/index.html' }],
      },
      'vercel.json',
    );
    expect(taken(rules)).toEqual(['/OLD.html', '/old.html']);
    expect(taken((await vercelRedirects({ cleanUrls: true }, 'vercel.json')).rules)).toEqual([
      '/a.html',
      '/a/index.html',
      '/blog/x/y.html',
      '/OLD.html',
      '/old.html',
    ]);
    expect(taken((await vercelRedirects({ trailingSlash: false }, 'vercel.json')).rules)).toEqual(['/a/', '/blog/']);
  });

  it("trailingSlash: true's /.well-known exception holds for the rules after it", async () => {
    const { rules } = await vercelRedirects(
      { trailingSlash: true, redirects: [{ source: '/.well-known/:p', destination: '/' }] },
      'vercel.json',
    );
    expect(taken(rules)).toEqual(['/a', '/blog', '/blog/x', '/blogx', '/docs/v1/intro', '/docs/v1/v2/intro']);
    expect(takenByRe(rules)).toEqual(taken(rules));
  });

  it('a rule with has/missing is kept (it depends on the request); a config Vercel would refuse takes every URL, with a warning', async () => {
    expect(
      taken(
        (
          await vercelRedirects(
            { redirects: [{ source: '/a', destination: '/', has: [{ type: 'cookie', key: 'x' }] }] },
            'vercel.json',
          )
        ).rules,
      ),
    ).toEqual(['/a']);
    const bad = await vercelRedirects({ redirects: [{ source: '(', destination: '/' }] }, 'vercel.json');
    expect([taken(bad.rules), bad.diagnostics.map((d) => d.code)]).toEqual([PATHS, ['OBJPACK_W_HOST_REDIRECTS']]);
    expect(await vercelRedirects({ headers: [] }, 'vercel.json')).toEqual({ rules: [], diagnostics: [] });
  });
});

describe('vercel.json lines', () => {
  it("each redirect and route names its own line, not an earlier rule's destination written like its source", async () => {
    const text = [
      '{',
      '  "routes": [{ "src": "/legacy", "dest": "/old" }, { "src": "/old", "status": 308, "headers": { "Location": "/" } }],',
      '  "redirects": [',
      '    { "source": "/old", "destination": "/new" },',
      '    {',
      '      "destination": "/newer",',
      '      "source": "/new"',
      '    }',
      '  ]',
      '}',
    ].join('\n');
    const { rules } = await vercelRedirects(JSON.parse(text) as Record<string, unknown>, 'vercel.json', text);
    expect(rules.map((r) => [r.written ?? r.for, r.line])).toEqual([
      ['/legacy', 2],
      ['/old', 2],
      ['/old', 4],
      ['/new', 7],
    ]);
  });
});

describe('vercel.json legacy routes', () => {
  it('a rewrite that goes on (`continue` with `dest`) takes the URL; a conditional pass-through excludes nothing', async () => {
    expect(
      taken(
        (await vercelRedirects({ routes: [{ src: '/a.html', dest: '/other.html', continue: true }] }, 'vercel.json'))
          .rules,
      ),
    ).toEqual(['/a.html']);
    const { rules } = await vercelRedirects(
      {
        routes: [
          { src: '/(.*)', has: [{ type: 'cookie', key: 'beta' }] },
          { src: '/old.html', status: 308, headers: { Location: '/' } },
        ],
      },
      'vercel.json',
    );
    expect(taken(rules)).toEqual(['/OLD.html', '/old.html']);
    const always = await vercelRedirects(
      { routes: [{ src: '/(.*)' }, { src: '/old.html', status: 308, headers: { Location: '/' } }] },
      'vercel.json',
    );
    expect(taken(always.rules)).toEqual([]);
  });
});

describe('Cloudflare Pages', () => {
  it('applies before its files only the `_redirects` rules its parser keeps (workers-sdk parseRedirects)', async () => {
    const root = await makeSite({
      _redirects: [
        // A proxy to another origin is refused after its source is taken: the next rule of that source is a duplicate.
        '/* https://ext.example/:splat 200',
        '/* /maintenance.html 302',
        // Destinations are relative or https://.
        '/a http://ext.example/ 301',
        '/a /b 301',
        '/c https://ext.example/c 301',
        '',
      ].join('\n'),
    });
    const rules = await netlifyRedirects(root, undefined, []);
    expect(rules.map((r) => [r.for, r.line, r.beforeFilesOn])).toEqual([
      ['/*', 1, undefined],
      ['/*', 2, undefined],
      ['/a', 3, undefined],
      ['/a', 4, 'Cloudflare Pages'],
      ['/c', 5, 'Cloudflare Pages'],
    ]);
  });
});

describe('firebase.json', () => {
  it("each redirect names its own line: not an earlier rule's destination written like its source, not a `redirects` JSON.parse drops", async () => {
    const text = [
      '{',
      '  "hosting": {',
      '    "redirects": [{ "source": "/gone", "destination": "/elsewhere" }],',
      '    "redirects": [',
      '      { "source": "/old", "destination": "/new" },',
      '      {',
      '        "destination": "/newer",',
      '        "source": "/new"',
      '      },',
      '      { "regex": "^/r$", "destination": "/old" },',
      '      { "destination": "/" },',
      '      { "source": "/old", "destination": "/x" }',
      '    ]',
      '  }',
      '}',
    ].join('\n');
    const { rules } = await firebaseRedirects((JSON.parse(text) as { hosting: object }).hosting, 'firebase.json', text);
    expect(rules.map((r) => [r.for, r.line])).toEqual([
      ['/old', 5],
      ['/new', 8],
      ['^/r$', 10],
      ['/old', 12],
    ]);
  });

  it('globs, regexes and path patterns as superstatic matches them; the RegExp agrees', async () => {
    const { rules, diagnostics } = await firebaseRedirects(
      {
        redirects: [
          { source: '/blog/**', destination: '/news' },
          { source: '/docs/:v/intro', destination: '/d/:v' },
          { regex: '^/a\\.html$', destination: '/' },
          { source: 'old.html', destination: '/' },
          { destination: '/' },
          { source: '/Blog/:slug', destination: '/posts/:slug' },
          { source: '/a/:page?', destination: '/d/:page' },
          { source: '/docs/*', destination: '/d/:x' },
        ],
      },
      'firebase.json',
    );
    expect(diagnostics.map((d) => d.code)).toEqual(['OBJPACK_W_HOST_REDIRECTS']);
    expect(rules.map((r) => taken([r]))).toEqual([
      ['/blog/', '/blog/x', '/blog/x/y.html'],
      ['/docs/v1/intro'],
      ['/a.html'],
      ['/old.html'],
      ['/blog/x'],
      ['/a', '/a/', '/a/index.html'],
      ['/docs/v1/intro', '/docs/v1/v2/intro'],
    ]);
    for (const r of rules) expect([r.for, PATHS.filter((u) => !r.re.test(u) && r.test(u))]).toEqual([r.for, []]);
  });

  it('a rest capture put into a destination segment without `*` is named with its line: superstatic and Firebase Hosting disagree there', async () => {
    const site = {
      redirects: [
        { source: '/a/:rest*', destination: '/b/:rest*' },
        { source: '/c/:rest*', destination: '/d/:rest' },
        { source: '/e/*', destination: '/f/:0' },
      ],
    };
    const text = JSON.stringify({ hosting: site }, null, 2);
    const { diagnostics } = await firebaseRedirects(site, 'firebase.json', text);
    expect(diagnostics.map((d) => [d.code, d.line, /:\w+\* in the destination/.exec(d.message)?.[0]])).toEqual([
      ['OBJPACK_W_HOST_REDIRECTS', 9, ':rest* in the destination'],
      ['OBJPACK_W_HOST_REDIRECTS', 13, ':0* in the destination'],
    ]);
  });

  it('regex rules in RE2 syntax; one that does not compile here takes every URL, with a warning', async () => {
    expect(fromRe2('^/(?P<slug>[a-z]+)\\.html$').test('/old.html')).toBe(true);
    expect(fromRe2('^/a\\-b\\.html$').test('/a-b.html')).toBe(true);
    expect(fromRe2('(?i)^/old\\.HTML$').test('/OLD.html')).toBe(true);
    const { rules, diagnostics } = await firebaseRedirects(
      { redirects: [{ regex: '^/(?<x', destination: '/' }] },
      'firebase.json',
    );
    expect([taken(rules), diagnostics.map((d) => d.code)]).toEqual([PATHS, ['OBJPACK_W_HOST_REDIRECTS']]);
  });

  it('cleanUrls sends .html paths to their clean form; trailingSlash: false a directory path to its bare form', async () => {
    expect(taken((await firebaseRedirects({ cleanUrls: true }, 'firebase.json')).rules)).toEqual([
      '/a.html',
      '/a/index.html',
      '/blog/x/y.html',
      '/OLD.html',
      '/old.html',
    ]);
    expect(taken((await firebaseRedirects({ trailingSlash: false }, 'firebase.json')).rules)).toEqual([
      '/a/',
      '/blog/',
    ]);
    // With trailingSlash: true `/about` goes to `/about/`: the worker's clean URL for about.html.
    expect(taken((await firebaseRedirects({ trailingSlash: true, cleanUrls: false }, 'firebase.json')).rules)).toEqual([
      '/a',
      '/blog',
      '/blog/x',
      '/blogx',
      '/.well-known/x',
      '/docs/v1/intro',
      '/docs/v1/v2/intro',
    ]);
  });
});

describe('applyRedirects', () => {
  const rule = (src: string, flags = 'i'): RedirectRule => {
    const re = new RegExp(src, flags);
    return { file: 'x', for: src, re, test: (u) => re.test(u) };
  };

  it('names pages by the URL the site links them with, keeps only rules that take a URL the worker answers', () => {
    const rules = [
      rule('^/guide/index\\.html$'),
      rule('^/about$'),
      rule('^/nowhere$'),
      rule('^/caf\u00e9\\.html$', 'u'),
    ];
    const clean = applyRedirects(['/', '/guide/', '/about.html', '/caf%C3%A9.html'], rules, { cleanUrls: true });
    expect(clean.redirected.map((p) => [p.url, p.rule.for])).toEqual([['/about', '^/about$']]);
    expect(clean.rules.map((r) => r.for)).toEqual(['^/guide/index\\.html$', '^/about$', '^/caf\u00e9\\.html$']);
    const plain = applyRedirects(['/', '/guide/', '/about.html', '/caf%C3%A9.html'], rules, { cleanUrls: false });
    expect(plain.redirected.map((p) => p.url)).toEqual(['/caf%C3%A9.html']);
    expect(plain.rules.map((r) => r.for)).toEqual(['^/guide/index\\.html$', '^/caf\u00e9\\.html$']);
  });

  it('with bare directory URLs a directory page is named by /guide: redirected only when a rule takes that, and rules taking it stay', async () => {
    const { rules } = await vercelRedirects(
      { trailingSlash: false, redirects: [{ source: '/moved', destination: '/' }] },
      'vercel.json',
    );
    const urls = ['/', '/guide/', '/moved/', '/about.html'];
    const bare = applyRedirects(urls, rules, { cleanUrls: false, bareDirUrls: true });
    expect(bare.redirected.map((p) => [p.url, p.rule.for])).toEqual([['/moved', '^/moved$']]);
    expect(bare.rules.map((r) => r.for).sort()).toEqual(['^/(.*)/$', '^/moved$']);
    // Without it the directory page is taken at /guide/ (the host sends that to /guide).
    expect(applyRedirects(urls, rules, { cleanUrls: false }).redirected.map((p) => p.url)).toEqual([
      '/guide/',
      '/moved/',
    ]);
  });

  it('a clean-only rule (Netlify, unforced) takes a page at its clean URL only; a rule for another host none', () => {
    const unforced = { ...rule('^/about/?$'), cleanOnly: true };
    expect(applyRedirects(['/about.html'], [unforced], { cleanUrls: true }).redirected.map((p) => p.url)).toEqual([
      '/about',
    ]);
    expect(applyRedirects(['/about.html'], [unforced], { cleanUrls: false })).toEqual({ redirected: [], rules: [] });
    expect(applyRedirects(['/about/'], [{ ...rule('^/about/?$'), cleanOnly: true }], { cleanUrls: true })).toEqual({
      redirected: [],
      rules: [],
    });
    const domain = { ...rule('^/about\\.html$'), host: 'old.example' };
    expect(applyRedirects(['/about.html'], [domain], { cleanUrls: false }, 'new.example').rules).toEqual([]);
    expect(applyRedirects(['/about.html'], [domain], { cleanUrls: false }, 'OLD.example').rules).toEqual([domain]);
    expect(applyRedirects(['/about.html'], [domain], { cleanUrls: false }).rules).toEqual([domain]);
  });

  it('past 4M page × pattern-rule tests every pattern rule is kept rather than checked; rules naming one path are always looked up', () => {
    const urls = Array.from({ length: 40_001 }, (_, i) => `/p${i}.html`);
    const patterns = Array.from({ length: 100 }, (_, i) => rule(`^/none${i}/.*$`));
    expect(applyRedirects(urls, patterns, { cleanUrls: false }).rules).toHaveLength(100);
    expect(applyRedirects(urls.slice(0, 100), patterns, { cleanUrls: false }).rules).toHaveLength(0);
    // 50,000 redirects of old URLs: only those naming a page's URL stay, however many pages.
    const old = Array.from({ length: 50_000 }, (_, i) => rule(`^/old${i}\\.html\\/?$`));
    const r = applyRedirects([...urls, '/old7.html', '/OLD42.html'], [...old, rule('^/p1\\.html$')], {
      cleanUrls: false,
    });
    expect(r.rules.map((x) => x.for)).toEqual(['^/old7\\.html\\/?$', '^/old42\\.html\\/?$', '^/p1\\.html$']);
    expect(r.redirected.map((x) => x.url)).toEqual(['/p1.html', '/old7.html', '/OLD42.html']);
  });

  it("finds one-path rules by their path exactly as testing every rule would, in the host's rule order", () => {
    const urls = [
      '/',
      '/a',
      '/a/',
      '/a.html',
      '/guide/',
      '/guide/index.html',
      '/about.html',
      '/caf%C3%A9.html',
      '/Blog/X',
      '/blog/x/',
      '/x/y.html',
    ];
    const rules: RedirectRule[] = [
      ...['/a', '/guide/', '/about', '/blog/x', '/caf\u00e9.html', '/nowhere', '/x/*', '/:p.html', '/blog/*'].map(
        (from) => ({
          file: '_redirects',
          for: from,
          ...netlifyFrom(from),
          test: (u: string) => netlifyFrom(from).re.test(u),
        }),
      ),
      { ...rule('^/a$'), cleanOnly: true },
      rule('^(?!(?:^/skip$))(?:^/a\\.html$)'),
      rule('^/guide/index\\.html$', ''),
    ];
    // The reference: every rule tested against every form of every URL, as before the lookup.
    const reference = (list: RedirectRule[], clean: boolean) => {
      const forms = (u: string) => [...new Set([u, decodeURIComponent(u)])];
      const redirected: Array<[string, string]> = [];
      const used = new Set<RedirectRule>();
      for (const url of urls) {
        const bare = clean ? cleanUrlOf(url) : undefined;
        const seen = forms(bare ?? url);
        const first = list.find((r) => (bare !== undefined || !r.cleanOnly) && seen.some((u) => r.test(u)));
        if (first) redirected.push([bare ?? url, first.for]);
        const files = [...forms(url), ...(url.endsWith('/') ? forms(`${url}index.html`) : [])];
        for (const r of list)
          if ((!r.cleanOnly && files.some((u) => r.test(u))) || (bare !== undefined && seen.some((u) => r.test(u))))
            used.add(r);
      }
      return { redirected, rules: list.filter((r) => used.has(r)).map((r) => r.for) };
    };
    for (const clean of [false, true]) {
      for (const list of [rules, [...rules].reverse()]) {
        const got = applyRedirects(urls, list, { cleanUrls: clean });
        expect({
          redirected: got.redirected.map((x) => [x.url, x.rule.for]),
          rules: got.rules.map((r) => r.for),
        }).toEqual(reference(list, clean));
      }
    }
  });

  it('reads the one path of a rule from its pattern, whatever host wrote it, and nothing from a wildcard', async () => {
    expect(
      ['/old', '/old/', '/Old.html', 'https://a.example/x', '/blog/*', '/:p', '/a*b'].map((f) =>
        literalPath(netlifyFrom(f).re),
      ),
    ).toEqual(['/old', '/old', '/Old.html', '/x', undefined, undefined, undefined]);
    const vercel = await vercelRedirects(
      {
        redirects: [
          { source: '/old', destination: '/new' },
          { source: '/blog/:slug', destination: '/b' },
        ],
      },
      'vercel.json',
    );
    expect(vercel.rules.map((r) => literalPath(r.re))).toEqual(['/old', undefined]);
    const root = await makeSite({});
    const firebase = await firebaseRedirects(
      {
        redirects: [
          { source: '/old.html', destination: '/n' },
          { source: '/docs/**', destination: '/d' },
          { source: '/p/:id', destination: '/q/:id' },
        ],
      },
      path.join(root, 'firebase.json'),
    );
    expect(firebase.rules.map((r) => literalPath(r.re))).toEqual(['/old.html', undefined, undefined]);
    expect(
      ['^/a$|^/b$', '^/a\\\\$', '^/a(?<!b)$', '^/a', '/a$', '^/a\\d$'].map((src) => literalPath(new RegExp(src))),
    ).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});
