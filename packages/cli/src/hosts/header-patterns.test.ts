import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { build, type BuildOptions } from '../build.js';
import { WarningCode } from '../errors.js';
import { fakeWorkerAssets, makeSite } from '../test-utils/site.js';
import { isHeadersPattern } from './header-patterns.js';

/** Netlify's own RegExp for each `_headers` path (@netlify/headers-parser, as `netlify dev` matches). */
async function netlifyRegExps(paths: readonly string[]): Promise<RegExp[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'objpack-patterns-'));
  try {
    await writeFile(path.join(dir, '_headers'), paths.map((p) => `${p}\n  X-A: 1\n`).join(''));
    const { parseAllHeaders } = await import('@netlify/headers-parser');
    const parsed = await parseAllHeaders({
      headersFiles: [path.join(dir, '_headers')],
      configHeaders: [],
      minimal: false,
    });
    return (parsed.headers as Array<{ forRegExp: RegExp }>).map((h) => h.forRegExp);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('_headers paths a host reads as a pattern', () => {
  test(
    "Netlify: `*` anywhere and `:` at a segment's start, as " +
      'its parser reads them; a `:` inside a segment is literal',
    async () => {
      const paths = ['/wiki/Help:Contents.html', '/:x.html', '/a/:b/c.html', '/a*b.html', '/10:30.html', '/about.html'];
      const probes = [
        '/about.html',
        '/ab.html',
        '/axb.html',
        '/wiki/Help_desk.html',
        '/a/z/c.html',
        '/10_30.html',
        '/x.html',
      ];
      const res = await netlifyRegExps(paths);
      const others = paths.map((p, i): [string, string[]] => [p, probes.filter((u) => u !== p && res[i]!.test(u))]);
      expect(others).toEqual([
        ['/wiki/Help:Contents.html', []],
        ['/:x.html', ['/about.html', '/ab.html', '/axb.html', '/10_30.html', '/x.html']],
        ['/a/:b/c.html', ['/a/z/c.html']],
        ['/a*b.html', ['/ab.html', '/axb.html']],
        ['/10:30.html', []],
        ['/about.html', []],
      ]);
      expect(paths.map((p) => isHeadersPattern(p, ['netlify']))).toEqual(others.map(([, o]) => o.length > 0));
      // Cloudflare Pages: `:` and a letter anywhere (a placeholder name begins with a letter).
      expect(paths.map((p) => isHeadersPattern(p, ['cloudflare']))).toEqual([true, true, true, true, false, false]);
    },
  );

  test(
    'the default _headers gives no Link rule to a page whose path is a pattern, with one warning; Netlify ' +
      'named, Help:Contents keeps its rule',
    async () => {
      const page = (t: string) => `<!doctype html><title>${t}</title><link rel="stylesheet" href="/s.css">`;
      const files = {
        'index.html': page('home'),
        'wiki/Help:Contents.html': page('help'),
        'a*b.html': page('ab'),
        ':x.html': page('x'),
        's.css': 'p{}',
      };
      const opts = async (root: string, extra: Partial<BuildOptions> = {}): Promise<BuildOptions> => ({
        root,
        workerAssets: await fakeWorkerAssets(),
        ...extra,
      });
      const rulePaths = async (root: string) =>
        (await readFile(path.join(root, '_headers'), 'utf8'))
          .split('\n')
          .filter((l) => l.startsWith('/') && !l.includes('objpack'));
      const warned = (r: Awaited<ReturnType<typeof build>>) =>
        r.diagnostics.filter((d) => d.code === WarningCode.LINK_RULE_PATTERN);

      const root = await makeSite(files);
      const plain = await build(await opts(root));
      // Netlify reads /:x.html and /a*b.html as patterns, Cloudflare Pages /wiki/Help:Contents.html too.
      expect(await rulePaths(root)).toEqual(['/']);
      expect(warned(plain)).toEqual([
        expect.objectContaining({
          file: '_headers',
          message: expect.stringMatching(/^3 pages get no Link rule.*Netlify or Cloudflare Pages/),
        }),
      ]);
      // The worker still knows every page's preloads.
      expect(Object.keys(plain.manifest.pages).sort()).toEqual([
        '/',
        '/:x.html',
        '/a*b.html',
        '/wiki/Help:Contents.html',
      ]);

      const netlify = await build(await opts(root, { targets: ['netlify'] }));
      expect(await rulePaths(root)).toEqual(['/', '/wiki/Help:Contents.html']);
      expect(warned(netlify)).toEqual([
        expect.objectContaining({ message: expect.stringMatching(/^2 pages get no Link rule.*Netlify reads/) }),
      ]);

      // For Vercel alone, _headers is read by no host: nothing to say.
      expect(warned(await build(await opts(root, { targets: ['vercel'] })))).toEqual([]);
      // --target cloudflare leaves them out too, and says so.
      expect(warned(await build(await opts(root, { targets: ['cloudflare'] })))).toEqual([
        expect.objectContaining({ message: expect.stringMatching(/^3 pages .*Cloudflare Pages reads/) }),
      ]);
    },
  );
});
