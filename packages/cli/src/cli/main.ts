import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { createLogger, type LoggerOptions } from './logger.js';
import { reportError } from './errors-out.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const EXIT_CODES = `
Exit codes:
  0  success
  1  build errors (see the messages; each names a file and line)
  2  usage error (bad flag, missing or wrong directory, bad config)
  3  corrupt input (a package that fails its checks)`;

const TARGETS = ['vercel', 'firebase', 'nginx', 'netlify', 'cloudflare'];

// One value per flag, repeated for more: a variadic flag (`--exclude <path...>`) would take the site directory
// after it as one more value (`objpack build --exclude drafts dist/`: "missing required argument 'dir'").
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function collectTargets(value: string, previous: string[] | undefined): string[] {
  const hosts = value
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  const wrong = hosts.find((h) => !TARGETS.includes(h));
  if (wrong !== undefined || hosts.length === 0)
    throw new InvalidArgumentError(`Allowed choices are ${TARGETS.join(', ')}.`);
  return [...(previous ?? []), ...hosts];
}

/**
 * The `objpack` command line: turns flags into options for the exported functions and their results into
 * output and an exit code. Commands load lazily so `objpack --help` stays instant.
 */
export async function main(argv: readonly string[], io: LoggerOptions = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  let exitCode = 0;
  const program = new Command('objpack')
    .description(
      'Make static sites load in one round trip per page: object packages, push manifests, a service worker.',
    )
    .version(VERSION, '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => void stdout.write(s), writeErr: (s) => void stderr.write(s) })
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      `
Examples:
  $ objpack build dist/                    package the site in place
  $ objpack build dist/ --out deploy/      write a packaged copy
  $ objpack closure dist/ /guide/          what /guide/ needs, in package order
  $ objpack inspect dist/_objpack/pages/index.html.objp
  $ objpack serve dist/ --watch
${EXIT_CODES}`,
    );

  program
    .command('build')
    .description(
      "crawl a built site, compute every page's closure and write packages, manifests, headers and the worker",
    )
    .argument('<dir>', 'the built site (dist/, _site/, public/…)')
    .option('-o, --out <dir>', 'write a full copy with the packages here instead of into <dir>')
    .option('--origin <url>', "the site's public origin; absolute URLs on it count as local")
    .option(
      '--base <path>',
      'the URL path the site is served under (/repo/ for a GitHub Pages project site; ' +
        'default: the path of --origin, else the one the pages are built for, else /)',
    )
    .option(
      '--trace [pages]',
      'also load pages in headless Chromium (all, or a sample of [pages]) and add what they request',
    )
    .addOption(
      new Option(
        '--target <host>',
        'also write host headers for: vercel, firebase, nginx, netlify, cloudflare; repeat it or separate ' +
          'with commas (_headers, for Netlify and Cloudflare Pages, is always written; cloudflare keeps it ' +
          "within Cloudflare's 100 rules and 2,000-character lines)",
      ).argParser(collectTargets),
    )
    .option(
      '--exclude <path>',
      'a site-relative path or directory to leave out (drafts/ or /drafts/); repeat it for more',
      collect,
    )
    .option('--no-inject', 'do not add the worker registration <script> to pages')
    .option('--no-sw', 'do not write the service worker (implies --no-inject)')
    .option('--unregister', 'write the self-unregistering worker, to take objpack off a site')
    .option('--partial-threshold <bytes>', 'audio/video above this size is packaged as a prefix (default 262144)')
    .option(
      '--clean-urls',
      'the host serves /about.html at /about too: the worker answers /about with that page (default: from ' +
        'vercel.json/firebase.json cleanUrls)',
    )
    .option('--no-clean-urls', 'the worker answers a page at its own URL only')
    .option(
      '--bare-dir-urls',
      'the host serves /guide/index.html at /guide too, without redirecting: the worker answers /guide with ' +
        'that page (default: from vercel.json/firebase.json)',
    )
    .option('--no-bare-dir-urls', "the worker answers a directory's page at /guide/ only")
    .option(
      '--report-file <file>',
      'where the build report goes (default .objpack/report.html in the working ' +
        'directory; a file in the output publishes it)',
    )
    .option('--no-report', 'do not write the build report')
    .option('--no-cache', 'ignore the incremental-build cache')
    .option(
      '-c, --config <file>',
      'config file (default: objpack.config.{js,mjs,ts,mts,json} in the working ' + 'directory)',
    )
    .option('--json', 'print a machine-readable summary on stdout')
    .option('-q, --quiet', 'print errors and the summary line only')
    .addHelpText(
      'after',
      `
Examples:
  $ objpack build dist/
  $ objpack build dist/ --out deploy/ --origin https://example.com
  $ objpack build dist/ --base /repo/      the site is served under /repo/ (GitHub Pages project site)
  $ objpack build dist/ --target vercel --target nginx   (or --target vercel,nginx)
  $ objpack build dist/ --exclude drafts/ --exclude old/
  $ objpack build dist/ --target cloudflare  _headers for Cloudflare Pages: your rules, objpack's, then Link rules ` +
        `for the top pages that fit
  $ objpack build dist/ --json > objpack-summary.json
  $ objpack build dist/ --report-file dist/objpack-report.html   publish the report with the site
  $ objpack build dist/ --trace 20         trace a sample of 20 pages in Chromium
  $ objpack build dist/ --clean-urls       pages link to /about for about.html (Netlify, Cloudflare Pages…)
  $ objpack build dist/ --bare-dir-urls    pages link to /guide for guide/index.html and the host serves it there ` +
        `(Vercel, Render…)
${EXIT_CODES}`,
    )
    .action(async (dir: string, opts: Record<string, unknown>, cmd: Command) => {
      const { runBuild } = await import('./commands/build-command.js');
      exitCode = await runBuild(
        dir,
        opts,
        cmd,
        createLogger({ ...io, quiet: opts.quiet === true || opts.json === true }),
      );
    });

  program
    .command('closure')
    .description("print a page's closure in package order, one URL path per line")
    .argument('<dir>', 'the built site')
    .argument('<page>', 'the page as a URL path (/guide/) or a file (guide/index.html)')
    .option('--origin <url>', "the site's public origin")
    .option('--json', 'print the closure items as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ objpack closure dist/ /
  $ objpack closure dist/ guide/index.html --json
${EXIT_CODES}`,
    )
    .action(async (dir: string, page: string, opts: Record<string, unknown>) => {
      const { runClosure } = await import('./commands/closure-command.js');
      exitCode = await runClosure(dir, page, opts, createLogger(io));
    });

  program
    .command('inspect')
    .description("show a package's index and sizes, verifying every object's digest")
    .argument('<file>', 'a .objp package')
    .option('--json', 'print the index as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ objpack inspect dist/_objpack/pages/index.html.objp
  $ objpack inspect dist/_objpack/shared/0123456789abcdef.objp --json
A corrupt or truncated package exits with code 3.
${EXIT_CODES}`,
    )
    .action(async (file: string, opts: Record<string, unknown>) => {
      const { runInspect } = await import('./commands/inspect-command.js');
      exitCode = await runInspect(file, opts, createLogger(io));
    });

  program
    .command('unpack')
    .description("extract a package's objects into a directory (nothing is written outside it)")
    .argument('<file>', 'a .objp package')
    .argument('<dir>', 'target directory (created if missing)')
    .option('--force', 'overwrite files already in <dir> (without it, an existing file is refused with exit 2)')
    .addHelpText(
      'after',
      `
Examples:
  $ objpack unpack dist/_objpack/pages/index.html.objp /tmp/home
  $ objpack unpack dist/_objpack/pages/index.html.objp /tmp/home --force
${EXIT_CODES}`,
    )
    .action(async (file: string, dir: string, opts: { force?: boolean }) => {
      const { runUnpack } = await import('./commands/unpack-command.js');
      exitCode = await runUnpack(file, dir, opts, createLogger(io));
    });

  program
    .command('serve')
    .description('serve a built site: packages, 103 Early Hints, prefetch, closure-aware keep-alive')
    .argument('[dir]', 'the site directory', '.')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('-p, --port <port>', 'TCP port (0 picks a free one)', '8080')
    .option('--https', 'serve over TLS (self-signed for localhost unless --cert/--key)')
    .option('--cert <file>', 'PEM certificate (implies --https)')
    .option('--key <file>', 'PEM private key (implies --https)')
    .option('--no-http2', 'HTTP/1.1 only over TLS')
    .option('--no-early-hints', 'do not send 103 Early Hints')
    .option('--no-packages', 'do not answer package requests for pages')
    .option('--prefetch <bytes>', 'disk-to-memory prefetch budget in bytes')
    .option('--no-prefetch', 'switch disk-to-memory prefetch off')
    .option('--hold-ms <ms>', 'idle keep-alive time of a connection')
    .option('--closure-hold-ms <ms>', "keep-alive time once a page's whole closure was sent")
    .option(
      '--closure-hold-from <n>',
      'open connections from which --closure-hold-ms applies (default: half of --max-connections; 0: always)',
    )
    .option(
      '--max-connections <n>',
      'most open connections; over it an idle one is closed, else the request gets 503 ' +
        '(default: a third of the open-file limit, `ulimit -n`, less a reserve, so files always find a descriptor)',
    )
    .option('--no-dynamic', 'never assemble packages on the fly for changed pages')
    .option('--shutdown-timeout <ms>', 'on SIGINT/SIGTERM, wait this long for in-flight responses', '5000')
    .option(
      '--base <path>',
      'serve the site under this URL path (/repo/; default: the base its build recorded, ' + 'else /)',
    )
    .option('-w, --watch', 'rebuild incrementally on changes and reload the server')
    .option('-q, --quiet', 'print errors only')
    .addHelpText(
      'after',
      `
Examples:
  $ objpack serve dist/
  $ objpack serve dist/ --port 3000 --watch
  $ objpack serve dist/ --https --host 0.0.0.0
  $ objpack serve dist/ --max-connections 2000   # a cap of your own (raise \`ulimit -n\` to go higher)
  $ objpack serve dist/ --base /repo/      http://127.0.0.1:8080/repo/, nothing above it (as GitHub Pages)
${EXIT_CODES}`,
    )
    .action(async (dir: string, opts: Record<string, unknown>) => {
      const { runServe } = await import('./commands/serve-command.js');
      exitCode = await runServe(dir, opts, createLogger({ ...io, quiet: opts.quiet === true }));
    });

  try {
    await program.parseAsync(argv as string[]);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    return reportError(err, createLogger(io));
  }
  return exitCode;
}
