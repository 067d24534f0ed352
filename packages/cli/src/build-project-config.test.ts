import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build } from './build.js';
import { makeSite, SMALL_SITE } from './test-utils/site.js';
import { inProject, opts } from './test-utils/build-helpers.js';

describe('build: host configs in the project directory', () => {
  test(
    'firebase.json with several hosting sites gets the rules in the one for this directory; one it cannot read ' +
      'is left alone',
    async () => {
      const other = {
        target: 'docs',
        public: 'docs',
        headers: [{ source: '**', headers: [{ key: 'X-Docs', value: '1' }] }],
      };
      const root = await makeSite({
        ...SMALL_SITE,
        'firebase.json': JSON.stringify({ hosting: [other, { target: 'app', public: '.' }] }),
      });
      await build(await opts(root, { targets: ['firebase'] }));
      const fb = JSON.parse(await readFile(path.join(root, 'firebase.json'), 'utf8')) as {
        hosting: Array<Record<string, unknown>>;
      };
      expect(fb.hosting[0]).toEqual(other);
      expect(fb.hosting[1]).toMatchObject({ target: 'app', public: '.' });
      expect(
        (fb.hosting[1]!.headers as Array<{ source: string }>).some((h) => h.source === '/_objpack/shared/**'),
      ).toBe(true);

      const noSite = JSON.stringify({ hosting: [other] });
      const withComments = '// firebase-tools reads comments\n{ "hosting": { "public": "." } }\n';
      for (const text of [noSite, withComments]) {
        await writeFile(path.join(root, 'firebase.json'), text);
        const r = await build(await opts(root, { targets: ['firebase'] }));
        expect(await readFile(path.join(root, 'firebase.json'), 'utf8')).toBe(text);
        expect(r.diagnostics.map((d) => d.code)).toContain('OBJPACK_W_HOST_CONFIG_KEPT');
      }
    },
  );

  test(
    'netlify.toml in the project directory: its headers and forced redirects apply to the published `dist/`; ' +
      'an edit to it is not patched over',
    async () => {
      const toml = (frame: string) =>
        `[build]\npublish = "dist"\n\n[[headers]]\nfor = "/*"\n[headers.values]\nX-Frame-Options = ` +
        `"${frame}"\n\n[[redirects]]\nfrom = "/b.html"\nto = "/"\nstatus = 301\nforce = ` +
        `true\n\n[[redirects]]\nfrom = "/"\nto = "/en/"\nstatus = 302\n`;
      await inProject({ 'netlify.toml': toml('DENY') }, async (project, root) => {
        const options = await opts(root);
        const r = await build(options);
        expect(r.manifest.objects['/']!.headers).toEqual([['x-frame-options', 'DENY']]);
        // Netlify serves the file at `/` (an unforced rule does not shadow it); the forced one takes /b.html.
        expect(r.manifest.hostRedirects?.map((h) => [h.file, h.for])).toEqual([['netlify.toml', '/b.html']]);
        await writeFile(path.join(project, 'netlify.toml'), toml('SAMEORIGIN'));
        await writeFile(path.join(root, 'index.html'), '<!doctype html><title>a2</title>');
        const again = await build(options);
        expect([again.patched, again.manifest.objects['/']!.headers]).toEqual([
          false,
          [['x-frame-options', 'SAMEORIGIN']],
        ]);
        // A netlify.toml publishing another directory is another site's.
        await writeFile(
          path.join(project, 'netlify.toml'),
          toml('DENY').replace('publish = "dist"', 'publish = "public"'),
        );
        const other = await build(options);
        expect([other.manifest.objects['/']!.headers, other.manifest.hostRedirects]).toEqual([undefined, undefined]);
      });
    },
  );

  test(
    'vercel.json in the project directory (the build runs there on `dist/`) is read, and an edit to it is not ' +
      'patched over',
    async () => {
      await inProject(
        {
          'vercel.json': JSON.stringify({
            headers: [{ source: '/(.*)', headers: [{ key: 'Cross-Origin-Opener-Policy', value: 'same-origin' }] }],
          }),
        },
        async (project, root) => {
          const options = await opts(root);
          expect((await build(options)).manifest.objects['/b.html']!.headers).toEqual([
            ['cross-origin-opener-policy', 'same-origin'],
          ]);
          await writeFile(
            path.join(project, 'vercel.json'),
            JSON.stringify({
              headers: [
                {
                  source: '/(.*)',
                  headers: [{ key: 'Cross-Origin-Opener-Policy', value: 'same-origin-allow-popups' }],
                },
              ],
            }),
          );
          await writeFile(path.join(root, 'b.html'), '<!doctype html><title>b2</title>');
          const r = await build(options);
          expect(r.patched).toBe(false);
          expect(r.manifest.objects['/']!.headers).toEqual([
            ['cross-origin-opener-policy', 'same-origin-allow-popups'],
          ]);
          // With --target vercel the site gets a vercel.json of objpack's entries; the project's is still read.
          for (let i = 0; i < 2; i++) {
            const r = await build({ ...options, targets: ['vercel'], cache: false });
            expect(r.manifest.objects['/']!.headers).toEqual([
              ['cross-origin-opener-policy', 'same-origin-allow-popups'],
            ]);
            // …and the build says that the vercel.json it wrote is not the one a deploy from the project reads.
            expect(
              r.diagnostics.filter((d) => d.code === 'OBJPACK_W_HOST_CONFIG_ELSEWHERE').map((d) => d.file),
            ).toEqual(['vercel.json']);
          }
          expect((await build({ ...options, cache: false })).diagnostics.map((d) => d.code)).not.toContain(
            'OBJPACK_W_HOST_CONFIG_ELSEWHERE',
          );
          // A config naming another output directory belongs to another site.
          await writeFile(
            path.join(project, 'vercel.json'),
            JSON.stringify({
              outputDirectory: 'public',
              headers: [{ source: '/(.*)', headers: [{ key: 'X-Frame-Options', value: 'DENY' }] }],
            }),
          );
          expect((await build(options)).manifest.objects['/']!.headers).toBeUndefined();
        },
      );
    },
  );

  test(
    'a project vercel.json naming no outputDirectory is not ' +
      "applied to a site outside a framework's output directory",
    async () => {
      const project = await makeSite({
        'vercel.json': JSON.stringify({
          headers: [{ source: '/(.*)', headers: [{ key: 'X-Frame-Options', value: 'DENY' }] }],
        }),
        'docs/site/index.html': '<!doctype html><title>a</title>',
        'docs/site/guide/index.html': '<!doctype html><title>g</title>',
      });
      const cwd = process.cwd();
      try {
        process.chdir(project);
        const r = await build({ ...(await opts(path.join(project, 'docs/site'))), targets: ['vercel'] });
        expect([r.manifest.objects['/']!.headers, r.manifest.bareDirUrls]).toEqual([undefined, undefined]);
        // One warning that says how to apply it, and none asking to copy objpack's entries into a config of another
        // site.
        expect(r.diagnostics.filter((d) => d.code.startsWith('OBJPACK_W_HOST_CONFIG')).map((d) => d.code)).toEqual([
          'OBJPACK_W_HOST_CONFIG_SKIPPED',
        ]);
      } finally {
        process.chdir(cwd);
      }
    },
  );

  test(
    'a build run from another working directory, with ' + 'no project config there either, is still patched',
    async () => {
      const outer = await makeSite({
        'app/dist/index.html': '<!doctype html><title>a</title>',
        'app/dist/b.html': '<!doctype html><title>b</title>',
      });
      const [project, root] = [path.join(outer, 'app'), path.join(outer, 'app', 'dist')];
      const cwd = process.cwd();
      try {
        process.chdir(project);
        const options = await opts(root);
        await build(options);
        await writeFile(path.join(root, 'b.html'), '<!doctype html><title>b2</title>');
        process.chdir(outer);
        expect((await build(options)).patched).toBe(true);
        // A project config that appears is read: the build is not patched over it.
        await writeFile(
          path.join(outer, 'netlify.toml'),
          '[[headers]]\nfor = "/*"\n[headers.values]\nX-Frame-Options = "DENY"\n',
        );
        await writeFile(path.join(root, 'b.html'), '<!doctype html><title>b3</title>');
        const r = await build(options);
        expect([r.patched, r.manifest.objects['/b.html']!.headers]).toEqual([false, [['x-frame-options', 'DENY']]]);
      } finally {
        process.chdir(cwd);
      }
    },
  );
});
