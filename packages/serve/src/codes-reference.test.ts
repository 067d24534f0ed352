import { describe, expect, it } from 'vitest';
import { catalogTests } from '../../../scripts/catalog-tests.mjs';
import { codesReference, ServeError, ServeErrorCode } from './errors.js';

describe("@objpack/serve's diagnostics catalog", () => {
  catalogTests('serve', codesReference(), 'SERVE_', ['errors.ts']);

  it('a ServeError carries the hint and the docs anchor of its code', () => {
    const err = new ServeError(ServeErrorCode.LISTEN, 'port 80 is taken');
    expect(err.hint).toBe(codesReference().find((r) => r.code === 'SERVE_LISTEN')!.hint);
    expect(err.docs).toBe('packages/serve/README.md#serve_listen');
  });
});
