import { spec } from './warning-spec.js';

/** What `at` names in every discovery warning: the file, with `:line` when the problem has one. */
type At = { at: string };
type Ref = At & { ref: string };

/** Warnings of discovery: the site's files and the references between them. Keyed by their public code. */
export const DISCOVER_WARNINGS = {
  OBJPACK_W_MISSING_REF: spec<At & { what: string }>({
    message: (p) => `${p.at}: ${p.what} does not exist in the site`,
    hint: 'fix the reference or add the file; the page ships without it, as the browser would load it',
  }),
  OBJPACK_W_REF_ESCAPES_ROOT: spec<Ref>({
    message: (p) => `${p.at}: "${p.ref}" points outside the site root; not read`,
    hint: 'reference a file inside the site directory; objpack never reads outside it',
  }),
  OBJPACK_W_SYMLINK_ESCAPES_ROOT: spec<{ link: string }>({
    message: (p) => `Symlink ${p.link} points outside the site root; not followed`,
    hint: 'copy the target into the site if it belongs to it; a symlink leaving the site is never read',
  }),
  OBJPACK_W_SYMLINK_LOOP: spec<{ link: string; target: string }>({
    message: (p) => `Symlink ${p.link} points to ${p.target}, a directory that contains it; not followed`,
    hint: 'remove the symlink, or point it at a directory that does not contain it',
  }),
  OBJPACK_W_IMPORT_CYCLE: spec<At & { chain: string }>({
    message: (p) => `${p.at}: @import cycle ${p.chain}; the browser ignores the import that closes it`,
    hint: 'remove the @import that closes the cycle; it has no effect in a browser either',
  }),
  OBJPACK_W_INVALID_URL: spec<Ref & { reason: string }>({
    message: (p) => `${p.at}: "${p.ref}" is not a valid URL (${p.reason})`,
    hint: 'fix the reference (percent-encoding, host, srcset syntax); a browser cannot load it either',
  }),
  OBJPACK_W_DOTFILE_REF: spec<Ref>({
    message: (p) => `${p.at}: "${p.ref}" is a dotfile; dotfiles are never packaged`,
    hint: 'rename the file without the leading dot if the page needs it; dotfiles may hold secrets',
  }),
  OBJPACK_W_MALFORMED_HTML: spec<At & { errors: number; first: string }>({
    message: (p) => `${p.at}: ${p.errors} HTML parse error(s), first: ${p.first}; read as a browser would`,
    hint: 'fix the markup if the page looks wrong; objpack sees the document exactly as a browser builds it',
  }),
  OBJPACK_W_MALFORMED_CSS: spec<At & { errors: number; first: string }>({
    message: (p) => `${p.at}: ${p.errors} CSS parse error(s), first: ${p.first}; the rest of the sheet was used`,
    hint: 'fix the stylesheet; references inside the broken rule may be missing from the packages',
  }),
  OBJPACK_W_MALFORMED_JS: spec<At & { error: string }>({
    message: (p) => `${p.at}: cannot parse module (${p.error}); its imports are unknown`,
    hint: 'fix the module, or check it is JavaScript and not a source file; its imports are not packaged',
  }),
  OBJPACK_W_FILE_VANISHED: spec<{ path: string }>({
    message: (p) => `${p.path} disappeared during the build; left out`,
    hint: 'run the build again once the site generator has finished writing',
  }),
  OBJPACK_W_UNREADABLE: spec<{ path: string; reason: string }>({
    message: (p) => `Cannot read ${p.path} (${p.reason}); left out`,
    hint: 'check the permissions of the file or directory',
  }),
  OBJPACK_W_NON_UTF8_NAME: spec<{ dir: string; name: string }>({
    message: (p) => `Skipped a name that is not valid UTF-8 in ${p.dir}: ${p.name}`,
    hint: 'rename the file in UTF-8: a name that is not has no URL',
  }),
  OBJPACK_W_NOT_A_FILE: spec<{ path: string }>({
    message: (p) => `Skipped ${p.path}: not a regular file`,
    hint: 'FIFOs, sockets and devices are never served; remove it from the site directory',
  }),
  OBJPACK_W_BARE_SPECIFIER: spec<At & { spec: string }>({
    message: (p) => `${p.at}: bare import "${p.spec}" has no import map entry; a browser cannot load it`,
    hint: 'bundle the module, or add the specifier to the page\'s <script type="importmap">',
  }),
  OBJPACK_W_NO_PAGES: spec<{ root: string }>({
    message: (p) => `No HTML pages in ${p.root}: is this the built site's directory?`,
    hint: 'point the build at the directory your site generator writes (dist/, _site/, public/…)',
  }),
  OBJPACK_W_BASE_DETECTED: spec<{ base: string }>({
    severity: 'info',
    message: (p) =>
      `the pages are built for the base path ${p.base} (their own references all lie under it): everything ` +
      `objpack writes goes under ${p.base} too; give --base ${p.base} to say so, or --base / if the site is ` +
      'served at the root',
    hint: 'give --base to say where the site is served; --base / keeps it at the root',
  }),
} as const;
