import { describe, expect, it } from 'vitest';
import { firebaseRedirects, PATHS, taken } from '../test-utils/host-rules.js';
import { fromRe2 } from './firebase-routes.js';

describe('firebase.json', () => {
  it(
    "each redirect names its own line: not an earlier rule's destination written like its source, not a " +
      '`redirects` JSON.parse drops',
    async () => {
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
      const { rules } = await firebaseRedirects(
        (JSON.parse(text) as { hosting: object }).hosting,
        'firebase.json',
        text,
      );
      expect(rules.map((r) => [r.for, r.line])).toEqual([
        ['/old', 5],
        ['/new', 8],
        ['^/r$', 10],
        ['/old', 12],
      ]);
    },
  );

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

  it(
    'a rest capture put into a destination segment without `*` is named with its line: superstatic and ' +
      'Firebase Hosting disagree there',
    async () => {
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
    },
  );

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

  it(
    'cleanUrls sends .html paths to their clean form; ' + 'trailingSlash: false a directory path to its bare form',
    async () => {
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
      expect(
        taken((await firebaseRedirects({ trailingSlash: true, cleanUrls: false }, 'firebase.json')).rules),
      ).toEqual(['/a', '/blog', '/blog/x', '/blogx', '/.well-known/x', '/docs/v1/intro', '/docs/v1/v2/intro']);
    },
  );
});
