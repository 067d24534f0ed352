import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../..', import.meta.url));
/** npm's cache for the fixtures' installs: a second run installs from it without the network. */
export const NPM_CACHE = path.join(REPO, '.cache/npm');
const OBJPACK_BIN = path.join(REPO, 'packages/cli/bin/objpack.js');
/** Written into node_modules after an install: the lockfile it came from. */
const STAMP = '.objpack-fixture-lock';

export interface Ran {
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; rejects with its output when it exits non-zero. */
export function run(
  cmd: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const env = {
      ...process.env,
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      CI: '1',
      ASTRO_TELEMETRY_DISABLED: '1',
      ...options.env,
    };
    execFile(cmd, args, { cwd: options.cwd, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err)
        reject(
          Object.assign(
            new Error(`${cmd} ${args.join(' ')} failed in ${options.cwd}: ${err.message}\n${stdout}\n${stderr}`),
            { stdout, stderr, exitCode: err.code },
          ),
        );
      else resolve({ stdout, stderr });
    });
  });
}

/**
 * Installs a fixture project from its committed package-lock.json (`npm ci`, from the local cache when it
 * can), unless node_modules already came from this lockfile, then links the workspace's packages into its
 * node_modules (`links`: package name → directory) as a user's install would have them.
 */
export async function installFixture(dir: string, links: Record<string, string>): Promise<void> {
  const lock = createHash('sha256')
    .update(readFileSync(path.join(dir, 'package-lock.json')))
    .digest('hex');
  const stamp = path.join(dir, 'node_modules', STAMP);
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== lock) {
    await run('npm', ['ci', '--cache', NPM_CACHE, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
    });
    writeFileSync(stamp, lock);
  }
  for (const [name, target] of Object.entries(links)) linkPackage(dir, name, target);
}

/** Makes `node_modules/<name>` of the fixture `dir` a link to `target`, replacing what was there. */
export function linkPackage(dir: string, name: string, target: string): void {
  const at = path.join(dir, 'node_modules', name);
  mkdirSync(path.dirname(at), { recursive: true });
  rmSync(at, { recursive: true, force: true });
  symlinkSync(target, at, 'dir');
}

/** `objpack build <site> …` run by hand, as a user would after the framework's build. */
export function objpackBuild(site: string, args: readonly string[], cwd: string): Promise<Ran> {
  return run(process.execPath, [OBJPACK_BIN, 'build', site, ...args], { cwd });
}

/** The integration package at `packages/integrations/<name>`. */
export const integration = (name: string): string => path.join(REPO, 'packages/integrations', name);
