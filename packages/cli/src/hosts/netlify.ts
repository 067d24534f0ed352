import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Header } from '@netlify/headers-parser';
import { WarningCode, warn as diagnostic } from '../errors.js';
import type { Diagnostic } from '../discover/types.js';
import { cloudflareProblems, cloudflareWarning } from './cloudflare-headers.js';
import { cloudflareRuleRegExp } from './cloudflare-rules.js';
import { isHeadersPattern, linkPatternWarning, type HeadersHost } from './header-patterns.js';
import { netlifyHeaders, userPart } from './header-rules.js';
import type { Host, HostBuild, HostOutput, HostRoutes, SiteRule } from './host.js';
import { netlifyRedirects } from './netlify-redirects.js';

/**
 * Netlify: `_headers`, `_redirects` and the site's `netlify.toml`, read with Netlify's own parsers. Cloudflare
 * Pages reads the same `_headers` and `_redirects`: they are read here once, with Cloudflare's matching where
 * the build targets Cloudflare alone. `_headers` is written on every build, since both hosts read it.
 */
export const netlify = {
  name: 'netlify' as const,
  async read(site) {
    const toml = await netlifyToml(site.root, site.dirs);
    // `_headers` is read by Netlify and Cloudflare Pages, which match its paths differently: a netlify.toml or
    // `--target netlify` names Netlify, `--target cloudflare` alone Cloudflare; unknown, Netlify's parser decides.
    const cloudflare = toml === undefined && !site.targets.includes('netlify') && site.targets.includes('cloudflare');
    const named = toml !== undefined || site.targets.includes('netlify');
    const flavour = cloudflare ? 'cloudflare' : named ? 'netlify' : undefined;
    const headers = await netlifyRules(site.root, toml, site.diagnostics, flavour);
    const routes: HostRoutes = { routes: [], skipped: [] };
    const redirects = await netlifyRedirects(site.root, toml, site.diagnostics, routes);
    return [{ headers, redirects, routes, ...(toml !== undefined ? { names: 'netlify' } : {}) }];
  },
  output: { file: '_headers', always: true, make: netlifyOutput },
} satisfies Host;

/** The default `_headers`, which may be Netlify's or Cloudflare's unless a netlify.toml or `--target netlify` says. */
function netlifyOutput({
  headers: { own, pages, truncated },
  existingHeaders,
  targets,
  netlify,
}: HostBuild): HostOutput {
  const hosts: HeadersHost[] = netlify ? ['netlify'] : ['netlify', 'cloudflare'];
  const patterns = new Set(pages.filter((r) => isHeadersPattern(r.path, hosts)));
  const text = netlifyHeaders([...own, ...pages.filter((r) => !patterns.has(r))], existingHeaders);
  const left = [...patterns].map((r) => r.path);
  const pattern = linkPatternWarning(left, netlify ? 'Netlify' : 'Netlify or Cloudflare Pages', targets);
  const warnings: HostOutput['warnings'] = pattern ? [pattern] : [];
  // A host named by --target (Vercel, Firebase, nginx, Netlify) or a netlify.toml says where the site goes:
  // Cloudflare's limits are not its host's, and a warning on every build would only be noise.
  if (!netlify && targets.length === 0) for (const p of cloudflareProblems(text)) warnings.push(cloudflareWarning(p));
  return { file: '_headers', text, truncated, warnings };
}

/**
 * The `netlify.toml` that configures the site: its own, else the project's (`dirs`, see hostConfigDirs)
 * unless that one's `build.publish` names another directory. Netlify reads it from the base directory,
 * usually the repository root, above the published `dist/`.
 */
export async function netlifyToml(root: string, dirs: readonly string[]): Promise<string | undefined> {
  for (const dir of dirs) {
    const file = path.join(dir, 'netlify.toml');
    if (!existsSync(file)) continue;
    if (dir === root) return file;
    let build: { base?: unknown; publish?: unknown } | undefined;
    try {
      const { parse } = await import('smol-toml');
      build = (parse(await readFile(file, 'utf8')) as { build?: typeof build }).build;
    } catch {
      // Netlify's parsers report a malformed file; here it is taken as the site's.
    }
    const base = typeof build?.base === 'string' ? build.base : '';
    if (typeof build?.publish === 'string' && path.resolve(dir, base, build.publish) !== path.resolve(root)) continue;
    return file;
  }
  return undefined;
}

/** `_headers` in `root` and `[[headers]]` of the site's `netlify.toml` (`toml`), with Netlify's parser. */
async function netlifyRules(
  root: string,
  toml: string | undefined,
  diagnostics: Diagnostic[],
  host: HeadersHost | undefined,
): Promise<SiteRule[]> {
  let text: string;
  try {
    text = await readFile(path.join(root, '_headers'), 'utf8');
  } catch {
    text = '';
  }
  // objpack's own block (Link preloads, cache lifetimes) carries nothing a page's response needs, and on a
  // 10,000-page site it is 10,000 rules: only the user's lines are parsed.
  const user = userPart(text);
  if (!toml && !user.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'))) return [];
  let rules: Header[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'objpack-headers-'));
  const warn = (problem: string, unread = false): Diagnostic =>
    diagnostic(WarningCode.HOST_HEADERS, { problem, unread }, { file: '_headers' });
  try {
    const headersFile = path.join(dir, '_headers');
    await writeFile(headersFile, user);
    const { parseAllHeaders } = await import('@netlify/headers-parser');
    const parsed = await parseAllHeaders({
      headersFiles: [headersFile],
      netlifyConfigPath: toml,
      configHeaders: [],
      minimal: false,
    });
    rules = parsed.headers.filter((h): h is Header => 'forRegExp' in h);
    for (const e of parsed.errors) diagnostics.push(warn(e.message.split('\n')[0]!));
  } catch (err) {
    diagnostics.push(warn((err as Error).message, true));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (host === 'netlify') rules = rules.filter((r) => !neverSent(r.for, diagnostics));
  return rules.map((r) => {
    const re = host === 'cloudflare' ? cloudflareRuleRegExp(r.for) : r.forRegExp;
    return { for: r.for, re, test: (u) => re.test(u), values: Object.entries(r.values) };
  });
}

/**
 * Whether a Netlify rule path holds a character every browser percent-encodes in a request path (non-ASCII,
 * space, `"` `<` `>` `` ` `` `{` `}`: the URL standard's path percent-encode set): Netlify tests its rules on
 * the path as requested (netlify-cli headersForPath on the request URL's pathname, with the parser's RegExp
 * of the path as written; its docs: special characters in paths must be URL-encoded), so such a rule never
 * applies there. Warned about, with the spelling that does.
 */
function neverSent(rulePath: string, diagnostics: Diagnostic[]): boolean {
  if (!/[^\x21-\x7e]|["<>`{}]/.test(rulePath)) return false;
  let encoded = rulePath;
  try {
    encoded = new URL(`//${rulePath}`, 'relative://').pathname;
  } catch {
    // Named as written.
  }
  const problem =
    `the rule for ${rulePath} never applies on Netlify, which compares the path as the browser ` +
    `requests it (percent-encoded); write it as ${encoded}`;
  diagnostics.push(diagnostic(WarningCode.HOST_HEADERS, { problem }, { file: '_headers' }));
  return true;
}
