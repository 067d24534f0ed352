import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Header } from '@netlify/headers-parser';
import { isCarriedHeader, isHeaderName, isHeaderValue, type HostHeaderRule } from '@objpack/format';
import { userPart } from './host-config.js';
import { WarningCode } from '../errors.js';
import type { Diagnostic } from '../discover/types.js';

/** One response header of a page, name in lower case. */
export type PageHeader = [name: string, value: string];

/** The headers the site's host config gives each page, for pages served from packages. */
export interface SiteHeaders {
  /** Headers for the page at URL path `url`, in a stable order; empty when none apply. */
  forPage(url: string): PageHeader[];
  /** The rules themselves, for the manifest (`objpack serve` applies them to every file). */
  rules: HostHeaderRule[];
  diagnostics: Diagnostic[];
}

/**
 * Reads the site's `_headers` (Netlify, Cloudflare Pages) and `netlify.toml` `[[headers]]` with Netlify's own
 * parser. A page the worker answers from a package must carry the same security headers the host would
 * have sent (Content-Security-Policy, Cross-Origin-Opener/Embedder-Policy, X-Frame-Options…): a page
 * without its CSP, or a cross-origin-isolated app that loses isolation, would be worse off with objpack.
 * Matching rules combine as Netlify's dev server combines them: a later rule's value wins.
 */
export async function loadSiteHeaders(root: string): Promise<SiteHeaders> {
  const diagnostics: Diagnostic[] = [];
  const none: SiteHeaders = { forPage: () => [], rules: [], diagnostics };
  const tomlFile = path.join(root, 'netlify.toml');
  const toml = existsSync(tomlFile) ? tomlFile : undefined;
  let text: string;
  try {
    text = await readFile(path.join(root, '_headers'), 'utf8');
  } catch {
    text = '';
  }
  // objpack's own block (Link preloads, cache lifetimes) carries nothing a page's response needs, and on a
  // 10,000-page site it is 10,000 rules: only the user's lines are parsed.
  const user = userPart(text);
  if (!toml && !user.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'))) return none;
  let rules: Header[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'objpack-headers-'));
  try {
    const headersFile = path.join(dir, '_headers');
    await writeFile(headersFile, user);
    const { parseAllHeaders } = await import('@netlify/headers-parser');
    const parsed = await parseAllHeaders({ headersFiles: [headersFile], netlifyConfigPath: toml, configHeaders: [], minimal: false });
    rules = parsed.headers.filter((h): h is Header => 'forRegExp' in h);
    for (const e of parsed.errors) diagnostics.push({ code: WarningCode.HOST_HEADERS, severity: 'warning', message: `host headers: ${e.message.split('\n')[0]}`, file: '_headers' });
  } catch (err) {
    diagnostics.push({ code: WarningCode.HOST_HEADERS, severity: 'warning', message: `host headers not read: ${(err as Error).message}`, file: '_headers' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (rules.length === 0) return none;
  return {
    diagnostics,
    rules: rules.map((r) => ({
      for: r.for,
      match: r.forRegExp.source,
      headers: Object.entries(r.values).map(([n, v]): PageHeader => [n.toLowerCase(), v]).filter(([n, v]) => isHeaderName(n) && isHeaderValue(v)),
    })),
    forPage(url: string): PageHeader[] {
      const merged = new Map<string, string>();
      for (const rule of rules) {
        if (!rule.forRegExp.test(url)) continue;
        for (const [rawName, value] of Object.entries(rule.values)) {
          const name = rawName.toLowerCase();
          if (!isCarriedHeader(name, value)) continue;
          merged.delete(name);
          merged.set(name, value);
        }
      }
      return [...merged].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    },
  };
}
