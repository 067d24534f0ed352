/** The README that documents every code of this package, generated from the catalog. */
export const CODES_REFERENCE = 'packages/cli/README.md';

/** Where `code` is documented: its anchor in the package README's codes reference. */
export const docsAnchor = (code: string): string => `${CODES_REFERENCE}#${code.toLowerCase()}`;
