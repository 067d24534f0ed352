import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync, chmodSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiscoverCodes, DiscoverError } from './diagnostic-codes.js';
import { decodeCss } from './read-site-file.js';
import { discoverSite, pageClosure, walkSite } from './discover-site.js';
import { tempSite } from '../test-utils/temp-site.js';

const t = tempSite('objpack-discover-');
const { write } = t;
const codes = (g: { diagnostics: Array<{ code: string }> }) => g.diagnostics.map((d) => d.code);

describe('site root', () => {
  it('throws OBJPACK_E_ROOT_NOT_FOUND for a missing directory', async () => {
    const err = await discoverSite(path.join(t.dir, 'nope')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiscoverError);
    expect((err as DiscoverError).code).toBe(DiscoverCodes.ROOT_NOT_FOUND);
  });

  it('throws OBJPACK_E_ROOT_NOT_DIRECTORY for a file', async () => {
    write('a.html', 'x');
    await expect(discoverSite(path.join(t.site, 'a.html'))).rejects.toMatchObject({
      code: DiscoverCodes.ROOT_NOT_DIRECTORY,
    });
  });

  it('warns OBJPACK_W_NO_PAGES for an empty directory (or one without HTML)', async () => {
    const g = await discoverSite(t.site);
    expect(g.pages).toEqual([]);
    expect(g.diagnostics).toMatchObject([{ code: DiscoverCodes.NO_PAGES, severity: 'warning' }]);
    write('only.css', 'p{}');
    expect((await discoverSite(t.site)).diagnostics).toMatchObject([{ code: DiscoverCodes.NO_PAGES }]);
  });

  it('throws OBJPACK_E_BAD_ORIGIN for an origin that is not http(s)', async () => {
    write('index.html', '<p>x');
    await expect(discoverSite(t.site, { origin: 'ftp://example.com' })).rejects.toMatchObject({
      code: DiscoverCodes.BAD_ORIGIN,
    });
    await expect(discoverSite(t.site, { origin: 'example.com' })).rejects.toMatchObject({
      code: DiscoverCodes.BAD_ORIGIN,
    });
  });
});

describe('walking the file system safely', () => {
  it('lists files in the sorted order of their URL paths, whatever order directories list them in', async () => {
    // Names that sort before and after '/' next to a directory's name ('-', '.', '0' < '/' < 'A', '_', 'é'),
    // a prefix of a directory name, astral characters (UTF-16 order), links to a file and a directory.
    const names = [
      'a/x.css',
      'a-b/y.css',
      'a.b',
      'a0/z.css',
      'aA',
      'a_',
      'a/b/c/d.js',
      'a/b-c.js',
      'a/b.js',
      'é/1.png',
      '\u{1F600}.png',
      '\uFFFF/1.png',
      'Z.html',
      'index.html',
    ];
    for (const n of names) write(n, 'x');
    symlinkSync(path.join(t.site, 'a'), path.join(t.site, 'a~link'));
    symlinkSync(path.join(t.site, 'a.b'), path.join(t.site, 'a', 'b~'));
    const keys = [...(await walkSite(t.site, { origin: 'https://example.com/base/' })).keys()];
    // Each file once, a/b~ (a link to a.b), and the five entries of a/ again through a~link.
    expect(keys).toHaveLength(names.length + 1 + 5);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toContain('/base/a~link/b/c/d.js');
    expect(keys).toContain('/base/a/b~');
  });

  it('never follows a symlink out of the root, and warns', async () => {
    writeFileSync(path.join(t.dir, 'secret.css'), 'body{}');
    mkdirSync(path.join(t.dir, 'outside-dir'));
    writeFileSync(path.join(t.dir, 'outside-dir', 'x.png'), 'x');
    write('index.html', '<link rel="stylesheet" href="linked.css"><img src="dir/x.png"><img src="inside.png">');
    write('real.png', 'png');
    symlinkSync(path.join(t.dir, 'secret.css'), path.join(t.site, 'linked.css'));
    symlinkSync(path.join(t.dir, 'outside-dir'), path.join(t.site, 'dir'));
    symlinkSync(path.join(t.site, 'real.png'), path.join(t.site, 'inside.png'));
    const g = await discoverSite(t.site);
    expect([...g.files.keys()]).toEqual(['/index.html', '/inside.png', '/real.png']);
    expect(g.files.get('/inside.png')?.rel).toBe('inside.png');
    expect(g.pages[0]?.items.map((i) => i.url)).toEqual(['/', '/inside.png']);
    expect(codes(g).filter((c) => c === DiscoverCodes.SYMLINK_ESCAPES_ROOT)).toHaveLength(2);
    expect(codes(g).filter((c) => c === DiscoverCodes.MISSING_REF)).toHaveLength(2);
  });

  it('survives a symlink loop, and warns once with the link', async () => {
    write('a/index.html', '<p>a');
    write('a/b/c.css', 'p{}');
    symlinkSync(path.join(t.site, 'a'), path.join(t.site, 'a', 'loop'));
    symlinkSync('../..', path.join(t.site, 'a', 'b', 'up'));
    // Not a loop: a second name for a directory elsewhere (its files are listed under it too).
    symlinkSync(path.join(t.site, 'a', 'b'), path.join(t.site, 'b-alias'));
    const g = await discoverSite(t.site);
    expect([...g.files.keys()].sort()).toEqual(['/a/b/c.css', '/a/index.html', '/b-alias/c.css']);
    const loops = g.diagnostics.filter((d) => d.code === DiscoverCodes.SYMLINK_LOOP);
    expect(loops.map((d) => d.file).sort()).toEqual(['a/b/up', 'a/loop']);
    expect(loops.find((d) => d.file === 'a/loop')?.message).toContain('points to a, a directory that contains it');
  });

  it('warns once, with the file and line, about an @import cycle, and keeps every sheet in the closure', async () => {
    write('a.css', '@import "b.css";\np{color:red}');
    write('b.css', 'p{}\n@import url(a.css);');
    write('self.css', '@import "self.css";');
    write('index.html', '<link rel="stylesheet" href="a.css"><link rel="stylesheet" href="self.css">');
    write('other.html', '<link rel="stylesheet" href="b.css">');
    const g = await discoverSite(t.site);
    const cycles = g.diagnostics.filter((d) => d.code === DiscoverCodes.IMPORT_CYCLE);
    // One per cycle, however many pages reach it and from whichever sheet.
    expect(cycles.map((d) => [d.file, d.line])).toEqual([
      ['b.css', 2],
      ['self.css', 1],
    ]);
    expect(cycles[0]!.message).toContain('@import cycle a.css → b.css → a.css');
    expect(pageClosure(g, '/')!.items.map((i) => i.url)).toEqual(['/', '/a.css', '/b.css', '/self.css']);
    expect(pageClosure(g, '/other.html')!.items.map((i) => i.url)).toEqual(['/other.html', '/b.css', '/a.css']);
  });

  it('skips dotfiles, excluded paths and names that are not UTF-8', async () => {
    write('index.html', '<p>x');
    write('.env', 'SECRET=1');
    write('.git/config', '[core]');
    write('sub/.DS_Store', 'x');
    write('out/_objpack/x.objp', 'x');
    writeFileSync(
      Buffer.concat([Buffer.from(path.join(t.site, 'bad-')), Buffer.from([0xff, 0xfe]), Buffer.from('.png')]),
      'x',
    );
    const g = await discoverSite(t.site, { exclude: ['out/'] });
    expect([...g.files.keys()]).toEqual(['/index.html']);
    expect(codes(g)).toEqual([DiscoverCodes.NON_UTF8_NAME]);
    // As a URL path ('/out/', which is no file system path inside the site) and as a path inside the root.
    expect([...(await discoverSite(t.site, { exclude: ['/out/'] })).files.keys()]).toEqual(['/index.html']);
    expect([...(await discoverSite(t.site, { exclude: [path.join(t.site, 'out')] })).files.keys()]).toEqual([
      '/index.html',
    ]);
  });

  it('skips special files (FIFO) with a warning instead of blocking on them', async () => {
    write('index.html', '<p>x');
    execFileSync('mkfifo', [path.join(t.site, 'pipe.css')]);
    const g = await discoverSite(t.site);
    expect(g.files.has('/pipe.css')).toBe(false);
    expect(codes(g)).toEqual([DiscoverCodes.NOT_A_FILE]);
  });

  it('warns and leaves out a file that vanishes mid-build', async () => {
    write('index.html', '<link rel="stylesheet" href="a.css"><img src="b.png">');
    write('a.css', 'body { background: url(c.png) }');
    write('b.png', 'x');
    write('c.png', 'x');
    const g = await discoverSite(t.site, {
      concurrency: 1,
      onProgress: (done) => {
        if (done === 0) unlinkSync(path.join(t.site, 'a.css')); // after the walk, before any page is parsed
      },
    });
    expect(g.pages[0]?.items.map((i) => i.url)).toEqual(['/', '/b.png']);
    expect(g.files.has('/a.css')).toBe(false);
    expect(g.diagnostics).toMatchObject([{ code: DiscoverCodes.FILE_VANISHED, file: 'a.css' }]);
  });

  it.skipIf(process.getuid?.() === 0)('warns about an unreadable page and continues', async () => {
    write('index.html', '<p>x');
    write('locked.html', '<p>y');
    chmodSync(path.join(t.site, 'locked.html'), 0o000);
    const g = await discoverSite(t.site);
    expect(g.pages.map((p) => p.url)).toEqual(['/']);
    expect(g.diagnostics).toMatchObject([{ code: DiscoverCodes.UNREADABLE, file: 'locked.html' }]);
  });
  if (process.getuid?.() === 0)
    console.warn('⚠ SKIPPING the unreadable-file test: running as root, which can read any file');
});

describe('page encodings', () => {
  it('reads a windows-1252 page with its <meta charset>, so non-ASCII references still resolve', async () => {
    // 0x8A is Š in windows-1252 (Node 20's own decoder gives the C1 control U+008A).
    write(
      'latin.html',
      Buffer.from(
        '<meta charset="windows-1252"><img src="caf\xe9.png"><img src="na\xefve.png"><img src="\x8akoda.png">',
        'latin1',
      ),
    );
    write('café.png', 'x');
    write('naïve.png', 'x');
    write('Škoda.png', 'x');
    write('utf16.html', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<img src="café.png">', 'utf16le')]));
    // A <meta> naming UTF-16 on bytes without a BOM means UTF-8 (HTML's prescan); here broken UTF-8.
    write(
      'meta16.html',
      Buffer.concat([
        Buffer.from('<meta charset="utf-16"><img src="café.png"><p>'),
        Buffer.from([0xff]),
        Buffer.from('</p>'),
      ]),
    );
    const g = await discoverSite(t.site);
    expect(pageClosure(g, '/latin.html')?.items.map((i) => i.url)).toEqual([
      '/latin.html',
      '/caf%C3%A9.png',
      '/na%C3%AFve.png',
      '/%C5%A0koda.png',
    ]);
    expect(pageClosure(g, '/utf16.html')?.items.map((i) => i.path)).toEqual(['/utf16.html', '/café.png']);
    expect(pageClosure(g, '/meta16.html')?.items.map((i) => i.path)).toEqual(['/meta16.html', '/café.png']);
    expect(g.diagnostics).toEqual([]);
  });

  it(
    'reads stylesheets as a browser does when objpack serves them: BOM, UTF-8 (labelled so), @charset, else ' +
      'windows-1252',
    async () => {
      write('café.png', 'x');
      write('naïve.png', 'x');
      write('über.png', 'x');
      write('日本.png', 'x');
      write('charset.css', Buffer.from('@charset "iso-8859-1";\na { background: url(caf\xe9.png) }', 'latin1'));
      write(
        'nolabel.css',
        Buffer.from('a { background: url(na\xefve.png) } b { background: url(\x80.png) }', 'latin1'),
      );
      write('€.png', 'x');
      write(
        'bom.css',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a { background: url(über.png) }')]),
      );
      write('utf8.css', '@charset "iso-8859-1";\na { background: url(日本.png) }');
      write(
        'sheets.html',
        '<link rel="stylesheet" href="charset.css"><link rel="stylesheet" href="nolabel.css"><link ' +
          'rel="stylesheet" href="bom.css"><link rel="stylesheet" href="utf8.css">',
      );
      const g = await discoverSite(t.site);
      const paths = pageClosure(g, '/sheets.html')?.items.map((i) => i.path);
      for (const p of ['/café.png', '/naïve.png', '/€.png', '/über.png', '/日本.png']) expect(paths).toContain(p);
      expect(g.diagnostics).toEqual([]);
    },
  );
});

describe('decodeCss', () => {
  it('follows CSS Syntax §3.2', () => {
    const latin = (s: string) => Buffer.from(s, 'latin1');
    expect(decodeCss(latin('@charset "iso-8859-1"; a{content:"\xe9"}'))).toBe('@charset "iso-8859-1"; a{content:"é"}');
    // A sheet claiming UTF-16 without a BOM is UTF-8; an unknown label falls back to windows-1252 (0x80 = €).
    expect(decodeCss(latin('@charset "utf-16"; a{content:"\x80"}'))).toBe('@charset "utf-16"; a{content:"\ufffd"}');
    expect(decodeCss(latin('@charset "no-such"; a{content:"\x80"}'))).toBe('@charset "no-such"; a{content:"€"}');
    // Not at the very start, or with single quotes: not a charset rule.
    expect(decodeCss(latin(' @charset "utf-8"; a{content:"\xe9"}'))).toBe(' @charset "utf-8"; a{content:"é"}');
    expect(decodeCss(latin('@charset \'koi8-r\'; a{content:"\xe9"}'))).toBe('@charset \'koi8-r\'; a{content:"é"}');
    expect(decodeCss(latin('@charset "koi8-r"; a{content:"\xe9"}'))).toBe('@charset "koi8-r"; a{content:"И"}');
    expect(decodeCss(latin('@charset " KOI8-R "; a{content:"\xe9"}'))).toBe('@charset " KOI8-R "; a{content:"И"}');
    expect(decodeCss(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('\0a', 'latin1')]))).toBe('a');
  });
});

describe('origin and pages', () => {
  it('serves the root under the origin path and treats absolute origin URLs as local', async () => {
    write(
      'index.html',
      '<link rel="stylesheet" href="https://example.com/docs/a.css"><img src="/docs/b.png"><img ' +
        'src="/b.png"><a href="/docs/guide/">g</a>',
    );
    write('a.css', '');
    write('b.png', 'x');
    write('guide/index.html', '<p>g');
    const g = await discoverSite(t.site, { origin: 'https://example.com/docs/' });
    expect([...g.files.keys()]).toEqual(['/docs/a.css', '/docs/b.png', '/docs/guide/index.html', '/docs/index.html']);
    const home = pageClosure(g, '/docs/');
    expect(home?.items.map((i) => i.url)).toEqual(['/docs/', '/docs/a.css', '/docs/b.png']);
    expect(home?.links).toEqual(['/docs/guide/']);
    expect(codes(g)).toEqual([DiscoverCodes.MISSING_REF]);
  });

  it('pageClosure finds a page by URL, clean URL, file URL or file', async () => {
    write('index.html', '<p>x');
    write('guide/index.html', '<p>g');
    write('about.html', '<p>a');
    const g = await discoverSite(t.site);
    for (const q of ['/guide/', '/guide', '/guide/index.html', 'guide/index.html'])
      expect(pageClosure(g, q)?.file).toBe('guide/index.html');
    expect(pageClosure(g, '/about')?.url).toBe('/about.html');
    expect(pageClosure(g, '/')?.file).toBe('index.html');
    expect(pageClosure(g, '/nope')).toBeUndefined();
  });

  it('parses a shared stylesheet once and reports its problems once, not once per page', async () => {
    for (let i = 0; i < 5; i++) write(`p${i}.html`, '<link rel="stylesheet" href="/site.css">');
    write('site.css', 'a { background: url(missing.png) }');
    const g = await discoverSite(t.site);
    expect(g.pages).toHaveLength(5);
    expect(g.diagnostics).toMatchObject([{ code: DiscoverCodes.MISSING_REF, file: 'site.css', line: 1 }]);
  });
});
