import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { makeSite, SMALL_SITE } from '../test-utils/site.js';
import { listFiles } from '../test-utils/verify-output.js';

// Rollup's rule: CLI tests run the built binary, exactly as users do.
const BIN = fileURLToPath(new URL('../../bin/objpack.js', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url)));
if (!built) console.warn('SKIPPED CLI tests: packages/cli/dist is missing (run `pnpm --filter objpack run build`)');

const runIn = (cwd: string | undefined, ...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const run = (...args: string[]) => runIn(undefined, ...args);

describe.skipIf(!built)('objpack CLI', () => {
  test('--help on every command shows examples and exits 0', () => {
    for (const cmd of [[], ['build'], ['closure'], ['inspect'], ['unpack'], ['serve']]) {
      const r = run(...cmd, '--help');
      expect(r.code, cmd.join(' ')).toBe(0);
      expect(r.stdout).toContain('Examples:');
      expect(r.stdout).toContain('Exit codes:');
    }
  });

  test('usage errors exit 2: unknown command, missing argument, bad flag value, missing directory', () => {
    expect(run('bogus').code).toBe(2);
    expect(run('build').code).toBe(2);
    expect(run('build', '.', '--target', 'heroku').code).toBe(2);
    const missing = run('build', '/nonexistent/site', '--no-sw');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('OBJPACK_E_INPUT_NOT_FOUND');
    const origin = run(
      'build',
      fileURLToPath(new URL('../../../../fixtures/example-site', import.meta.url)),
      '--out',
      path.join(tmpdir(), `objpack-origin-${process.pid}`),
      '--origin',
      'nope',
      '--no-sw',
    );
    expect(origin.code).toBe(2);
    expect(origin.stderr).toMatch(/^error OBJPACK_E_USAGE: --origin must be an absolute http\(s\) URL, got "nope"$/m);
  });

  test('build --json prints only JSON on stdout; warnings carry file and line on stderr', async () => {
    const root = await makeSite(SMALL_SITE);
    const r = run('build', root, '--no-sw', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ ok: true, exitCode: 0, summary: { pages: 3, missingReferences: 1 } });
    expect(j.diagnostics[0]).toMatchObject({ code: 'OBJPACK_W_MISSING_REF', file: 'blog.html', line: 1 });
    const human = run('build', root, '--no-sw');
    expect(human.code).toBe(0);
    expect(human.stderr).toMatch(/blog\.html:1 OBJPACK_W_MISSING_REF/);
    expect(human.stderr).toMatch(/round trips saved/);
  });

  test('--json prints JSON on stdout when the command fails too, with the exit code and the error code', async () => {
    const empty = await makeSite({});
    const cases: Array<[string[], number, string]> = [
      [['build', '/nonexistent/site', '--json'], 2, 'OBJPACK_E_INPUT_NOT_FOUND'],
      [['build', empty, '--no-sw', '--json'], 1, 'OBJPACK_E_NO_PAGES'],
      [['inspect', path.join(empty, 'missing.objp'), '--json'], 2, 'OBJPACK_E_INPUT_NOT_FOUND'],
      [['closure', empty, '/', '--json'], 2, 'OBJPACK_E_PAGE_NOT_FOUND'],
    ];
    for (const [args, code, errorCode] of cases) {
      const r = run(...args);
      expect(r.code, args.join(' ')).toBe(code);
      const j = JSON.parse(r.stdout);
      expect(j).toMatchObject({ ok: false, exitCode: code });
      expect(j.error.code).toBe(errorCode);
      expect(r.stderr).toContain('error ');
    }
  });

  test(
    '--target and --exclude before the directory take one value each (repeated or comma-separated), not the ' +
      'directory too',
    async () => {
      const root = await makeSite({
        ...SMALL_SITE,
        'drafts/x.html': '<!doctype html><title>x</title>',
        'old/y.html': '<!doctype html><title>y</title>',
      });
      // Variadic flags would take `root` as one more host or path ("missing required argument 'dir'").
      const r = run(
        'build',
        '--target',
        'vercel,nginx',
        '--target',
        'firebase',
        '--exclude',
        'drafts/',
        '--exclude',
        '/old/',
        root,
        '--no-sw',
        '--json',
      );
      expect(r.code, r.stderr).toBe(0);
      const manifest = JSON.parse(await readFile(path.join(root, 'objpack-manifest.json'), 'utf8')) as {
        pages: Record<string, unknown>;
      };
      expect(Object.keys(manifest.pages).some((p) => p.startsWith('/drafts/') || p.startsWith('/old/'))).toBe(false);
      for (const f of ['vercel.json', 'firebase.json', 'objpack-nginx.conf'])
        expect(existsSync(path.join(root, f)), f).toBe(true);
      expect(run('build', root, '--target', 'vercel,heroku').code).toBe(2);
    },
  );

  test(
    '--target cloudflare is a target: a user _headers that ' +
      'leaves objpack no room is named on stderr with its line',
    async () => {
      const user = Array.from({ length: 98 }, (_, i) => `/u${i}\n  X-A: 1\n`).join('');
      const root = await makeSite({ ...SMALL_SITE, _headers: user });
      const r = run('build', root, '--no-sw', '--target', 'cloudflare');
      expect(r.code).toBe(0);
      // objpack's 4 rules need the room of the user's 97th and 98th, lines 193 and 195.
      expect(r.stderr).toMatch(/_headers:193 OBJPACK_W_CLOUDFLARE_HEADERS_LIMIT /);
      expect(run('build', '--help').stdout).toContain('--target cloudflare');
    },
  );

  test("--bare-dir-urls and --no-bare-dir-urls decide the route table's bareDirUrls over the host config", async () => {
    const root = await makeSite({ ...SMALL_SITE, 'vercel.json': '{}' });
    const table = () =>
      JSON.parse(readFileSync(path.join(root, '_objpack/routes.json'), 'utf8')) as { bareDirUrls?: boolean };
    expect(run('build', root, '--no-bare-dir-urls').code).toBe(0);
    expect(table().bareDirUrls).toBeUndefined();
    expect(run('build', root).code).toBe(0);
    expect(table().bareDirUrls).toBe(true);
    await rm(path.join(root, 'vercel.json'));
    expect(run('build', root, '--bare-dir-urls').code).toBe(0);
    expect(table().bareDirUrls).toBe(true);
  });

  test('config file: objpack.config.json is read; an unknown key is a usage error', async () => {
    const root = await makeSite(SMALL_SITE);
    const cfgDir = await mkdtemp(path.join(tmpdir(), 'objpack-cfg-'));
    await writeFile(path.join(cfgDir, 'cfg.json'), JSON.stringify({ serviceWorker: false, targets: ['nginx'] }));
    expect(run('build', root, '--config', path.join(cfgDir, 'cfg.json')).code).toBe(0);
    expect(existsSync(path.join(root, 'objpack-nginx.conf'))).toBe(true);
    await writeFile(path.join(cfgDir, 'bad.json'), JSON.stringify({ injekt: false }));
    const bad = run('build', root, '--config', path.join(cfgDir, 'bad.json'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('OBJPACK_E_CONFIG');
  });

  test("closure lists the page's objects in package order", async () => {
    const root = await makeSite(SMALL_SITE);
    const r = run('closure', root, '/about/');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      '/about/',
      '/css/site.css',
      '/css/base.css',
      '/fonts/x.woff2',
      '/js/app.js',
      '/js/lib.js',
      '/img/logo.png',
      '/img/team.png',
    ]);
    expect(run('closure', root, 'about/index.html', '--json').code).toBe(0);
    expect(run('closure', root, '/nope/').code).toBe(2);
    // Over the built site (every page now carries the registration script): the same list, as the package has it.
    expect(run('build', root).code).toBe(0);
    const built = run('closure', root, '/about/');
    expect(built.stdout.trim().split('\n')).toEqual(r.stdout.trim().split('\n'));
    expect(built.stderr).not.toContain('objpack-register.js');
  });

  test(
    'the report goes to .objpack/report.html in the working directory, named at the end; --report-file puts it ' +
      'elsewhere',
    async () => {
      const root = await makeSite(SMALL_SITE);
      const project = await mkdtemp(path.join(tmpdir(), 'objpack-project-'));
      const r = runIn(project, 'build', root, '--no-sw');
      expect(r.code).toBe(0);
      expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`  report: ${path.join('.objpack', 'report.html')}`);
      expect(readFileSync(path.join(project, '.objpack/report.html'), 'utf8')).toContain('<title>objpack report');
      expect(existsSync(path.join(root, 'objpack-report.html'))).toBe(false);
      const json = JSON.parse(runIn(project, 'build', root, '--no-sw', '--json').stdout) as { report: string };
      expect(json.report).toBe(path.join(project, '.objpack/report.html'));
      // Asked for in the site: written there, and no page of it (the build does not package it).
      const inSite = runIn(project, 'build', root, '--no-sw', '--report-file', path.join(root, 'objpack-report.html'));
      expect(inSite.code).toBe(0);
      expect(existsSync(path.join(root, 'objpack-report.html'))).toBe(true);
      const closure = run('closure', root, '/objpack-report.html');
      expect(closure.code).toBe(2);
      expect(closure.stderr).not.toMatch(/pages include.*objpack-report/);
      expect(runIn(project, 'build', root, '--no-sw', '--no-report', '--json').stdout).not.toContain('"report"');
    },
  );

  test('closure and build keep the later tier out of the packages and say so', async () => {
    const root = await makeSite({
      'index.html':
        '<link rel="manifest" href="/app.webmanifest"><script type="module" src="/m.js"></script>' +
        '<img srcset="/a.png 1x, /a2.png 2x" src="/a.png">',
      'm.js': "document.onclick = () => import('/search.js');\n",
      'search.js': 'export const index = [];',
      'app.webmanifest': '{}',
      'a.png': 'png1x',
      'a2.png': 'png2x-bigger',
    });
    const r = run('closure', root, '/');
    expect(r.stdout.trim().split('\n')).toEqual([
      '/',
      '/m.js',
      '/a.png',
      '# later tier (in no package: fetched from the network if the page asks)',
      '/a2.png  other-density',
      '/app.webmanifest  manifest',
      '/search.js  dynamic-import',
    ]);
    type Out = { items: Array<{ url: string; tier: string }>; tiers: unknown };
    const json = JSON.parse(run('closure', root, '/', '--json').stdout) as Out;
    const later = ['/a2.png', '/app.webmanifest', '/search.js'];
    expect(json.items.filter((i) => i.tier === 'later').map((i) => i.url)).toEqual(later);
    expect(json.tiers).toEqual({
      critical: { objects: 3, bytes: expect.any(Number) },
      later: { objects: 3, bytes: 38 },
    });
    // Its own working directory: the report goes to .objpack/report.html there.
    const b = runIn(await mkdtemp(path.join(tmpdir(), 'objpack-project-')), 'build', root, '--json');
    expect(b.code).toBe(0);
    const built = JSON.parse(b.stdout) as { summary: { later: unknown }; report: string };
    expect(built.summary.later).toEqual({ objects: 3, bytes: 38 });
    const manifest = JSON.parse(await readFile(path.join(root, 'objpack-manifest.json'), 'utf8'));
    expect(manifest.pages['/'].later).toEqual(later);
    const packed = Object.values(manifest.packages as Record<string, { objects: string[] }>).flatMap((p) => p.objects);
    expect(packed).toEqual(expect.arrayContaining(['/', '/m.js', '/a.png']));
    for (const url of later) expect(packed).not.toContain(url);
    expect(await readFile(built.report, 'utf8')).toContain('later tier (network)');
  });

  test('inspect verifies a package; a corrupt or truncated one exits 3 with a clear code', async () => {
    const root = await makeSite(SMALL_SITE);
    expect(run('build', root, '--no-sw').code).toBe(0);
    // The page's slot names its current package file (whose name carries the build id).
    const ok = run('inspect', path.join(root, '_objpack/pages/index.html.objp'), '--json');
    expect(ok.code).toBe(0);
    const { file: pkg, buildId } = JSON.parse(ok.stdout) as { file: string; buildId: string };
    expect(pkg).toBe(path.join(root, `_objpack/pages/index.html.${buildId}.objp`));
    expect(JSON.parse(ok.stdout).objects.every((o: { verified: boolean }) => o.verified)).toBe(true);
    expect(run('inspect', pkg).stdout).toContain('all digests verified');
    const bytes = await readFile(pkg);
    bytes[bytes.length - 10]! ^= 0xff;
    await writeFile(pkg, bytes);
    const corrupt = run('inspect', pkg);
    expect(corrupt.code).toBe(3);
    expect(corrupt.stderr).toContain('OBJPACK_E_CORRUPT_PACKAGE');
    expect(corrupt.stderr).toContain('OBJP_DIGEST_MISMATCH');
    await truncate(pkg, 40);
    expect(run('inspect', pkg).code).toBe(3);
    await writeFile(pkg, 'not a package');
    expect(run('inspect', pkg).code).toBe(3);
    const missing = run('inspect', path.join(root, 'missing.objp'));
    expect(missing.code).toBe(2);
    // The hint is about a package, not only about the site directory build takes.
    expect(missing.stderr).toContain('.objp file');
    // A directory where a package belongs is a usage error that says so, not a raw EISDIR (exit 1).
    for (const cmd of [['inspect'], ['unpack']]) {
      const dir = run(...cmd, path.join(root, '_objpack'), ...(cmd[0] === 'unpack' ? [path.join(root, 'x')] : []));
      expect(dir.code, cmd[0]).toBe(2);
      expect(dir.stderr).toContain('OBJPACK_E_USAGE');
      expect(dir.stderr).not.toContain('EISDIR');
    }
  });

  test(
    'serve: a missing or non-directory site, or a port past ' +
      '65535, is a usage error (exit 2), not a server failure',
    async () => {
      const root = await makeSite(SMALL_SITE);
      const missing = run('serve', path.join(root, 'nope'), '--port', '0');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('OBJPACK_E_INPUT_NOT_FOUND');
      expect(missing.stderr).not.toContain('port');
      const file = run('serve', path.join(root, 'index.html'), '--port', '0');
      expect(file.code).toBe(2);
      expect(file.stderr).toContain('OBJPACK_E_INPUT_NOT_DIRECTORY');
      const port = run('serve', root, '--port', '99999');
      expect(port.code).toBe(2);
      expect(port.stderr).toContain('OBJPACK_E_USAGE');
      const cert = run(
        'serve',
        root,
        '--port',
        '0',
        '--cert',
        path.join(root, 'nope.pem'),
        '--key',
        path.join(root, 'index.html'),
      );
      expect(cert.code).toBe(2);
      expect(cert.stderr).toMatch(/OBJPACK_E_USAGE: --cert .*nope\.pem: no such file/);
    },
  );

  test('unpack extracts inside the directory only, refusing a symlink that leads out', async () => {
    const root = await makeSite(SMALL_SITE);
    expect(run('build', root, '--no-sw').code).toBe(0);
    const pkg = path.join(root, '_objpack/pages/index.html.objp');
    const into = await mkdtemp(path.join(tmpdir(), 'objpack-unpack-'));
    const r = run('unpack', pkg, into);
    expect(r.code).toBe(0);
    expect(await listFiles(into)).toEqual(['img/home.png', 'index.html']);
    const outside = await mkdtemp(path.join(tmpdir(), 'objpack-outside-'));
    const trap = await mkdtemp(path.join(tmpdir(), 'objpack-trap-'));
    await symlink(outside, path.join(trap, 'img'));
    const refused = run('unpack', pkg, trap);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('OBJPACK_E_UNSAFE_PATH');
    expect(await listFiles(outside)).toEqual([]);
    // Files already there are kept unless --force: the second run names the first one and writes nothing.
    await writeFile(path.join(into, 'index.html'), 'mine');
    const again = run('unpack', pkg, into);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      /OBJPACK_E_TARGET_EXISTS: index\.html already exists in .*; pass --force to overwrite/,
    );
    expect(await readFile(path.join(into, 'index.html'), 'utf8')).toBe('mine');
    expect(run('unpack', pkg, into, '--force').code).toBe(0);
    expect(await readFile(path.join(into, 'index.html'), 'utf8')).not.toBe('mine');
    // A file where the target directory belongs: a usage error, not EEXIST with a stack trace (exit 1).
    const file = path.join(into, 'index.html');
    for (const target of [file, path.join(file, 'sub')]) {
      const onFile = run('unpack', pkg, target);
      expect(onFile.code).toBe(2);
      expect(onFile.stderr).toContain('OBJPACK_E_USAGE');
    }
  });

  test('an empty directory is a build error (exit 1)', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'objpack-empty-'));
    await mkdir(path.join(empty, 'sub'));
    const r = run('build', empty, '--no-sw');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('OBJPACK_E_NO_PAGES');
  });
});
