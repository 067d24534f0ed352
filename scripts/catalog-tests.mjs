// The tests every package's diagnostics catalog passes (its `codes-reference.test.ts` calls them), so
// `pnpm test` fails when a README's codes reference is stale or a code bypasses the catalog.
import { expect, it } from 'vitest';
import { checkCatalog } from './diagnostics-docs.mjs';

/** `rows` from the package's codesReference(); `prefix` a RegExp source; `catalog` paths under its src/. */
export function catalogTests(pkg, rows, prefix, catalog) {
  const check = checkCatalog(pkg, rows, prefix, catalog);

  it("the README's codes reference is the one the catalog generates (pnpm docs:codes writes it)", () => {
    expect(check.readme).toBe(check.generated);
  });

  it(`every ${prefix} code any package's sources name is in the catalog`, () => {
    expect(check.unknown).toEqual([]);
  });

  it('only the catalog writes a code as a string: the sources use its constants and factories', () => {
    expect(check.literals).toEqual([]);
  });

  it('every code has a hint that says what to do', () => {
    for (const row of rows) expect(row.hint.length, row.code).toBeGreaterThan(10);
  });
}
