import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCycles, judge, KNOWN_CYCLES, sourceRoots } from './check-cycles.mjs';

const dir = mkdtempSync(join(tmpdir(), 'objpack-cycles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

write({
  // A cycle through a type-only import, one level down, written from its smallest file.
  'packages/ring/src/stage/types.ts': "import type { Run } from '../run.js';\nexport type Step = Run;\n",
  'packages/ring/src/run.ts': "import type { Step } from './stage/types.js';\nexport type Run = { s?: Step };\n",
  // Three files around, met from the middle one.
  'packages/ring/src/b.ts': "import { c } from './c.js';\nexport const b = () => c;\n",
  'packages/ring/src/c.ts': "import { a } from './a.js';\nexport const c = () => a;\n",
  'packages/ring/src/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
  // One-way imports, and a cycle inside another package's build output that is not this package's.
  'packages/line/src/index.ts': "import { x } from './x.js';\nimport { d } from '../../ring/dist/d.js';\nx(d);\n",
  'packages/line/src/x.ts': 'export const x = (v: unknown) => v;\n',
  'packages/ring/dist/d.js': "import { e } from './e.js';\nexport const d = e;\n",
  'packages/ring/dist/e.js': "import { d } from './d.js';\nexport const e = d;\n",
  'packages/integrations/plug/src/index.ts': "import { y } from './y.js';\nexport const z = y;\n",
  'packages/integrations/plug/src/y.ts': "import { z } from './index.js';\nexport const y = () => z;\n",
});

describe('the import cycle check', () => {
  it('finds the src folders of packages and integrations', () => {
    expect(sourceRoots(dir).map((r: string) => r.slice(dir.length + 1))).toEqual([
      'packages/integrations/plug/src',
      'packages/line/src',
      'packages/ring/src',
    ]);
  });

  it('reports every cycle of a package, type-only imports included, and nothing across packages', async () => {
    expect(await findCycles(sourceRoots(dir))).toEqual([
      'integrations/plug: index.ts > y.ts',
      'ring: a.ts > b.ts > c.ts',
      'ring: run.ts > stage/types.ts',
    ]);
  });

  it('fails on a new cycle and on a known one that is gone', () => {
    const r = judge(['cli: a.ts > b.ts', 'cli: c.ts > d.ts'], ['cli: c.ts > d.ts', 'cli: e.ts > f.ts']);
    expect(r).toEqual({
      unexpected: ['cli: a.ts > b.ts'],
      remaining: ['cli: c.ts > d.ts'],
      gone: ['cli: e.ts > f.ts'],
    });
  });

  it('knows only cycles of the build stages, whose own work removes them', () => {
    for (const c of KNOWN_CYCLES) expect(c).toMatch(/^cli: build\.ts > /);
  });
});
