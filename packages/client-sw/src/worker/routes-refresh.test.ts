/**
 * Route table refreshes with Cache Storage and fetch faked: a rebuild that only turns clean URLs on or off
 * keeps its build id (it hashes the packages), and the worker must still take the new table.
 */
import type { RouteTable } from '@objpack/format';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveOptions } from '../options.js';
import { lookupRoute, Routes } from './routes.js';
import { Store } from './store.js';

const O = 'https://site.example';
let served: RouteTable;

beforeEach(() => {
  const stores = new Map<string, Map<string, Response>>();
  const open = async (n: string) => {
    const m = stores.get(n) ?? stores.set(n, new Map()).get(n)!;
    return { match: async (k: string) => m.get(k)?.clone(), put: async (k: string, r: Response) => void m.set(k, r) };
  };
  const match = async (k: string, { cacheName }: { cacheName: string }) => stores.get(cacheName)?.get(k)?.clone();
  vi.stubGlobal('caches', { open, match, keys: async () => [...stores.keys()] });
  vi.stubGlobal('fetch', async () => Response.json(served));
});
afterEach(() => vi.unstubAllGlobals());

const table = (buildId: string, cleanUrls: boolean): RouteTable => ({
  version: 1,
  buildId,
  packages: ['/_objpack/pages/about.html.objp'],
  pages: { '/about.html': [0] },
  ...(cleanUrls ? { cleanUrls: true as const } : {}),
});

describe('Routes.refresh', () => {
  it('takes a table of the same build whose clean-URL setting changed, without adopting a new build', async () => {
    const adopted: string[] = [];
    const routes = new Routes(
      new Store('objpack-v1', O),
      resolveOptions({}, O),
      async (t) => void adopted.push(t.buildId),
    );
    served = table('b1', true);
    await routes.refresh();
    expect(lookupRoute(routes.table!, '/about')?.key).toBe('/about.html');
    served = table('b1', false);
    await routes.refresh();
    expect(lookupRoute(routes.table!, '/about')).toBeUndefined();
    expect(adopted).toEqual(['b1']);
    // A restarted worker reads the saved copy: the new setting.
    const again = new Routes(new Store('objpack-v1', O), resolveOptions({}, O), async () => {});
    expect((await again.current())?.cleanUrls).toBeUndefined();
    // Same build and same setting: the table in memory stays (no re-parse, no write).
    const kept = routes.table;
    await routes.refresh();
    expect(routes.table).toBe(kept);
  });

  it('takes a table of the same build whose host redirects changed', async () => {
    const routes = new Routes(new Store('objpack-v1', O), resolveOptions({}, O), async () => {});
    served = table('b1', false);
    await routes.refresh();
    expect(lookupRoute(routes.table!, '/about.html')?.key).toBe('/about.html');
    served = { ...table('b1', false), redirects: [['^\\/about\\.html$', 'i']] };
    await routes.refresh();
    expect(lookupRoute(routes.table!, '/about.html')).toBeUndefined();
  });
});

describe("lookupRoute with the host's redirects", () => {
  const pages = { '/': [0], '/old.html': [0], '/caf%C3%A9.html': [0], '/guide/': [0] };
  const t = (redirects: unknown): RouteTable =>
    ({ version: 1, buildId: 'b', packages: ['/_objpack/pages/p.objp'], pages, redirects }) as RouteTable;

  it('leaves a page the host redirects to the network, in every form the worker would answer', () => {
    const table = t([
      ['^\\/old\\.html\\/?$', 'i'],
      ['^\\/guide\\/$', 'i'],
    ]);
    expect(lookupRoute(table, '/old.html')).toBeUndefined();
    expect(lookupRoute(table, '/OLD.html')).toBeUndefined();
    expect(lookupRoute(table, '/guide/')).toBeUndefined();
    expect(lookupRoute(table, '/guide/index.html')?.key).toBe('/guide/');
    expect(lookupRoute(table, '/')?.key).toBe('/');
  });

  it('matches the path as sent and percent-decoded', () => {
    expect(lookupRoute(t([]), '/caf%C3%A9.html')?.key).toBe('/caf%C3%A9.html');
    expect(lookupRoute(t([['^/caf\u00e9\\.html$', 'u']]), '/caf%C3%A9.html')).toBeUndefined();
    expect(lookupRoute(t([['^/caf%C3%A9\\.html$', '']]), '/caf%C3%A9.html')).toBeUndefined();
    expect(lookupRoute(t([['^/caf\u00e9\\.html$', 'u']]), '/old.html')?.key).toBe('/old.html');
  });

  it('a clean-only rule takes a page at its clean URL only; a host rule only on its host', () => {
    const clean = { ...t([['^/old/?$', 'i', { clean: true }]]), cleanUrls: true as const };
    expect(lookupRoute(clean, '/old')).toBeUndefined();
    expect(lookupRoute(clean, '/old.html')?.key).toBe('/old.html');
    const hosted = t([['^/old\\.html$', 'i', { host: 'old.example' }]]);
    vi.stubGlobal('location', { host: 'new.example' });
    expect(lookupRoute(hosted, '/old.html')?.key).toBe('/old.html');
    vi.stubGlobal('location', { host: 'OLD.example' });
    expect(lookupRoute(hosted, '/old.html')).toBeUndefined();
    expect(lookupRoute(t([['^/x$', 'i', 'nonsense']]), '/')).toBeUndefined();
  });

  it('answers no page when a pattern does not compile here or the list is malformed', () => {
    expect(lookupRoute(t([['(unclosed', '']]), '/')).toBeUndefined();
    expect(lookupRoute(t('^/$'), '/')).toBeUndefined();
    expect(lookupRoute(t([['^/x$']]), '/')).toBeUndefined();
    expect(lookupRoute(t([['^/x$', 'i']]), '/')?.key).toBe('/');
  });
});

describe('lookupRoute with bare directory URLs (the host serves /guide/index.html at /guide)', () => {
  const pages = { '/': [0], '/guide/': [0], '/about.html': [0], '/both.html': [0], '/both/': [0], '/file': [0] };
  const t = (extra: Partial<RouteTable>): RouteTable =>
    ({ version: 1, buildId: 'b', packages: ['/_objpack/pages/p.objp'], pages, ...extra }) as RouteTable;

  it('answers /guide with the directory page only when the table says the host serves it there', () => {
    expect(lookupRoute(t({}), '/guide')).toBeUndefined();
    expect(lookupRoute(t({ bareDirUrls: true }), '/guide')?.key).toBe('/guide/');
    expect(lookupRoute(t({ bareDirUrls: true }), '/guide/')?.key).toBe('/guide/');
    // A file at the bare path itself is that path's page; `/` has no bare form.
    expect(lookupRoute(t({ bareDirUrls: true }), '/file')?.key).toBe('/file');
    expect(lookupRoute(t({ bareDirUrls: true }), '/about')).toBeUndefined();
    expect(lookupRoute(t({ bareDirUrls: true }), '/nowhere')).toBeUndefined();
  });

  it(
    'with clean URLs too, a path naming both /both.html and ' + '/both/ goes to the network; each alone is answered',
    () => {
      const both = t({ bareDirUrls: true, cleanUrls: true });
      expect(lookupRoute(both, '/both')).toBeUndefined();
      expect(lookupRoute(both, '/guide')?.key).toBe('/guide/');
      expect(lookupRoute(both, '/about')?.key).toBe('/about.html');
      // Without bare directory URLs the directory page still wins by redirect: /both is left to the host.
      expect(lookupRoute(t({ cleanUrls: true }), '/both')).toBeUndefined();
    },
  );

  it("the host's rules apply to the bare path: /guide/ redirected (trailingSlash: false), /guide answered", () => {
    const slashless = t({ bareDirUrls: true, redirects: [['^/(.*)/$', 'i']] });
    expect(lookupRoute(slashless, '/guide/')).toBeUndefined();
    expect(lookupRoute(slashless, '/guide')?.key).toBe('/guide/');
    expect(
      lookupRoute(t({ bareDirUrls: true, redirects: [['^/guide$', 'i', { clean: true }]] }), '/guide'),
    ).toBeUndefined();
  });

  it('a refreshed table of the same build whose directory URLs changed is taken', async () => {
    const routes = new Routes(new Store('objpack-v1', O), resolveOptions({}, O), async () => {});
    served = t({});
    await routes.refresh();
    expect(lookupRoute(routes.table!, '/guide')).toBeUndefined();
    served = t({ bareDirUrls: true });
    await routes.refresh();
    expect(lookupRoute(routes.table!, '/guide')?.key).toBe('/guide/');
  });
});

describe(
  'lookupRoute with cleanSlashUrls (Vercel/Firebase cleanUrls ' +
    'with trailingSlash: true serve /about.html at /about/)',
  () => {
    const pages = { '/': [0], '/about.html': [0], '/both.html': [0], '/both/': [0], '/docs/v1.2.html': [0] };
    const t = (extra: Partial<RouteTable>): RouteTable =>
      ({ version: 1, buildId: 'b', packages: ['/_objpack/pages/p.objp'], pages, ...extra }) as RouteTable;
    // What the build keeps of getTransformedRoutes({ cleanUrls: true, trailingSlash: true }) for these pages.
    const vercel = [
      ['^/(.*)\\.html/?$', 'i'],
      ['^/((?:[^/]+/)*[^/\\.]+)$', 'i'],
      ['^/((?:[^/]+/)*[^/]+\\.\\w+)/$', 'i'],
    ] as RouteTable['redirects'];

    it(
      'answers /about/ with about.html only when the table says ' +
        "so; /about and /about.html stay the host's redirects",
      () => {
        expect(lookupRoute(t({}), '/about/')).toBeUndefined();
        const slash = t({ cleanSlashUrls: true, redirects: vercel });
        expect(lookupRoute(slash, '/about/')?.key).toBe('/about.html');
        expect(lookupRoute(slash, '/about')).toBeUndefined();
        expect(lookupRoute(slash, '/about.html')).toBeUndefined();
        // A directory's page wins, as both hosts look for its index first; `/` and dotted names are not clean slashes.
        expect(lookupRoute(slash, '/both/')?.key).toBe('/both/');
        expect(lookupRoute(slash, '/')?.key).toBe('/');
        expect(lookupRoute(slash, '/docs/v1.2/')).toBeUndefined();
        expect(lookupRoute(slash, '/nowhere/')).toBeUndefined();
      },
    );

    it('a refreshed table of the same build that turns it on is taken', async () => {
      const routes = new Routes(new Store('objpack-v1', O), resolveOptions({}, O), async () => {});
      served = t({});
      await routes.refresh();
      expect(lookupRoute(routes.table!, '/about/')).toBeUndefined();
      served = t({ cleanSlashUrls: true });
      await routes.refresh();
      expect(lookupRoute(routes.table!, '/about/')?.key).toBe('/about.html');
    });
  },
);

describe(
  "lookupRoute for a site on Firebase with cleanUrls/trailingSlash: only URLs the host's file lookup serves " +
    "(superstatic's files.js) are answered",
  () => {
    const pages = { '/': [0], '/about.html': [0], '/guide/': [0] };
    /**
     * The table the build writes for these firebase.json settings (cli hosts/firebase-headers.ts and
     * hosts/firebase-routes.ts).
     */
    const table = (cleanUrls: boolean, trailingSlash: boolean | undefined): RouteTable => {
      const redirects: Array<[string, string]> = [];
      if (cleanUrls) redirects.push(['\\.html$', '']);
      if (trailingSlash === false) redirects.push(['^\\/.+\\/$', '']);
      if (trailingSlash === true) redirects.push(['^(?:.*\\/)?[^/.]+$', '']);
      return {
        version: 1,
        buildId: 'b',
        packages: ['/_objpack/pages/p.objp'],
        pages,
        redirects,
        ...(cleanUrls && trailingSlash !== true ? { cleanUrls: true as const } : {}),
        ...(cleanUrls && trailingSlash === true ? { cleanSlashUrls: true as const } : {}),
        ...(trailingSlash === false || (trailingSlash === undefined && cleanUrls)
          ? { bareDirUrls: true as const }
          : {}),
      } as RouteTable;
    };
    // [cleanUrls, trailingSlash, URLs the host serves → page key, URLs it redirects (301) or has no file for]
    const cases: Array<[boolean, boolean | undefined, Record<string, string>, string[]]> = [
      [
        true,
        undefined,
        { '/about': '/about.html', '/guide': '/guide/', '/guide/': '/guide/', '/': '/' },
        ['/about.html', '/about/', '/guide/index.html', '/guide/index', '/index.html'],
      ],
      [
        true,
        true,
        { '/about/': '/about.html', '/guide/': '/guide/', '/': '/' },
        ['/about', '/about.html', '/guide', '/guide/index.html', '/index.html'],
      ],
      [
        true,
        false,
        { '/about': '/about.html', '/guide': '/guide/', '/': '/' },
        ['/about/', '/about.html', '/guide/', '/guide/index.html', '/index.html'],
      ],
      [
        false,
        false,
        { '/guide': '/guide/', '/about.html': '/about.html', '/guide/index.html': '/guide/', '/': '/' },
        ['/guide/', '/about', '/about/'],
      ],
      [false, true, { '/guide/': '/guide/', '/about.html': '/about.html', '/': '/' }, ['/guide', '/about', '/about/']],
    ];
    it.each(cases)('cleanUrls %s, trailingSlash %s', (cleanUrls, trailingSlash, served, left) => {
      const t = table(cleanUrls, trailingSlash);
      for (const [url, key] of Object.entries(served)) expect(lookupRoute(t, url)?.key, url).toBe(key);
      for (const url of left) expect(lookupRoute(t, url), url).toBeUndefined();
    });
  },
);
