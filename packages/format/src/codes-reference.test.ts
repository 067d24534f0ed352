import { describe, expect, it } from 'vitest';
import { checkCatalog } from '../../../scripts/diagnostics-docs.mjs';
import { codesReference } from './errors.js';

describe("@objpack/format's diagnostics catalog", () => {
  const check = checkCatalog('format', codesReference(), 'OBJP_', ['errors.ts']);

  it("the README's codes reference is the one the catalog generates (pnpm docs:codes writes it)", () => {
    expect(check.readme).toBe(check.generated);
  });

  it('every OBJP_ code any package names is in the catalog', () => {
    expect(check.unknown).toEqual([]);
  });

  it('only the catalog writes a code as a string: the sources use its constants', () => {
    expect(check.literals).toEqual([]);
  });
});
