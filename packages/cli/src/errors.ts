/**
 * Every error and build warning of the `objpack` package, with stable codes (tests check codes, never
 * message text). Codes are public API: never renumber, only add. Exit codes are part of the CLI contract:
 * 0 ok, 1 build errors, 2 usage, 3 corrupt input.
 */
export const ErrorCode = {
  USAGE: 'OBJPACK_E_USAGE',
  CONFIG: 'OBJPACK_E_CONFIG',
  INPUT_NOT_FOUND: 'OBJPACK_E_INPUT_NOT_FOUND',
  INPUT_NOT_DIRECTORY: 'OBJPACK_E_INPUT_NOT_DIRECTORY',
  NO_PAGES: 'OBJPACK_E_NO_PAGES',
  OUT_CONTAINS_INPUT: 'OBJPACK_E_OUT_CONTAINS_INPUT',
  PAGE_NOT_FOUND: 'OBJPACK_E_PAGE_NOT_FOUND',
  SW_ASSETS_MISSING: 'OBJPACK_E_SW_ASSETS_MISSING',
  SOURCE_CHANGED: 'OBJPACK_E_SOURCE_CHANGED',
  WRITE: 'OBJPACK_E_WRITE',
  BUILD_ERRORS: 'OBJPACK_E_BUILD_ERRORS',
  CORRUPT_PACKAGE: 'OBJPACK_E_CORRUPT_PACKAGE',
  UNSAFE_PATH: 'OBJPACK_E_UNSAFE_PATH',
  SERVE: 'OBJPACK_E_SERVE',
  ABORTED: 'OBJPACK_E_ABORTED',
  /** `unpack` would overwrite a file already in the target directory (without `--force`). */
  TARGET_EXISTS: 'OBJPACK_E_TARGET_EXISTS',
  /** `--base` (or `base`) is not a URL path, or disagrees with the path of `--origin`. */
  BAD_BASE: 'OBJPACK_E_BAD_BASE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Warnings the build itself adds to the discovery diagnostics. */
export const WarningCode = {
  LINK_HEADER_TRUNCATED: 'OBJPACK_W_LINK_HEADER_TRUNCATED',
  TRACE_MISSED: 'OBJPACK_W_TRACE_MISSED',
  TRACE_UNAVAILABLE: 'OBJPACK_W_TRACE_UNAVAILABLE',
  OBJECT_VANISHED: 'OBJPACK_W_OBJECT_VANISHED',
  HOST_CONFIG_LIMIT: 'OBJPACK_W_HOST_CONFIG_LIMIT',
  /**
   * `_headers` passes Cloudflare Pages' limits (100 rules, 2,000-character lines) on a site that may be
   * deployed there (no netlify.toml), or the user's own rules leave objpack's no room under `--target cloudflare`.
   */
  CLOUDFLARE_HEADERS_LIMIT: 'OBJPACK_W_CLOUDFLARE_HEADERS_LIMIT',
  /**
   * Pages left without a `Link` rule in `_headers`: their paths hold `*` or `:name`, which Netlify or Cloudflare
   * Pages read as a pattern matching other URLs too (header-patterns.ts).
   */
  LINK_RULE_PATTERN: 'OBJPACK_W_LINK_RULE_PATTERN',
  /** A host config objpack would add its rules to is left untouched (unreadable, or no site of this directory). */
  HOST_CONFIG_KEPT: 'OBJPACK_W_HOST_CONFIG_KEPT',
  /** `--target vercel|firebase` wrote a config into the site while the project's own (the one deployed) is elsewhere. */
  HOST_CONFIG_ELSEWHERE: 'OBJPACK_W_HOST_CONFIG_ELSEWHERE',
  HOST_HEADERS: 'OBJPACK_W_HOST_HEADERS',
  /** A project host config that may belong to another site was not applied (vercel.json naming no outputDirectory). */
  HOST_CONFIG_SKIPPED: 'OBJPACK_W_HOST_CONFIG_SKIPPED',
  /** A host redirect rule could not be read. */
  HOST_REDIRECTS: 'OBJPACK_W_HOST_REDIRECTS',
  /** Host redirects or rewrites `objpack serve` cannot apply (functions, proxies, visitor conditions): left to the host. */
  HOST_ROUTES_SKIPPED: 'OBJPACK_W_HOST_ROUTES_SKIPPED',
  /** Pages whose URL the host redirects (or rewrites) before serving files: the worker leaves them to the host. */
  PAGES_REDIRECTED: 'OBJPACK_W_PAGES_REDIRECTED',
  /** A host rule applied before the files takes one of objpack's own URLs (the worker, its route table, packages). */
  HOST_ROUTE_SHADOWS_OWN: 'OBJPACK_W_HOST_ROUTE_SHADOWS_OWN',
  /** Pages link to `/about` for about.html and the build does not know whether the host serves clean URLs. */
  CLEAN_URL_LINKS: 'OBJPACK_W_CLEAN_URL_LINKS',
  /** Pages link to `/guide` for guide/index.html and the build does not know whether the host serves it there. */
  BARE_DIR_LINKS: 'OBJPACK_W_BARE_DIR_LINKS',
  /** `--no-sw`, and pages still load the registration script (an earlier build's injection or the user's tag). */
  REGISTER_WITHOUT_SW: 'OBJPACK_W_REGISTER_WITHOUT_SW',
} as const;
export type WarningCode = (typeof WarningCode)[keyof typeof WarningCode];

/** Process exit codes the CLI promises (see README "Exit codes"). */
export const ExitCode = { OK: 0, BUILD_ERRORS: 1, USAGE: 2, CORRUPT_INPUT: 3 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

const CATALOG: Record<ErrorCode, { hint: string; exit: ExitCode }> = {
  OBJPACK_E_USAGE: { hint: 'run the command with --help for its options and examples', exit: 2 },
  OBJPACK_E_CONFIG: {
    hint: "fix objpack.config.* or the integration's options; options are listed in the README",
    exit: 2,
  },
  OBJPACK_E_INPUT_NOT_FOUND: {
    hint: 'check the path: build and serve take the directory your site generator writes (dist/, _site/, public/…), inspect and unpack a .objp file',
    exit: 2,
  },
  OBJPACK_E_INPUT_NOT_DIRECTORY: { hint: 'build and serve take the site directory, not a file', exit: 2 },
  OBJPACK_E_NO_PAGES: { hint: 'the directory holds no .html page; did the site build run first?', exit: 1 },
  OBJPACK_E_OUT_CONTAINS_INPUT: { hint: '--out must not be a parent of the site directory', exit: 2 },
  OBJPACK_E_PAGE_NOT_FOUND: { hint: 'give the page as a URL path (/guide/) or a file (guide/index.html)', exit: 2 },
  OBJPACK_E_SW_ASSETS_MISSING: { hint: 'build @objpack/client-sw first (pnpm run build), or pass --no-sw', exit: 1 },
  OBJPACK_E_SOURCE_CHANGED: {
    hint: 'a site file changed while objpack read it; run the build again when the site generator is done',
    exit: 1,
  },
  OBJPACK_E_WRITE: { hint: 'check free disk space and permissions of the output directory', exit: 1 },
  OBJPACK_E_BUILD_ERRORS: { hint: 'see the errors above, each with file and line', exit: 1 },
  OBJPACK_E_CORRUPT_PACKAGE: { hint: 'the file is not a complete objpack package; rebuild it', exit: 3 },
  OBJPACK_E_UNSAFE_PATH: {
    hint: 'the package names a path outside the target directory; it was not extracted',
    exit: 3,
  },
  OBJPACK_E_SERVE: { hint: 'check the port, certificate and key options', exit: 1 },
  OBJPACK_E_ABORTED: { hint: 'the build was cancelled; the previous output is intact', exit: 1 },
  OBJPACK_E_TARGET_EXISTS: { hint: 'pass --force to overwrite the files, or extract into an empty directory', exit: 2 },
  OBJPACK_E_BAD_BASE: {
    hint:
      'give the URL path the site is served under, with a leading slash (--base /repo/); ' +
      'a path in --origin must be the same one',
    exit: 2,
  },
};

/** The one error class of `objpack`. `code` is stable; `file` names the input when there is one. */
export class ObjpackError extends Error {
  override readonly name = 'ObjpackError';
  readonly hint: string;
  readonly exitCode: ExitCode;
  constructor(
    readonly code: ErrorCode,
    detail: string,
    readonly file?: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${detail}`, options);
    this.hint = CATALOG[code].hint;
    this.exitCode = CATALOG[code].exit;
  }
}

export const isObjpackError = (e: unknown): e is ObjpackError => e instanceof ObjpackError;

/** Discovery's warning and error codes belong to the same catalog. */
export { DiscoverCodes } from './discover/diagnostic-codes.js';
