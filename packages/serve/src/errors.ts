/**
 * Every error @objpack/serve raises or reports, with a stable code. Tests check codes, never message text.
 * Codes are public API: never renumber, only add.
 */
export const ServeErrorCode = {
  BAD_ROOT: 'SERVE_BAD_ROOT',
  BAD_OPTION: 'SERVE_BAD_OPTION',
  BAD_MANIFEST: 'SERVE_BAD_MANIFEST',
  TLS: 'SERVE_TLS',
  LISTEN: 'SERVE_LISTEN',
  READ: 'SERVE_READ',
  EMFILE: 'SERVE_EMFILE',
  DYNAMIC: 'SERVE_DYNAMIC',
  SKIPPED: 'SERVE_SKIPPED',
  SOCKET: 'SERVE_SOCKET',
} as const;

export type ServeErrorCode = (typeof ServeErrorCode)[keyof typeof ServeErrorCode];

/** Every code with what went wrong and what to do; the README's codes reference is generated from it. */
export const ERROR_CATALOG: Record<ServeErrorCode, { what: string; hint: string }> = {
  SERVE_BAD_ROOT: {
    what: 'The site root does not exist or is not a directory.',
    hint: 'pass the directory your build wrote (e.g. dist/)',
  },
  SERVE_BAD_OPTION: {
    what: 'An option has an invalid value (port out of range, negative byte budget…).',
    hint: "fix the option the message names; the ServeOptions type documents each one's range",
  },
  SERVE_BAD_MANIFEST: {
    what: 'objpack-manifest.json is unreadable or malformed; packages and hints are off until the next reload.',
    hint: 're-run `objpack build`; the server keeps serving plain files meanwhile',
  },
  SERVE_TLS: {
    what: 'The certificate or key could not be read or generated.',
    hint: 'check --cert/--key point at PEM files, or use --https alone for a self-signed certificate',
  },
  SERVE_LISTEN: {
    what: 'The port is taken or not permitted.',
    hint: 'pick another --port, or 0 for a free one',
  },
  SERVE_READ: {
    what: 'A file vanished or failed to read while being served (reported, answered with 404/500).',
    hint: "call reload() or use --watch after changing the site; check the file's permissions if it keeps failing",
  },
  SERVE_EMFILE: {
    what: 'Out of file descriptors (EMFILE/ENFILE): the request was answered with 503.',
    hint: 'raise the file-descriptor limit (ulimit -n) or lower --max-connections',
  },
  SERVE_DYNAMIC: {
    what: 'A dynamic or delta package could not be assembled (reported, answered with 500).',
    hint: 'nothing breaks: the plain page still works; rebuild with objpack build if it persists',
  },
  SERVE_SKIPPED: {
    what: 'A file or manifest path was skipped: symlink leaving the root, unsafe name, unreadable entry.',
    hint: 'nothing to do: a safety rule keeps the path out; move the file inside the site if it is to be served',
  },
  SERVE_SOCKET: {
    what: 'A socket or server-level error (accept failure, client reset) that was contained.',
    hint: 'nothing to do when rare (a client reset); when frequent, check the limits: ulimit -n, memory',
  },
};

/** Every code with what went wrong and what to do, for the README's codes reference (scripts/diagnostics-docs.mjs). */
export const codesReference = (): Array<{ code: string; level: 'error'; meaning: string; hint: string }> =>
  (Object.keys(ERROR_CATALOG) as ServeErrorCode[]).map((code) => ({
    code,
    level: 'error',
    meaning: ERROR_CATALOG[code].what,
    hint: ERROR_CATALOG[code].hint,
  }));

/** An error from @objpack/serve. `code` is stable; `hint` says what to do about it. */
export class ServeError extends Error {
  override readonly name = 'ServeError';
  readonly code: ServeErrorCode;
  readonly hint: string;
  /** Where the code is documented: its anchor in the package README's codes reference. */
  readonly docs: string;
  /** File or URL path the error is about, when there is one. */
  readonly path: string | undefined;

  constructor(code: ServeErrorCode, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.hint = ERROR_CATALOG[code].hint;
    this.docs = `packages/serve/README.md#${code.toLowerCase()}`;
    this.path = options.path;
  }
}

/** Type guard usable across realms and package copies (checks the code prefix, not the class). */
export const isServeError = (err: unknown): err is ServeError =>
  err instanceof Error &&
  typeof (err as { code?: unknown }).code === 'string' &&
  (err as unknown as { code: string }).code.startsWith('SERVE_');
