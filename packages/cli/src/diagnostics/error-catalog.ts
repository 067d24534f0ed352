/** Process exit codes the CLI promises (see README "Exit codes"). */
export const ExitCode = { OK: 0, BUILD_ERRORS: 1, USAGE: 2, CORRUPT_INPUT: 3 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** One error of the catalog: what went wrong, what to do, and the exit code the CLI ends with. */
export interface ErrorSpec {
  readonly what: string;
  readonly hint: string;
  readonly exit: ExitCode;
  /** Discovery's own errors reach the user as this code of the build (with theirs in the message). */
  readonly reported?: `OBJPACK_E_${string}`;
}

/** Every error of `objpack`, keyed by its public code. Codes never change meaning: only add. */
export const ERRORS = {
  OBJPACK_E_USAGE: {
    what: 'A command, flag or flag value the CLI does not accept.',
    hint: 'run the command with --help for its options and examples',
    exit: 2,
  },
  OBJPACK_E_CONFIG: {
    what: "objpack.config.* or an integration's options could not be read or hold a wrong value.",
    hint: "fix objpack.config.* or the integration's options; options are listed in the README",
    exit: 2,
  },
  OBJPACK_E_INPUT_NOT_FOUND: {
    what: 'The site directory or package file given does not exist.',
    hint:
      'check the path: build and serve take the directory your site generator writes (dist/, _site/, public/…), ' +
      'inspect and unpack a .objp file',
    exit: 2,
  },
  OBJPACK_E_INPUT_NOT_DIRECTORY: {
    what: 'build or serve was given a file where a directory is needed.',
    hint: 'build and serve take the site directory, not a file',
    exit: 2,
  },
  OBJPACK_E_NO_PAGES: {
    what: 'The site directory holds no .html page.',
    hint: 'run the site generator first, and give the directory it writes (dist/, _site/, public/…)',
    exit: 1,
  },
  OBJPACK_E_OUT_CONTAINS_INPUT: {
    what: '--out names a directory that contains the site directory.',
    hint: 'give an --out outside the site directory and its parents, such as a sibling packed/',
    exit: 2,
  },
  OBJPACK_E_PAGE_NOT_FOUND: {
    what: 'The page given to closure or trace is not a page of the site.',
    hint: 'give the page as a URL path (/guide/) or a file (guide/index.html)',
    exit: 2,
  },
  OBJPACK_E_SW_ASSETS_MISSING: {
    what: "The worker's files from @objpack/client-sw are not built.",
    hint: 'build @objpack/client-sw first (pnpm run build), or pass --no-sw',
    exit: 1,
  },
  OBJPACK_E_SOURCE_CHANGED: {
    what: 'A site file changed while the build read it; no package with mixed contents was written.',
    hint: 'run the build again when the site generator is done writing',
    exit: 1,
  },
  OBJPACK_E_WRITE: {
    what: 'An output file could not be written; files already there are intact.',
    hint: 'check free disk space and permissions of the output directory',
    exit: 1,
  },
  OBJPACK_E_BUILD_ERRORS: {
    what: 'The build reported error-level diagnostics.',
    hint: 'fix the errors printed above, each with its file and line',
    exit: 1,
  },
  OBJPACK_E_CORRUPT_PACKAGE: {
    what: 'A package failed its checks; the message carries the format code (OBJP_…).',
    hint: 'rebuild the package, or copy or fetch it again: the file is not a complete objpack package',
    exit: 3,
  },
  OBJPACK_E_UNSAFE_PATH: {
    what: 'A package names a path that would leave the target directory.',
    hint: 'nothing was extracted; rebuild the package with objpack, and do not unpack packages of unknown origin',
    exit: 3,
  },
  OBJPACK_E_SERVE: {
    what: 'objpack serve could not start (port, certificate, key).',
    hint: 'check the port, certificate and key options',
    exit: 1,
  },
  OBJPACK_E_ABORTED: {
    what: 'The build was cancelled through its AbortSignal.',
    hint: 'nothing to do: the previous output is intact; run the build again to finish it',
    exit: 1,
  },
  OBJPACK_E_TARGET_EXISTS: {
    what: 'unpack would overwrite a file already in the target directory.',
    hint: 'pass --force to overwrite the files, or extract into an empty directory',
    exit: 2,
  },
  OBJPACK_E_BAD_BASE: {
    what: '--base (or base) is not a URL path, or disagrees with the path of --origin.',
    hint:
      'give the URL path the site is served under, with a leading slash (--base /repo/); ' +
      'a path in --origin must be the same one',
    exit: 2,
  },
  OBJPACK_E_ROOT_NOT_FOUND: {
    what: "Discovery's site root does not exist.",
    hint: 'pass the directory your site generator writes',
    exit: 2,
    reported: 'OBJPACK_E_INPUT_NOT_FOUND',
  },
  OBJPACK_E_ROOT_NOT_DIRECTORY: {
    what: "Discovery's site root is not a directory.",
    hint: 'pass the site directory, not a file',
    exit: 2,
    reported: 'OBJPACK_E_INPUT_NOT_DIRECTORY',
  },
  OBJPACK_E_BAD_ORIGIN: {
    what: '--origin is not an absolute http(s) URL.',
    hint: 'give the URL the site is served at, such as --origin https://example.com',
    exit: 2,
    reported: 'OBJPACK_E_USAGE',
  },
  OBJPACK_E_NO_BROWSER: {
    what: '--trace needs Chromium through playwright-core and could not start it.',
    hint: 'install Chromium (apt install chromium) or set OBJPACK_CHROMIUM, and npm i -D playwright-core',
    exit: 1,
    reported: 'OBJPACK_E_BUILD_ERRORS',
  },
} as const satisfies Record<`OBJPACK_E_${string}`, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;
type ShortName<C> = C extends `OBJPACK_E_${infer N}` ? N : never;

/** The error codes by short name (`ErrorCode.USAGE`), for code that throws or matches on them. */
export const ErrorCode = Object.fromEntries(
  Object.keys(ERRORS).map((code) => [code.slice('OBJPACK_E_'.length), code]),
) as { readonly [C in ErrorCode as ShortName<C>]: C };
