/** One code of a package's catalog, as its README's codes reference shows it. */
export interface CodeRow {
  code: string;
  level: 'error' | 'warning' | 'info';
  /** Message shapes, `{part}` where a value goes; errors have a meaning instead. */
  messages?: string[];
  meaning?: string;
  hint: string;
  exit?: number;
}
export declare const BEGIN: string;
export declare const END: string;
export declare function renderReference(rows: CodeRow[]): string;
export declare function withReference(readme: string, block: string): string;
/** Each match of `pattern` (its first group) in the sources under `dirs`, tests excluded, with the files naming it. */
export declare function codesInSources(dirs: string[], pattern: RegExp): Map<string, Set<string>>;
/** The `src/` directory of every package. */
export declare const SOURCES: string[];
/** The README block, the codes the catalog lacks, and code strings written outside the catalog files. */
export declare function checkCatalog(
  pkg: string,
  rows: CodeRow[],
  prefix: string,
  catalog: string[],
): { readme: string; generated: string; unknown: string[]; literals: string[] };
