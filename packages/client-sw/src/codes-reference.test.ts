import { readFile, rm } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCatalog } from '../../../scripts/diagnostics-docs.mjs';
import { bundle } from '../scripts/bundle.mjs';
import { codesReference } from './errors.js';

describe("@objpack/client-sw's diagnostics catalog", () => {
  const check = checkCatalog('client-sw', codesReference(), 'OBJPSW_', ['errors.ts']);

  it("the README's codes reference is the one the catalog generates (pnpm docs:codes writes it)", () => {
    expect(check.readme).toBe(check.generated);
  });

  it('every OBJPSW_ code the sources name is in the catalog', () => {
    expect(check.unknown).toEqual([]);
  });

  it('only the catalog writes a code as a string: the sources use its constants', () => {
    expect(check.literals).toEqual([]);
  });

  it("the shipped worker carries the codes and none of the catalog's prose", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'objpack-sw-codes-'));
    try {
      const worker = await readFile((await bundle({ outdir: dir }))['objpack-sw.js']!, 'utf8');
      expect(worker).toContain('OBJPSW_PACKAGE_STALLED');
      for (const row of codesReference()) expect(worker).not.toContain(row.hint);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
