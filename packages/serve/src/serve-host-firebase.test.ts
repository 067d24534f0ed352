import { describe, expect, it } from 'vitest';
import { type ObjpackServer } from './index.js';
import { get } from './test-utils/http.js';
import { routesFixture } from './test-utils/routes-fixture.js';

const fx = routesFixture();
const start = fx.start;

/** Status and Location (or whether the body is `file`) of each URL, for a table of expectations. */
async function answers(s: ObjpackServer, cases: Array<[string, number, string]>): Promise<void> {
  for (const [url, status, to] of cases) {
    const r = await get(s.url, url);
    const got =
      status === 200
        ? r.body.equals(fx.site.files[to]!)
          ? to
          : '(other body)'
        : status === 301
          ? r.headers.location
          : to;
    expect([r.status, got], url).toEqual([status, to]);
  }
}

describe(
  "Firebase's cleanUrls and trailingSlash (manifest firebaseUrls), applied in the file lookup as " +
    "superstatic's files.js does",
  () => {
    it(
      'cleanUrls: .html files (also index.html, and /guide/index) redirected to their clean URL with the query, ' +
        'served there; no slash added, other extensions as they are',
      async () => {
        const s = await start([], { firebaseUrls: { cleanUrls: true }, cleanUrls: true, bareDirUrls: true });
        await answers(s, [
          ['/about.html?x=1', 301, '/about?x=1'],
          ['/about', 200, '/about.html'],
          ['/about/', 404, ''],
          ['/guide/index.html', 301, '/guide'],
          ['/guide/index', 301, '/guide'],
          ['/guide', 200, '/guide/index.html'],
          ['/guide/', 200, '/guide/index.html'],
          ['/index.html?a=b', 301, '/?a=b'],
          ['/', 200, '/index.html'],
          ['/data.json', 200, '/data.json'],
          ['/data', 404, ''],
          ['/style.css', 200, '/style.css'],
        ]);
      },
    );

    it(
      'cleanUrls with trailingSlash: true: /about and /about.html go to /about/, directories to their slash; ' +
        'files keep their URL',
      async () => {
        const s = await start([], { firebaseUrls: { cleanUrls: true, trailingSlash: true }, cleanSlashUrls: true });
        await answers(s, [
          ['/about', 301, '/about/'],
          ['/about.html?x=1', 301, '/about/?x=1'],
          ['/about/', 200, '/about.html'],
          ['/guide', 301, '/guide/'],
          ['/guide/index.html', 301, '/guide/'],
          ['/guide/', 200, '/guide/index.html'],
          ['/index.html', 301, '/'],
          ['/style.css', 200, '/style.css'],
          ['/style.css/', 404, ''],
        ]);
      },
    );

    it(
      'trailingSlash: false, with and without cleanUrls: /guide/ and /about/ go to /guide and /about; without ' +
        'cleanUrls /about is no file',
      async () => {
        const s = await start([], { firebaseUrls: { trailingSlash: false }, bareDirUrls: true });
        await answers(s, [
          ['/guide/?q=1', 301, '/guide?q=1'],
          ['/guide', 200, '/guide/index.html'],
          ['/', 200, '/index.html'],
          ['/about.html', 200, '/about.html'],
          ['/about', 404, ''],
        ]);
        await s.close();
        const clean = await start([], {
          firebaseUrls: { cleanUrls: true, trailingSlash: false },
          cleanUrls: true,
          bareDirUrls: true,
        });
        await answers(clean, [
          ['/about/', 301, '/about'],
          ['/about', 200, '/about.html'],
          ['/about.html', 301, '/about'],
          ['/guide/', 301, '/guide'],
        ]);
      },
    );

    it(
      'trailingSlash: true alone: directories get their ' + 'slash, /about is no file, about.html keeps its URL',
      async () => {
        const s = await start([], { firebaseUrls: { trailingSlash: true } });
        await answers(s, [
          ['/guide', 301, '/guide/'],
          ['/guide/', 200, '/guide/index.html'],
          ['/about', 404, ''],
          ['/about.html', 200, '/about.html'],
        ]);
      },
    );

    it(
      'between the redirects and the rewrites: a redirect still comes first, a rewrite takes only what the file ' +
        'lookup leaves',
      async () => {
        const s = await start(
          [
            ['^\\/about\\.html$', '/elsewhere', 302],
            ['^(?:\\/(?!\\.)(?=.)[^/]*?)+\\/?$', '/index.html', 200, { shadowed: true }],
          ],
          { firebaseUrls: { cleanUrls: true } },
        );
        await answers(s, [
          ['/about.html', 302, ''],
          ['/guide/index.html', 301, '/guide'],
          ['/about', 200, '/about.html'],
          ['/client/route', 200, '/index.html'],
        ]);
        expect((await get(s.url, '/about.html')).headers.location).toBe('/elsewhere');
      },
    );
  },
);

describe('a rule that needs its groups (Firebase `regex` redirects)', () => {
  it('answers only where each group has a value, or none, as recorded; else the next rule does', async () => {
    const s = await start([
      // `/q/:1?`: one route where group 1 has a value, one where it took no part.
      ['^\\/p\\/(?:(\\d+)|x)?$', '/q/$1', 301, { flags: 'u', groups: { 1: true } }],
      ['^\\/p\\/(?:(\\d+)|x)?$', '/q', 301, { flags: 'u', groups: { 1: false } }],
      // `/s/:1`: group 1 must have matched; where it did not, the next rule answers.
      ['^\\/r\\/(\\d+)?$', '/s/$1', 301, { flags: 'u', groups: { 1: true } }],
      ['^\\/r\\/.*$', '/all', 302, { flags: 'u' }],
      // An empty value is neither: no route answers, and the URL is a 404.
      ['^\\/n\\/(?<id>\\d*)$', '/m/${id}', 301, { flags: 'u', groups: { id: true } }],
      ['^\\/n\\/(?<id>\\d*)$', '/m', 301, { flags: 'u', groups: { id: false } }],
    ]);
    const got = [];
    for (const url of ['/p/7', '/p/x', '/p/', '/r/5', '/r/', '/n/3', '/n/']) {
      const r = await get(s.url, url);
      got.push([url, r.status, r.headers.location]);
    }
    expect(got).toEqual([
      ['/p/7', 301, '/q/7'],
      ['/p/x', 301, '/q'],
      ['/p/', 301, '/q'],
      ['/r/5', 301, '/s/5'],
      ['/r/', 302, '/all'],
      ['/n/3', 301, '/m/3'],
      ['/n/', 404, undefined],
    ]);
  });
});
