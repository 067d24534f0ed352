import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { build } from '../build.js';
import { ErrorCode, ExitCode } from '../errors.js';
import { BIN } from '../test-utils/serve-cli.js';
import { makeSite, SMALL_SITE, writeFiles } from '../test-utils/site.js';
import { verifyOutput } from '../test-utils/verify-output.js';

const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const built = existsSync(DIST);
if (!built) console.warn(`SKIPPED build-interrupt tests: ${DIST} is missing (run \`pnpm --filter objpack run build\`)`);

/** Enough pages that the build is still running when the signal arrives. */
const PAGES = 600;

describe.skipIf(!built)('objpack build interrupted (real child process)', () => {
  test('the first SIGINT stops it with OBJPACK_E_ABORTED and the previous output stays whole', async () => {
    const files: Record<string, string | Uint8Array> = { ...SMALL_SITE };
    for (let i = 0; i < PAGES; i++) {
      files[`p/${i}.html`] =
        `<!doctype html><html><head><title>${i}</title><link rel="stylesheet" href="/css/site.css"></head>` +
        `<body><img src="/img/logo.png" alt=""><a href="/p/${(i + 1) % PAGES}.html">next</a></body></html>\n`;
    }
    const root = await makeSite(files);
    const first = await build({ root, report: false });
    await writeFiles(root, { 'css/base.css': 'body{padding:0}' });
    const manifest = await readFile(path.join(root, 'objpack-manifest.json'));
    // A config file makes the CLI print `config:` once its signal handlers are in place: the moment to send.
    const config = path.join(root, '..', `${path.basename(root)}.config.json`);
    await writeFile(config, JSON.stringify({ report: false }));

    const child = spawn(process.execPath, [BIN, 'build', root, '--config', config], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      const before = stderr;
      stderr += c.toString();
      if (!before.includes('config:') && stderr.includes('config:')) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));

    expect(stderr).toContain('SIGINT: stopping the build');
    expect(code).toBe(ExitCode.BUILD_ERRORS);
    // The error is printed once, with its code and hint.
    expect(stderr).toMatch(new RegExp(`^error ${ErrorCode.ABORTED}: build cancelled \\(SIGINT\\)`, 'm'));
    expect(await readFile(path.join(root, 'objpack-manifest.json'))).toEqual(manifest);
    expect((await verifyOutput(root)).buildId).toBe(first.buildId);
  });
});
