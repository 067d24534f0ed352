import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, get, startServeCli, type Cli } from '../../test-utils/serve-cli.js';
import { makeSite, SMALL_SITE } from '../../test-utils/site.js';

const built = existsSync(fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url)));
const running: Cli[] = [];
const temps: string[] = [];
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') for (const c of running) console.error(`objpack serve stderr:\n${c.stderr()}`);
  for (const c of running.splice(0)) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
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
});
