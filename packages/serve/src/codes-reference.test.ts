import { describe, expect, it } from 'vitest';
import { checkCatalog } from '../../../scripts/diagnostics-docs.mjs';
import { codesReference, ServeError, ServeErrorCode } from './errors.js';

describe("@objpack/serve's diagnostics catalog", () => {
  const check = checkCatalog('serve', codesReference(), 'SERVE_', ['errors.ts']);

  it("the README's codes reference is the one the catalog generates (pnpm docs:codes writes it)", () => {
    expect(check.readme).toBe(check.generated);
  });

  it('every SERVE_ code the sources name is in the catalog', () => {
    expect(check.unknown).toEqual([]);
  });

  it('only the catalog writes a code as a string: the sources use its constants', () => {
    expect(check.literals).toEqual([]);
  });

  it('a ServeError carries the hint and the docs anchor of its code', () => {
    const err = new ServeError(ServeErrorCode.LISTEN, 'port 80 is taken');
    expect(err.hint).toBe(codesReference().find((r) => r.code === 'SERVE_LISTEN')!.hint);
    expect(err.docs).toBe('packages/serve/README.md#serve_listen');
  });
});
