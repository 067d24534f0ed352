import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../errors.js';
import { makeSite, SMALL_SITE } from '../test-utils/site.js';
import { frameworkBuild, type FrameworkLogger } from './framework-build.js';

const project = () => mkdtemp(path.join(tmpdir(), 'objpack-project-'));
const recorder = () => {
  const lines: Array<[keyof FrameworkLogger, string]> = [];
  const logger: FrameworkLogger = {
    info: (m) => lines.push(['info', m]),
    warn: (m) => lines.push(['warn', m]),
    error: (m) => lines.push(['error', m]),
  };
  return { logger, lines };
};

describe('frameworkBuild', () => {
  test("config file < framework < the integration's options: each wins over the one before", async () => {
    const [root, dir] = [await makeSite(SMALL_SITE), await project()];
    const file = { cleanUrls: true, bareDirUrls: true, targets: ['nginx'], exclude: ['about/'] };
    await writeFile(path.join(dir, 'objpack.config.json'), JSON.stringify(file));
    const { logger, lines } = recorder();
    const r = await frameworkBuild({
      integration: 'test',
      projectDir: dir,
      framework: { root, cleanUrls: false, bareDirUrls: false },
      options: { bareDirUrls: true, targets: ['vercel'] },
      logger,
    });
    // exclude from the file; cleanUrls: the framework's false over the file's true; bareDirUrls and targets:
    // the options'.
    expect(Object.keys(r.manifest.pages).sort()).toEqual(['/', '/blog.html']);
    expect(r.manifest.cleanUrls).toBeUndefined();
    expect(r.manifest.bareDirUrls).toBe(true);
    expect(existsSync(path.join(root, 'vercel.json'))).toBe(true);
    expect(existsSync(path.join(root, 'objpack-nginx.conf'))).toBe(false);
    // Through the framework's logger: the config file read, each warning as file:line CODE, one summary line.
    expect(lines[0]).toEqual(['info', 'config: objpack.config.json']);
    expect(lines.filter(([level]) => level === 'warn').map(([, m]) => m)).toEqual([
      expect.stringMatching(/^blog\.html:1 OBJPACK_W_MISSING_REF /),
    ]);
    expect(lines.at(-1)).toEqual([
      'info',
      expect.stringMatching(/^2 pages, \d+ packages \(\d+ shared\), 1 warning → .+; report: \.objpack\/report\.html/),
    ]);
    expect(r.report).toBe(path.join(dir, '.objpack/report.html'));
  });

  test('bad options and a failed build throw with their code; config: false reads no config file', async () => {
    const [root, dir] = [await makeSite(SMALL_SITE), await project()];
    const { logger } = recorder();
    const input = { integration: '@objpack/test', projectDir: dir, framework: { root }, logger };
    await expect(frameworkBuild({ ...input, options: { outDir: 'x' } as never })).rejects.toMatchObject({
      code: ErrorCode.CONFIG,
      message: expect.stringMatching(/^OBJPACK_E_CONFIG: @objpack\/test options: unknown option\(s\) outDir/),
    });
    await writeFile(path.join(dir, 'objpack.config.json'), '{ "targets": ["heroku"] }');
    await expect(frameworkBuild(input)).rejects.toMatchObject({ code: ErrorCode.CONFIG });
    await expect(frameworkBuild({ ...input, options: { config: false } })).resolves.toMatchObject({ outDir: root });
    const empty = await project();
    await expect(
      frameworkBuild({ ...input, framework: { root: empty }, options: { config: false } }),
    ).rejects.toMatchObject({
      code: ErrorCode.NO_PAGES,
      message: expect.stringMatching(/^OBJPACK_E_NO_PAGES: /),
    });
  });
});
