import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, get, startServeCli, unpack, until, type Cli } from '../../test-utils/serve-cli.js';
import { makeSite, SMALL_SITE } from '../../test-utils/site.js';

const built = existsSync(fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url)));
const running: Cli[] = [];
const temps: string[] = [];
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') for (const c of running) console.error(`objpack serve stderr:\n${c.stderr()}`);
  for (const c of running.splice(0))
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  for (const d of temps.splice(0)) await rm(d, { recursive: true, force: true });
});
const start = async (args: string[], cwd: string) => {
  const cli = await startServeCli(args, cwd);
  running.push(cli);
  return cli;
};
const objpack = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

describe.skipIf(!built)('objpack serve --base', () => {
  test('serves a site built with a base under it, says where, and --base overrides', async () => {
    const root = await makeSite(SMALL_SITE);
    temps.push(root);
    expect(objpack('build', root, '--base', '/repo/', '--quiet').status).toBe(0);
    const cli = await start([root, '--port', '0'], root);
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/repo\/$/);
    expect((await get(`${cli.url}about/`)).status).toBe(200);
    expect((await get(new URL('/about/', cli.url).href)).status).toBe(404);
    const root2 = await start([root, '--port', '0', '--base', '/'], root);
    expect((await get(`${root2.url}/about/`)).status).toBe(200);
  });

  test('a base that is no path is a usage error (exit 2, OBJPACK_E_BAD_BASE)', () => {
    const r = objpack('serve', '.', '--port', '0', '--base', 'repo/');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('OBJPACK_E_BAD_BASE');
  });

  test('--watch builds under the base and keeps it, with or without the flag: an edit is served under it', async () => {
    const root = await makeSite({
      'index.html': '<!doctype html><title>Home</title><link rel="stylesheet" href="css/a.css"><a href="about/">A</a>',
      'about/index.html': '<!doctype html><title>About</title><link rel="stylesheet" href="../css/a.css"><p>v1</p>',
      'css/a.css': 'body{color:red}',
    });
    temps.push(root);
    const edit = async (text: string) => {
      const file = path.join(root, 'about/index.html');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/<p>v\d<\/p>/, text));
    };
    const served = async (cli: Cli, text: string) =>
      until(async () => {
        const r = await get(`${cli.url}about/`, { 'x-objpack': 'package' });
        const html = unpack(r.body).get('/repo/about/');
        return r.status === 200 && html?.includes(text) ? { html, location: r.headers['content-location'] } : undefined;
      });
    for (const [args, text] of [
      [['--base', '/repo/'], '<p>v2</p>'],
      [[], '<p>v3</p>'],
    ] as const) {
      const cli = await start([root, '--port', '0', '--watch', ...args], root);
      expect(cli.url).toMatch(/\/repo\/$/);
      await until(async () => (/watching/.test(cli.stderr()) ? true : undefined));
      await edit(text);
      const got = await served(cli, text);
      expect(got.location).toMatch(/^\/repo\/_objpack\/pages\/about\/index\.html\.[0-9a-f]+\.objp$/);
      expect(got.html).toContain('<script src="/repo/objpack-register.js" defer fetchpriority="high"></script>');
      expect((await get(new URL('/about/', cli.url).href)).status).toBe(404);
      cli.child.kill('SIGTERM');
      expect((await cli.exit).code).toBe(0);
    }
  }, 60_000);
});
