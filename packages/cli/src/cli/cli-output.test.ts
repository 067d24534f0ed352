import { Writable } from 'node:stream';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../config.js';
import { makeSite, SMALL_SITE } from '../test-utils/site.js';
import { main } from './main.js';

/** A stream that keeps what was written; `tty` makes it look like a terminal to the logger. */
function capture(tty: boolean): Writable & { isTTY?: boolean; columns?: number; text(): string } {
  const chunks: string[] = [];
  const s = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  }) as Writable & { isTTY?: boolean; columns?: number; text(): string };
  if (tty) {
    s.isTTY = true;
    s.columns = 100;
  }
  s.text = () => chunks.join('');
  return s;
}

// In-process (main(argv, io)): the built-binary tests in cli.test.ts cannot give the CLI a terminal.
describe('build output on a terminal and with --quiet', () => {
  test('a TTY gets a progress bar that clears itself, warnings with file:line, then the summary table', async () => {
    const root = await makeSite(SMALL_SITE);
    const stdout = capture(false);
    const stderr = capture(true);
    const code = await main(['node', 'objpack', 'build', root, '--no-sw'], { stdout, stderr });
    expect(code, stderr.text()).toBe(0);
    const err = stderr.text();
    // eslint-disable-next-line no-control-regex -- the escape sequence that redraws the line is the point
    expect(err).toMatch(/\r\x1b\[2K\[#*-*\]\s+\d+% crawling \d+\/3/);
    expect(err).toMatch(/\[#{24}\] 100% hashing 3\/3/);
    // The last progress line was cleared before the warnings and the table, not left behind.
    expect(err.slice(err.lastIndexOf('\r'))).not.toMatch(/\[[#-]{24}\]/);
    expect(err).toMatch(/blog\.html:1 OBJPACK_W_MISSING_REF/);
    for (const row of [
      'pages',
      'objects',
      'packages',
      'package bytes',
      'duplicated bytes',
      'missing references',
      'round trips saved',
    ]) {
      expect(err).toMatch(new RegExp(`${row}\\s.*\\S`));
    }
    expect(err).toMatch(/pages\s+3\b/);
    expect(stdout.text()).toBe('');
  });

  test('no progress bar when stderr is not a terminal', async () => {
    const root = await makeSite(SMALL_SITE);
    const stderr = capture(false);
    expect(await main(['node', 'objpack', 'build', root, '--no-sw'], { stdout: capture(false), stderr })).toBe(0);
    expect(stderr.text()).not.toMatch(/crawling|\r/);
    expect(stderr.text()).toMatch(/round trips saved/);
  });

  test('--quiet prints one summary line and no warnings, table or progress, even on a TTY', async () => {
    const root = await makeSite(SMALL_SITE);
    const stderr = capture(true);
    expect(
      await main(['node', 'objpack', 'build', root, '--no-sw', '--quiet'], { stdout: capture(false), stderr }),
    ).toBe(0);
    const lines = stderr.text().split('\n').filter(Boolean);
    expect(lines).toEqual([expect.stringMatching(/^objpack: 3 pages, \d+ packages, 0 errors, 1 warning → /)]);
  });

  test('one missing file that every page references is one warning line, not 50 that bury the others', async () => {
    // 120 pages with the same broken logo (a layout's), one stylesheet with its own: with a line per
    // page, the 50 printed were all the logo's and the stylesheet's and the _headers limit warning were
    // left among '… and 72 more'.
    const pages = Object.fromEntries(
      Array.from({ length: 120 }, (_, i) => [
        `p${i}.html`,
        '<!doctype html><title>p</title><link rel="stylesheet" href="/s.css"><img src="/logo.png">\n',
      ]),
    );
    const root = await makeSite({ ...pages, 's.css': 'body { background: url(/bg.png) }\n' });
    const stderr = capture(false);
    expect(await main(['node', 'objpack', 'build', root, '--no-sw'], { stdout: capture(false), stderr })).toBe(0);
    const warnings = stderr
      .text()
      .split('\n')
      .filter((l) => l.startsWith('warning '));
    expect(warnings.filter((l) => l.includes('/logo.png'))).toEqual([
      expect.stringMatching(/^warning p\d+\.html:1 OBJPACK_W_MISSING_REF .* \(and 119 more like it\)$/),
    ]);
    expect(warnings.some((l) => /^warning s\.css:1 OBJPACK_W_MISSING_REF .*\/bg\.png/.test(l))).toBe(true);
    expect(warnings.some((l) => l.includes('OBJPACK_W_CLOUDFLARE_HEADERS_LIMIT'))).toBe(true);
    expect(stderr.text()).not.toContain('more warnings');
  });
});

describe('--target cloudflare in the summary', () => {
  test("the table and --json say how many pages kept a Link rule within Cloudflare Pages' 100 rules", async () => {
    const files: Record<string, string> = {
      'index.html': '<!doctype html><title>home</title><link rel="stylesheet" href="/s.css">',
      's.css': 'p{}',
    };
    for (let i = 0; i < 120; i++)
      files[`p${i}.html`] = `<!doctype html><title>${i}</title><link rel="stylesheet" href="/s.css">`;
    const root = await makeSite(files);
    const stderr = capture(false);
    expect(
      await main(['node', 'objpack', 'build', root, '--no-sw', '--target', 'cloudflare'], {
        stdout: capture(false),
        stderr,
      }),
    ).toBe(0);
    // objpack's 4 rules leave 96 for the 121 pages.
    expect(stderr.text()).toMatch(/Link rules \(_headers\)\s+96 of 121 pages \(Cloudflare Pages' 100-rule limit\)/);
    const stdout = capture(false);
    expect(
      await main(['node', 'objpack', 'build', root, '--no-sw', '--target', 'cloudflare', '--json'], {
        stdout,
        stderr: capture(false),
      }),
    ).toBe(0);
    expect(JSON.parse(stdout.text()).summary.linkRules).toEqual({ pages: 96, of: 121, cut: 25 });
    // Without the target the 125 rules are a warning, which `--target netlify` (the host named) silences.
    const plain = capture(false);
    expect(await main(['node', 'objpack', 'build', root, '--no-sw'], { stdout: capture(false), stderr: plain })).toBe(
      0,
    );
    expect(plain.text()).toContain('OBJPACK_W_CLOUDFLARE_HEADERS_LIMIT');
    const netlify = capture(false);
    expect(
      await main(['node', 'objpack', 'build', root, '--no-sw', '--target', 'netlify'], {
        stdout: capture(false),
        stderr: netlify,
      }),
    ).toBe(0);
    expect(netlify.text()).not.toContain('OBJPACK_W_CLOUDFLARE_HEADERS_LIMIT');
  });
});

describe('objpack.config.{js,mjs,json} discovery', () => {
  test.each(['objpack.config.js', 'objpack.config.mjs', 'objpack.config.json'])(
    '%s in the working directory is found and read',
    async (name) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'objpack-cfg-'));
      // .js is ESM here: the config sits in a package with "type": "module", like objpack's users' sites.
      await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
      const body = name.endsWith('.json')
        ? JSON.stringify({ out: 'deploy', targets: ['nginx'] })
        : "export default () => ({ out: 'deploy', targets: ['nginx'] });\n";
      await writeFile(path.join(dir, name), body);
      const { config, file } = await loadConfig(dir);
      expect(file).toBe(path.join(dir, name));
      expect(config).toEqual({ out: path.join(dir, 'deploy'), targets: ['nginx'] });
    },
  );

  test('.js wins over .mjs and .json when several exist; a config that is not an object is an error', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'objpack-cfg-'));
    await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
    await writeFile(path.join(dir, 'objpack.config.json'), JSON.stringify({ origin: 'https://json.example' }));
    await writeFile(path.join(dir, 'objpack.config.js'), "export default { origin: 'https://js.example' };\n");
    expect((await loadConfig(dir)).config.origin).toBe('https://js.example');
    await writeFile(path.join(dir, 'bad.mjs'), 'export default 42;\n');
    await expect(loadConfig(dir, 'bad.mjs')).rejects.toMatchObject({ code: 'OBJPACK_E_CONFIG' });
  });

  test(
    'an unknown target is an error, as an unknown key is: ' +
      '`cloudfare` must not build the default _headers in silence',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'objpack-cfg-'));
      await writeFile(path.join(dir, 'objpack.config.json'), JSON.stringify({ targets: ['cloudflare', 'nginx'] }));
      expect((await loadConfig(dir)).config.targets).toEqual(['cloudflare', 'nginx']);
      for (const targets of [['cloudfare'], 'cloudflare', [1]]) {
        await writeFile(path.join(dir, 'objpack.config.json'), JSON.stringify({ targets }));
        await expect(loadConfig(dir)).rejects.toMatchObject({
          code: 'OBJPACK_E_CONFIG',
          message: expect.stringContaining('targets'),
        });
      }
    },
  );
});
