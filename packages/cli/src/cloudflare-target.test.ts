import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { serve } from '@objpack/serve';
import { describe, expect, test } from 'vitest';
import { build, type BuildOptions } from './build.js';
import { cloudflareLines } from './hosts/cloudflare-headers.js';
import { WarningCode } from './errors.js';
import { fakeWorkerAssets, makeSite } from './test-utils/site.js';

// Each site's report beside it, in its own project directory: the tests read it.
const opts = async (root: string, extra: Partial<BuildOptions> = {}): Promise<BuildOptions> => ({
  root,
  workerAssets: await fakeWorkerAssets(),
  projectDir: `${root}-project`,
  ...extra,
});
const USER = '/*\n  X-Frame-Options: DENY\n';
/** 110 pages with a stylesheet each (a Link rule each), the home page and 109 posts, and a user `_headers`. */
const bigSite = (extra: Record<string, string> = {}) => {
  const files: Record<string, string> = {
    'index.html': '<!doctype html><title>home</title><link rel="stylesheet" href="/s.css">',
    's.css': 'p{}',
    _headers: USER,
    ...extra,
  };
  for (let i = 0; i < 109; i++)
    files[`posts/p${i}.html`] = `<!doctype html><title>${i}</title><link rel="stylesheet" href="/s.css">`;
  return makeSite(files);
};

describe("_headers and Cloudflare Pages' limits", () => {
  test(
    'a site that may be on Cloudflare Pages is told when its _headers passes 100 rules, and to pass --target ' +
      "cloudflare; a netlify.toml says it is Netlify's",
    async () => {
      const root = await bigSite();
      const { diagnostics } = await build(await opts(root));
      const warned = diagnostics.filter((d) => d.code === WarningCode.CLOUDFLARE_HEADERS_LIMIT);
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatchObject({
        file: '_headers',
        message: expect.stringMatching(/115 rules.*--target cloudflare/),
      });
      // So does `targets: ['netlify']` (`--target netlify`): the user named the host.
      const named = await build(await opts(await bigSite(), { targets: ['netlify'] }));
      expect(named.diagnostics.filter((d) => d.code === WarningCode.CLOUDFLARE_HEADERS_LIMIT)).toEqual([]);
      // And any other host named: the site goes to Vercel, Firebase or an nginx, not Cloudflare Pages.
      for (const target of ['vercel', 'firebase', 'nginx'] as const) {
        const other = await build(await opts(await bigSite(), { targets: [target] }));
        expect([target, other.diagnostics.filter((d) => d.code === WarningCode.CLOUDFLARE_HEADERS_LIMIT)]).toEqual([
          target,
          [],
        ]);
      }
      const onNetlify = await bigSite({ 'netlify.toml': '[build]\npublish = "."\n' });
      const netlify = await build(await opts(onNetlify));
      expect(
        netlify.diagnostics.filter(
          (d) => d.code === WarningCode.CLOUDFLARE_HEADERS_LIMIT || d.code === WarningCode.HOST_CONFIG_LIMIT,
        ),
      ).toEqual([]);
    },
  );

  test(
    "--target cloudflare writes 100 rules, the user's first; " + 'objpack serve answers as for the default _headers',
    async () => {
      const root = await bigSite();
      const answers = async () => {
        const server = await serve({ root, port: 0 });
        try {
          return await Promise.all(
            ['/', '/posts/p99.html', '/posts/p99', '/s.css'].map(async (u) => {
              const r = await fetch(new URL(u, server.url));
              return [u, r.status, r.headers.get('link'), r.headers.get('x-frame-options')];
            }),
          );
        } finally {
          await server.close();
        }
      };
      const plain = await build(await opts(root));
      const before = await answers();
      const cf = await build(await opts(root, { targets: ['cloudflare'] }));
      const text = await readFile(path.join(root, '_headers'), 'utf8');
      expect(text.startsWith(`${USER}\n# objpack:begin`)).toBe(true);
      expect(cloudflareLines(text).rules).toHaveLength(100);
      // Cloudflare serves posts/p0.html at /posts/p0; the home page, shallowest, is among those that fit.
      expect(text).toContain('\n/\n  Link: </s.css>; rel=preload; as=style\n');
      expect(text).toContain('\n/posts/p0\n  Link:');
      expect(text).not.toContain('/posts/p99\n'); // the posts tie: by name, p99 is last
      expect(cf.diagnostics.filter((d) => d.code === WarningCode.CLOUDFLARE_HEADERS_LIMIT)).toEqual([]);
      // The same rules, compiled as Cloudflare compiles them (hosts/read-hosts.test.ts has the differences).
      expect(cf.manifest.hostHeaders).toEqual(
        plain.manifest.hostHeaders!.map((r) => ({ ...r, match: '^\\/.*$', flags: '' })),
      );
      expect(before.map(([, status]) => status)).toEqual([200, 200, 200, 200]);
      expect(await answers()).toEqual(before);
      // Back to the default target, the full block returns.
      await build(await opts(root));
      expect(cloudflareLines(await readFile(path.join(root, '_headers'), 'utf8')).rules).toHaveLength(111 + 4);
    },
  );

  test(
    '--target cloudflare says in the summary how many pages kept a Link rule, also when an incremental build ' +
      'patches the outputs',
    async () => {
      const root = await bigSite();
      // The user's 1 rule and objpack's 4 leave 95 of the 100 for the 110 pages with preloads.
      const cfOpts = await opts(root, { targets: ['cloudflare'] });
      const cf = await build(cfOpts);
      expect(cf.summary.linkRules).toEqual({ pages: 95, of: 110, cut: 15 });
      // The report says it too, next to the summary's numbers.
      const report = () => readFile(cf.report!, 'utf8');
      const said =
        /<b>95 of 110<\/b><span>pages with a Link rule \(_headers\)<\/span>.*Link rules for 95 of 110 pages \(Cloudflare Pages&#39; 100-rule limit\)\. 15 pages get no preloads/s;
      expect(await report()).toMatch(said);
      await writeFile(
        path.join(root, 'posts/p3.html'),
        '<!doctype html><title>3 edited</title><link rel="stylesheet" href="/s.css">',
      );
      const patched = await build(cfOpts);
      expect(patched.patched).toBe(true);
      expect(patched.report).toBe(cf.report);
      expect(patched.summary.linkRules).toEqual({ pages: 95, of: 110, cut: 15 });
      expect(await report()).toMatch(said);
      // The default _headers has a rule for every page: nothing to say.
      expect((await build(await opts(root))).summary.linkRules).toBeUndefined();
      expect(await report()).not.toMatch(/Link rule|100-rule/);
    },
  );

  test(
    '--target cloudflare on a site within the 100 rules: ' + 'the report counts the pages and claims no cut',
    async () => {
      const root = await makeSite({
        'index.html': '<!doctype html><title>home</title><link rel="stylesheet" href="/s.css">',
        'a.html': '<!doctype html><title>a</title><link rel="stylesheet" href="/s.css">',
        's.css': 'p{}',
      });
      const r = await build(await opts(root, { targets: ['cloudflare'] }));
      expect(r.summary.linkRules).toEqual({ pages: 2, of: 2, cut: 0 });
      const report = await readFile(r.report!, 'utf8');
      expect(report).toContain('<b>2 of 2</b><span>pages with a Link rule (_headers)</span>');
      expect(report).not.toMatch(/100-rule|no preloads/);
    },
  );

  test(
    "--target cloudflare with a user _headers that takes the room: objpack's rules are cut and the warning " +
      "names the user's line",
    async () => {
      const root = await bigSite();
      await writeFile(path.join(root, '_headers'), Array.from({ length: 99 }, (_, i) => `/u${i}\n  X-A: 1\n`).join(''));
      const { diagnostics } = await build(await opts(root, { targets: ['cloudflare'] }));
      const text = await readFile(path.join(root, '_headers'), 'utf8');
      expect(cloudflareLines(text).rules).toHaveLength(100);
      expect(text).toContain('/_objpack/shared/*');
      expect(text).not.toContain('/_objpack/pages/*');
      const warned = diagnostics.filter((d) => d.code === WarningCode.CLOUDFLARE_HEADERS_LIMIT);
      // The 97th user rule, on line 193, is the first one objpack's 4 would have needed.
      expect(warned.map((d) => [d.file, d.line])).toEqual([['_headers', 193]]);
    },
  );
});
