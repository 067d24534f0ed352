import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { defineConfig, loadConfig } from './config.js';

const CLI = fileURLToPath(new URL('..', import.meta.url));
const built = existsSync(path.join(CLI, 'dist/index.js'));

/** A project whose config imports `objpack` as users' do (node_modules/objpack → this package). */
async function project(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'objpack-cfg-'));
  await mkdir(path.join(dir, 'node_modules'));
  await symlink(CLI, path.join(dir, 'node_modules/objpack'), 'dir');
  return dir;
}

const TYPED = `import { defineConfig, type ObjpackConfig } from 'objpack';
const targets: NonNullable<ObjpackConfig['targets']> = ['nginx'];
export default defineConfig({ out: 'deploy', targets, exclude: ['drafts/'] satisfies string[] });
`;

describe('typed config files', () => {
  // Node 20 has no type stripping: these load through jiti, on every Node the same way.
  test.skipIf(!built).each(['objpack.config.ts', 'objpack.config.mts'])(
    '%s with types and defineConfig from objpack is found and read',
    async (name) => {
      const dir = await project();
      await writeFile(path.join(dir, name), TYPED);
      const { config, file } = await loadConfig(dir);
      expect(file).toBe(path.join(dir, name));
      expect(config).toEqual({ out: path.join(dir, 'deploy'), targets: ['nginx'], exclude: ['drafts/'] });
    },
  );

  test.skipIf(!built)(
    'an .mjs config uses defineConfig too, with a function; a .ts config that does not compile is OBJPACK_E_CONFIG',
    async () => {
      const dir = await project();
      await writeFile(
        path.join(dir, 'objpack.config.mjs'),
        "import { defineConfig } from 'objpack';\nexport default defineConfig(async () => ({ cleanUrls: true }));\n",
      );
      expect((await loadConfig(dir)).config).toEqual({ cleanUrls: true });
      await writeFile(path.join(dir, 'broken.ts'), 'export default { out: };\n');
      await expect(loadConfig(dir, 'broken.ts')).rejects.toMatchObject({ code: 'OBJPACK_E_CONFIG' });
    },
  );

  test('defineConfig returns what it is given and checks its types', () => {
    const config = { targets: ['vercel' as const], reportFile: 'out/report.html' };
    expect(defineConfig(config)).toBe(config);
    // @ts-expect-error: not a target `--target` takes
    defineConfig({ targets: ['heroku'] });
    // @ts-expect-error: not an option
    defineConfig({ outDir: 'dist' });
  });
});
