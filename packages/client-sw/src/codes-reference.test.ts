import { readFile, rm } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogTests } from '../../../scripts/catalog-tests.mjs';
import { bundle } from '../scripts/bundle.mjs';
import { codesReference } from './errors.js';

describe("@objpack/client-sw's diagnostics catalog", () => {
  catalogTests('client-sw', codesReference(), 'OBJPSW_', ['errors.ts']);

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
