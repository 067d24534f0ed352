import type { HostRoute } from '@objpack/format';
import { minimatch } from 'minimatch';
import pathToRegexp from 'path-to-regexp';
import { describe, expect, it } from 'vitest';
import type { FirebaseHosting } from './firebase-headers.js';
import { firebaseRouting } from './firebase-routes.js';
import type { HostRoutes } from './host.js';
import { compileNetlify as netlifyCapture } from './netlify-pattern.js';
import { netlifyRoute } from './netlify-redirects.js';
import { vercelRouting } from './vercel-routes.js';

/** The pattern as the worker's route table has it: the same compiled route, without its groups. */
const netlifyFrom = (from: string) => ({ re: netlifyCapture(from).plain });
const vercelRoutes = async (config: unknown, file: string) => (await vercelRouting(config, file)).routes;
const firebaseRoutes = async (site: FirebaseHosting, file: string) => (await firebaseRouting(site, file)).routes;

const PATHS = [
  '/',
  '/a',
  '/a/',
  '/a.html',
  '/blog',
  '/blog/',
  '/blog/x',
  '/blog/x/y.html',
  '/blogx',
  '/docs/v1/intro',
  '/docs/v1/v2/intro',
  '/post-7.html',
  '/OLD.html',
];
const FROMS = [
  '/blog/*',
  '/blog',
  '/blog/',
  '/blog*',
  '/*/y.html',
  '/docs/:v/intro',
  '/:name.html',
  '/post-:id.html',
  '/*',
  '/old.html',
  '/:a/:a',
  'https://a.example/blog/*',
];

describe('Netlify _redirects as objpack serve applies them', () => {
  it('captures match exactly what the build already matches, with `:name` and `*` as named groups', () => {
    for (const from of FROMS)
      expect(
        PATHS.filter((u) => netlifyCapture(from).re.test(u)),
        from,
      ).toEqual(PATHS.filter((u) => netlifyFrom(from).re.test(u)));
    expect(netlifyCapture('/blog/*').re.exec('/blog/x/y.html')?.groups).toEqual({ splat: 'x/y.html' });
    expect(netlifyCapture('/post-:id.html').re.exec('/post-7.html')?.groups).toEqual({ id: '7' });
    expect(netlifyCapture('https://a.example/blog/*').host).toBe('a.example');
  });

  it('records destinations as templates, unforced rules as shadowed, and skips what needs the host', () => {
    const out: HostRoutes = { routes: [], skipped: [] };
    const rules = [
      { from: '/old', to: '/new', status: 301, force: false, query: {}, conditions: {} },
      { from: '/news/:year/*', to: '/blog/:year/:splat?price=$5&x=:nope', force: true },
      { from: '/store', to: '/blog/:id', status: 302, query: { id: ':id' } },
      { from: '/*', to: '/index.html', status: 200 },
      { from: '/api/*', to: 'https://api.example.com/:splat', status: 200, proxy: true },
      { from: '/fr', to: '/fr/', status: 302, conditions: { Country: ['fr'] } },
      { from: '/fn', to: '/.netlify/functions/x', status: 200 },
      { from: '/s', to: '/t', status: 200, signed: 'SECRET' },
    ];
    for (const r of rules) netlifyRoute(r, '_redirects', out);
    expect(out.routes).toEqual([
      ['^\\/old\\/?$', '/new', 301, { shadowed: true }],
      ['^\\/news\\/(?<year>[^/]+)(?:\\/(?<splat>.*))?$', '/blog/${year}/${splat}?price=$$5&x=:nope', 301],
      ['^\\/store\\/?$', '/blog/${id}', 302, { shadowed: true, query: [['id', ':id']] }],
      ['^(?:\\/(?<splat>.*))?$', '/index.html', 200, { shadowed: true }],
      // What the host answers with a proxy or a function: a 502 in objpack serve, not the fallback above.
      ['^\\/api(?:\\/(?<splat>.*))?$', '', 502, { shadowed: true }],
      ['^\\/fn\\/?$', '', 502, { shadowed: true }],
      ['^\\/s\\/?$', '', 502, { shadowed: true }],
    ]);
    expect(out.skipped.map((s) => s.for)).toEqual(['/api/*', '/fr', '/fn', '/s']);
  });
});

describe('vercel.json as objpack serve applies it', () => {
  it('redirects and cleanUrls before the filesystem, rewrites after it, conditions and proxies skipped', async () => {
    const out = await vercelRoutes(
      {
        cleanUrls: true,
        redirects: [
          { source: '/old/:slug', destination: '/new/:slug' },
          { source: '/t', destination: '/u', permanent: false },
          { source: '/c', destination: '/d', has: [{ type: 'cookie', key: 'x' }] },
        ],
        rewrites: [
          { source: '/r/:id', destination: '/page.html' },
          { source: '/api/(.*)', destination: 'https://api.example.com/$1' },
        ],
      },
      'vercel.json',
    );
    expect(out.routes.map(([m, to, status, o]) => [m, to, status, o?.shadowed ?? false])).toEqual([
      [String.raw`^\/(?:(.+)\/)?index(?:\.html)?\/?$`, '/$1', 308, false],
      [String.raw`^\/(.*)\.html\/?$`, '/$1', 308, false],
      [String.raw`^\/old(?:\/([^/]+?))$`, '/new/$1', 308, false],
      [String.raw`^\/t$`, '/u', 307, false],
      [String.raw`^\/r(?:\/([^/]+?))$`, '/page.html?id=$1', 200, true],
      [String.raw`^\/api(?:\/(.*))$`, '', 502, true],
    ]);
    expect(out.skipped.map((s) => s.for)).toEqual(['^/c$', '^/api(?:/(.*))$']);
  });

  it(
    'legacy routes: a route that lets the files answer shields ' +
      'what it matches from later ones; `$name` stays a group',
    async () => {
      const out = await vercelRoutes(
        { routes: [{ src: '/keep' }, { src: '/(?<slug>[^/]+)', status: 301, headers: { Location: '/n/$slug' } }] },
        'vercel.json',
      );
      expect(out.routes).toEqual([[String.raw`^\/(?<slug>[^/]+)$`, '/n/${slug}', 301, { unless: '(?:^/keep$)' }]]);
      expect(await vercelRoutes({ redirects: 'x' }, 'vercel.json')).toEqual({ routes: [], skipped: [] });
    },
  );
});

describe('firebase.json as objpack serve applies it', () => {
  it('redirects with `:segments` (path-to-regexp), a glob fallback, regex groups; rewrites to files only', async () => {
    const out = await firebaseRoutes(
      {
        redirects: [
          { source: '/blog/:slug', destination: '/news/:slug', type: 302 },
          { source: '/a/**', destination: '/b' },
          { regex: '^/p/(\\d+)$', destination: '/q/:1' },
          { source: '/ext', destination: 'https://example.com/' },
        ],
        rewrites: [
          { source: '**', destination: '/index.html' },
          { source: '/api/**', function: 'api' },
          { source: '/run', run: { serviceId: 'x' } },
        ],
      },
      'firebase.json',
    );
    const [capture, glob, ...rest] = out.routes;
    expect(capture!.slice(1, 3)).toEqual(['/news/$1', 302]);
    expect(new RegExp(capture![0], 'i').exec('/BLOG/x')?.[1]).toBe('x');
    expect(glob!.slice(1)).toEqual(['/news/:slug', 302, { flags: '' }]);
    expect(rest.map((r) => r.slice(1, 3))).toEqual([
      ['/b', 301],
      ['/q/$1', 301],
      ['https://example.com/', 301],
      ['/index.html', 200],
      ['', 502],
      ['', 502],
    ]);
    expect(rest.slice(-3).map((r) => r[3])).toEqual([
      { flags: '', shadowed: true },
      { flags: '', shadowed: true },
      { flags: '', shadowed: true },
    ]);
    expect(out.skipped.map((s) => s.for)).toEqual(['/api/**', '/run']);
  });
});

/**
 * superstatic's Redirect.test (middleware/redirects.js) with its own libraries, path-to-regexp 1.x and
 * minimatch: the destination a redirect rule gives `url`, or undefined.
 */
function superstaticRedirect(glob: string, destination: string, url: string): string | undefined {
  if (/(?:^|\/):/.test(destination)) {
    const keys: pathToRegexp.Key[] = [];
    const m = pathToRegexp(glob, keys).exec(url);
    if (m) {
      const params: Record<string, string | string[] | undefined> = {};
      keys.forEach((k, i) => (params[k.name] = m[i + 1]?.includes('/') ? m[i + 1]!.split('/') : m[i + 1]));
      try {
        return decodeURIComponent(pathToRegexp.compile(destination)(params));
      } catch {
        return undefined;
      }
    }
  }
  return minimatch(url, glob) ? destination : undefined;
}

/**
 * The first recorded route that takes `url` and its destination, as objpack serve fills a template in (captures as they
 * are, for plain paths).
 */
function served(routes: HostRoute[], url: string): string | undefined {
  for (const [match, to, , o] of routes) {
    const m = new RegExp(match, o?.flags ?? 'i').exec(url);
    if (!m || (o?.unless !== undefined && new RegExp(o.unless, o.flags ?? 'i').test(url))) continue;
    const value = (name: string) => (/^\d+$/.test(name) ? m[Number(name)] : m.groups?.[name]);
    if (Object.entries(o?.groups ?? {}).some(([name, has]) => (has ? !value(name) : value(name) !== undefined)))
      continue;
    return to.replace(/\$(\$|\d+|\{(\w+)\})/g, (_t, ref: string, name?: string) =>
      ref === '$' ? '$' : ((name !== undefined ? m.groups?.[name] : m[Number(ref)]) ?? ''),
    );
  }
  return undefined;
}

describe('firebase.json redirects with `:segments` give the destination superstatic gives', () => {
  const rules: Array<[string, string]> = [
    ['/old/:rest*', '/new/:rest*'],
    ['/old2/:rest*', '/new2/:rest*/end'],
    ['/a/:x?', '/b/:x?'],
    ['/c/:x?/:y?', '/d/:y?/:x?'],
    ['/e/:x?', '/f/:x'],
    ['/g', '/h/:missing'],
    ['/i/:x+', '/j/:x+'],
    ['/k/:x?', '/file.:x?'],
    ['/l/:a/:b*', '/m/:b*/:a'],
    // Several segments into a destination segment without `*`/`+`: compile() refuses them.
    ['/n/:rest*', '/o/:rest'],
    ['/n2/:rest+', '/o2/:rest/end'],
    ['/n3/:rest*', '/o3/:rest/:rest*'],
    ['/s/*', '/t/:0'],
    ['/s2/*', '/t2/:0*'],
    // A last `*` (`.*`, greedy) takes the URL's trailing slash into its value: an empty last segment, refused too.
    ['/s3/*', '/t3/:0?'],
  ];
  const urls = [
    '/old',
    '/old/',
    '/old/a',
    '/old/a/b/',
    '/OLD/x',
    '/old2/',
    '/old2/p/q',
    '/a',
    '/a/',
    '/a/1',
    '/c',
    '/c/1',
    '/c/1/2',
    '/c/1/2/',
    '/e',
    '/e/1',
    '/g',
    '/g/',
    '/i',
    '/i/',
    '/i/1/2',
    '/k',
    '/k/txt',
    '/l/1',
    '/l/1/2/3',
    '/n',
    '/n/',
    '/n/a',
    '/n/a/',
    '/n/a/b',
    '/n2/a',
    '/n2/a/b',
    '/n3/a',
    '/n3/a/b',
    '/s',
    '/s/',
    '/s/a',
    '/s/a/b',
    '/s/a//b',
    '/s2/',
    '/s2/a',
    '/s2/a/b',
    '/s2/a//b',
    '/s/a/',
    '/s/a/b/',
    '/s2/a/',
    '/s2/a/b/',
    '/s3/',
    '/s3/a',
    '/s3/a/',
    '/none',
  ];

  it(
    'an optional segment without a value drops with its slash (`/old/` → `/new`); a required one without ' +
      'leaves the URL to later rules',
    async () => {
      for (const [source, destination] of rules) {
        const { routes } = await firebaseRoutes({ redirects: [{ source, destination }] }, 'firebase.json');
        for (const url of urls)
          expect(served(routes, url), `${source} → ${destination}: ${url}`).toBe(
            superstaticRedirect(source, destination, url),
          );
      }
      const { routes } = await firebaseRoutes(
        { redirects: [{ source: '/old/:rest*', destination: '/new/:rest*' }] },
        'firebase.json',
      );
      expect(['/old/', '/old', '/old/a/b'].map((u) => served(routes, u))).toEqual(['/new', '/new', '/new/a/b']);
    },
  );

  it(
    'a multi-segment value for a destination segment without `*` redirects nothing, and the URL goes to the ' +
      'next rule, not to the glob',
    async () => {
      const { routes } = await firebaseRoutes(
        {
          redirects: [
            { source: '/a/:rest*', destination: '/b/:rest' },
            { source: '/a/**', destination: '/later' },
          ],
        },
        'firebase.json',
      );
      expect(['/a/x', '/a/x/y', '/a/x/y/z'].map((u) => served(routes, u))).toEqual(['/b/x', '/later', '/later']);
    },
  );
});

/**
 * superstatic's Redirect.test for a `regex` rule (JavaScript RegExp, as without RE2): groups by number and name, filled
 * in by compile().
 */
function superstaticRegexRedirect(regex: string, destination: string, url: string): string | undefined {
  const m = new RegExp(regex, 'u').exec(url);
  if (!m) return undefined;
  const params: Record<string, string | undefined> = { ...m.groups };
  m.forEach((v, j) => (params[String(j)] = v));
  try {
    return decodeURIComponent(pathToRegexp.compile(destination)(params));
  } catch {
    return undefined;
  }
}

describe('firebase.json `regex` redirects give the destination superstatic gives', () => {
  const rules: Array<[string, string]> = [
    ['^/r/(\\d+)?/?x$', '/s/:1'],
    ['^/r2/(\\d+)?x$', '/s2/:1?'],
    ['^/r3/(?<id>\\d*)$', '/s3/:id'],
    ['^/r4/(.+)$', '/s4/:1'],
    ['^/r5/(a)?(b)?$', '/s5/:1?/:2?/end'],
    ['^/r6/(x)?$', '/s6/:1?-tail'],
    ['^/r7$', '/s7/:3'],
    // A group named twice has one value: present in both places or absent from both.
    ['^/r8/(a)?$', '/s8/:1/:1?'],
    ['^/r9/(a)?(b)?$', '/s9/:1?/:2?/:1?'],
  ];
  const urls = [
    '/r/5/x',
    '/r/x',
    '/r2/x',
    '/r2/5x',
    '/r3/',
    '/r3/7',
    '/r4/a',
    '/r4/a/b',
    '/r5/',
    '/r5/a',
    '/r5/b',
    '/r5/ab',
    '/r6/',
    '/r6/x',
    '/r7',
    '/r8/',
    '/r8/a',
    '/r9/',
    '/r9/a',
    '/r9/b',
    '/r9/ab',
    '/none',
  ];

  it(
    'a group that took no part fills an optional segment with nothing and a required one not at all: the rule ' +
      'then answers nothing',
    async () => {
      for (const [regex, destination] of rules) {
        const { routes } = await firebaseRoutes({ redirects: [{ regex, destination }] }, 'firebase.json');
        for (const url of urls)
          expect(served(routes, url), `${regex} → ${destination}: ${url}`).toBe(
            superstaticRegexRedirect(regex, destination, url),
          );
      }
      // The next rule answers where the first cannot.
      const { routes } = await firebaseRoutes(
        {
          redirects: [
            { regex: '^/p/(\\d+)?$', destination: '/q/:1' },
            { source: '/p/**', destination: '/all' },
          ],
        },
        'firebase.json',
      );
      expect(['/p/7', '/p/'].map((u) => served(routes, u))).toEqual(['/q/7', '/all']);
    },
  );
});
