import { describe, expect, it } from 'vitest';
import { catalogTests } from '../../../../scripts/catalog-tests.mjs';
import { ErrorCode, ObjpackError, WarningCode, warn } from '../errors.js';
import { codesReference } from './reference.js';

describe("objpack's diagnostics catalog", () => {
  const rows = codesReference();
  catalogTests('cli', rows, 'OBJPACK_[EW]_', ['diagnostics']);

  it('every message shape names its parts', () => {
    for (const row of rows) for (const m of row.messages ?? []) expect(m, row.code).not.toMatch(/undefined|\[object/);
  });

  it('warn() makes the message, severity and place of a warning from its parts', () => {
    const d = warn(
      WarningCode.PAGES_REDIRECTED,
      { pages: 2, url: '/a/', file: '_redirects', rule: '/a/*' },
      {
        file: '_redirects',
      },
    );
    expect(d).toEqual({
      code: 'OBJPACK_W_PAGES_REDIRECTED',
      severity: 'warning',
      message:
        '2 pages are redirected by the host before it serves files (/a/ by _redirects `/a/*`): the worker ' +
        'leaves their URLs to the host',
      file: '_redirects',
    });
    expect(warn(WarningCode.BASE_DETECTED, { base: '/repo/' }).severity).toBe('info');
  });

  it('an ObjpackError carries the hint, exit code and docs anchor of its code', () => {
    const err = new ObjpackError(ErrorCode.TARGET_EXISTS, 'x.html exists');
    expect([err.message, err.exitCode, err.docs]).toEqual([
      'OBJPACK_E_TARGET_EXISTS: x.html exists',
      2,
      'packages/cli/README.md#objpack_e_target_exists',
    ]);
    expect(err.hint).toBe(rows.find((r) => r.code === err.code)!.hint);
  });
});
