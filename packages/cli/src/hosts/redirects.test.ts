import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../discover/types.js';
import { netlifyFrom, PATHS, taken, takenByRe, vercelRedirects } from '../test-utils/host-rules.js';
import { makeSite } from '../test-utils/site.js';
import { netlifyToml } from './netlify.js';
import { netlifyRedirects } from './netlify-redirects.js';

describe('Netlify / Cloudflare Pages _redirects', () => {
  it(
    'compiles `from` paths as either host matches them: ' + 'splats, placeholders, optional trailing slash, any case',
    () => {
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
    },
  );

  it(
    'without netlify.toml (Cloudflare Pages applies every rule first; Netlify forced ones): redirects, forced ' +
      'rules and rewrites of a named path take pages; a wildcard rewrite only clean URLs',
    async () => {
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
    },
  );

  it(
    'with a netlify.toml the site is on Netlify: only forced ' +
      'rules take a URL that has a file, unforced ones clean URLs',
    async () => {
      const root = await makeSite({
        _redirects: '/a /b 301\n/docs/* /d.html 200!\n',
        'netlify.toml':
          '[[redirects]]\nfrom = "/old.html"\nto = "/"\nstatus = 301\n\n[[redirects]]\nfrom = "/gone.html"\nto ' +
          '= "/"\nstatus = 301\nforce = true\n',
      });
      const rules = await netlifyRedirects(root, path.join(root, 'netlify.toml'), []);
      expect(rules.map((r) => [r.file, r.for, r.cleanOnly === true])).toEqual([
        ['_redirects', '/a', true],
        ['_redirects', '/docs/*', false],
        ['netlify.toml', '/old.html', true],
        ['netlify.toml', '/gone.html', false],
      ]);
    },
  );

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

  it(
    'a rule with has/missing is kept (it depends on the request); a config Vercel would refuse takes every ' +
      'URL, with a warning',
    async () => {
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
    },
  );
});

describe('vercel.json lines', () => {
  it(
    'each redirect and route names its own line, not an ' + "earlier rule's destination written like its source",
    async () => {
      const text = [
        '{',
        '  "routes": [{ "src": "/legacy", "dest": "/old" }, { "src": "/old", "status": 308, "headers": { ' +
          '"Location": "/" } }],',
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
    },
  );
});

describe('vercel.json legacy routes', () => {
  it(
    'a rewrite that goes on (`continue` with `dest`) takes ' + 'the URL; a conditional pass-through excludes nothing',
    async () => {
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
    },
  );
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
