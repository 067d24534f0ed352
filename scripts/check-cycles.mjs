#!/usr/bin/env node
// `pnpm lint:cycles` (part of `pnpm lint`): no import cycle inside any package's src, type-only imports
// included. A cycle hides the order in which a stage hands values on; each package's dependencies on the
// others go one way already (package.json), so only the modules inside one package are checked.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Cycles that the build-stage work in progress removes, each as `package: a.ts > b.ts`
 * from its smallest file. The list only shrinks: a listed cycle that is gone fails the check too, so the
 * entry is deleted with the change that breaks the cycle.
 */
export const KNOWN_CYCLES = [];

/** The `src` folders of the workspace's packages (`packages/*`, `packages/integrations/*`). */
export function sourceRoots(base = root) {
  const roots = [];
  for (const parent of ['packages', join('packages', 'integrations')]) {
    const dir = join(base, parent);
    if (!existsSync(dir)) continue;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const src = join(dir, e.name, 'src');
      if (e.isDirectory() && existsSync(src)) roots.push(src);
    }
  }
  return roots.sort();
}

/** A cycle written from its smallest file, so the same cycle reads the same whichever file madge met first. */
function canonical(cycle) {
  const start = cycle.indexOf([...cycle].sort()[0]);
  return [...cycle.slice(start), ...cycle.slice(0, start)].join(' > ');
}

/** Every import cycle among the `.ts` files of each source root, as `package: a.ts > b.ts`. */
export async function findCycles(roots) {
  const found = [];
  for (const src of roots) {
    const inside = (file) => file.startsWith(src + sep);
    const graph = await madge(src, {
      baseDir: src,
      fileExtensions: ['ts'],
      // Another package resolves to its built `dist/`: its own check covers its sources.
      dependencyFilter: (file) => inside(file),
    });
    const pkg = join(src, '..');
    const name = pkg
      .slice(pkg.lastIndexOf(`${sep}packages${sep}`) + 10)
      .split(sep)
      .join('/');
    for (const cycle of graph.circular()) found.push(`${name}: ${canonical(cycle)}`);
  }
  return found.sort();
}

/** Compares what was found with the known cycles: new ones and listed ones that are gone both fail. */
export function judge(found, known) {
  return {
    unexpected: found.filter((c) => !known.includes(c)),
    remaining: found.filter((c) => known.includes(c)),
    gone: known.filter((c) => !found.includes(c)),
  };
}

async function main() {
  const { unexpected, remaining, gone } = judge(await findCycles(sourceRoots()), KNOWN_CYCLES);
  const out = [];
  if (remaining.length > 0) {
    out.push(`⚠ ${remaining.length} known import cycle(s) remain, allowed until the work that removes them lands:`);
    out.push(...remaining.map((c) => `    ${c}`));
  }
  if (unexpected.length > 0) {
    out.push(`✗ ${unexpected.length} import cycle(s) in packages/*/src; break each (types in a module of their own,`);
    out.push('  or pass the function instead of importing it):');
    out.push(...unexpected.map((c) => `    ${c}`));
  }
  if (gone.length > 0) {
    out.push(`✗ ${gone.length} known cycle(s) are gone: delete them from KNOWN_CYCLES in scripts/check-cycles.mjs:`);
    out.push(...gone.map((c) => `    ${c}`));
  }
  const failed = unexpected.length > 0 || gone.length > 0;
  if (!failed) out.push('✓ no import cycles in packages/*/src beyond the known ones');
  (failed ? process.stderr : process.stdout).write(`${out.join('\n')}\n`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
