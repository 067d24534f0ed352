import type { CodeRow } from './diagnostics-docs.mjs';
/** Registers the README, completeness and no-literal tests of a package's diagnostics catalog. */
export declare function catalogTests(pkg: string, rows: CodeRow[], prefix: string, catalog: string[]): void;
