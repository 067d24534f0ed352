/**
 * The Node versions `objpack` declares must be ones its whole runtime dependency tree declares too: npm
 * warns on install (and `engine-strict` refuses) when a dependency's `engines.node` excludes the user's Node.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const CLI = fileURLToPath(new URL('..', import.meta.url));
const read = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;

/** Node's lookup of `name` from `dir`: the nearest node_modules/<name> above it. */
function packageDir(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Every package the installed runtime tree of `root` holds (dependencies and optional ones, not dev). */
function runtimeTree(root: string): Map<string, Manifest> {
  const seen = new Map<string, Manifest>();
  const visit = (dir: string) => {
    const pkg = read(dir);
    const key = `${pkg.name}@${pkg.version}`;
    if (seen.has(key)) return;
    seen.set(key, pkg);
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const found = packageDir(name, dir);
      if (found) visit(found);
    }
  };
  visit(root);
  return seen;
}

describe('declared Node engines', () => {
  it('every runtime dependency of objpack accepts the oldest Node objpack declares', () => {
    const floor = semver.minVersion(read(CLI).engines!.node!)!.version;
    const tree = runtimeTree(CLI);
    expect(tree.size).toBeGreaterThan(20);
    const refusing = [...tree].filter(([, pkg]) => pkg.engines?.node && !semver.satisfies(floor, pkg.engines.node));
    expect(refusing.map(([key, pkg]) => `${key} (node ${pkg.engines!.node})`)).toEqual([]);
  });
});
