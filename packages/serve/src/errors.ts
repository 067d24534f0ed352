/**
 * Every error @objpack/serve raises or reports, with a stable code. Tests check codes, never message text.
 * Codes are public API: never renumber, only add.
 */
export const ServeErrorCode = {
  /** The site root does not exist or is not a directory. */
  BAD_ROOT: 'SERVE_BAD_ROOT',
  /** An option has an invalid value (port out of range, negative byte budget…). */
  BAD_OPTION: 'SERVE_BAD_OPTION',
  /** objpack-manifest.json is unreadable or malformed; packages and hints are off until the next reload. */
  BAD_MANIFEST: 'SERVE_BAD_MANIFEST',
  /** The certificate or key could not be read or generated. */
  TLS: 'SERVE_TLS',
  /** The port is taken or not permitted. */
  LISTEN: 'SERVE_LISTEN',
  /** A file vanished or failed to read while being served (reported, answered with 404/500). */
  READ: 'SERVE_READ',
  /** Out of file descriptors (EMFILE/ENFILE): the request was answered with 503. */
  EMFILE: 'SERVE_EMFILE',
  /** A dynamic or delta package could not be assembled (reported, answered with 500). */
  DYNAMIC: 'SERVE_DYNAMIC',
  /** A file or manifest path was skipped: symlink leaving the root, unsafe name, unreadable entry. */
  SKIPPED: 'SERVE_SKIPPED',
  /** A socket or server-level error (accept failure, client reset) that was contained. */
  SOCKET: 'SERVE_SOCKET',
} as const;

export type ServeErrorCode = (typeof ServeErrorCode)[keyof typeof ServeErrorCode];

const HINTS: Record<ServeErrorCode, string> = {
  SERVE_BAD_ROOT: 'pass the directory your build wrote (e.g. dist/)',
  SERVE_BAD_OPTION: 'see the ServeOptions documentation',
  SERVE_BAD_MANIFEST: 're-run `objpack build`; the server keeps serving plain files meanwhile',
  SERVE_TLS: 'check --cert/--key point at PEM files, or use --https alone for a self-signed certificate',
  SERVE_LISTEN: 'pick another --port, or 0 for a free one',
  SERVE_READ: 'the site changed under the server; call reload() (or use --watch)',
  SERVE_EMFILE: 'raise the file-descriptor limit (ulimit -n) or lower --max-connections',
  SERVE_DYNAMIC: "the page's files could not be packaged; the plain page still works",
  SERVE_SKIPPED: 'the path is not served; this is a safety rule, not a failure',
  SERVE_SOCKET: 'a client misbehaved or the system is short of resources',
};

/** An error from @objpack/serve. `code` is stable; `hint` says what to do about it. */
export class ServeError extends Error {
  override readonly name = 'ServeError';
  readonly code: ServeErrorCode;
  readonly hint: string;
  /** File or URL path the error is about, when there is one. */
  readonly path: string | undefined;

  constructor(code: ServeErrorCode, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.hint = HINTS[code];
    this.path = options.path;
  }
}

/** Type guard usable across realms and package copies (checks the code prefix, not the class). */
export const isServeError = (err: unknown): err is ServeError =>
  err instanceof Error &&
  typeof (err as { code?: unknown }).code === 'string' &&
  (err as unknown as { code: string }).code.startsWith('SERVE_');
