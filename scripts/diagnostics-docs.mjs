#!/usr/bin/env node
// Writes each package README's codes reference from the package's diagnostics catalog (`pnpm docs:codes`,
// after `pnpm build`: it reads the built catalogs). Each package's codes-reference test compares its README
// with `renderReference()` of the source catalog, so `pnpm test` fails when the two differ.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each package: its README and the built module whose `codesReference()` lists its codes. */
export const PACKAGES = {
  format: 'dist/errors.js',
  cli: 'dist/diagnostics/reference.js',
  serve: 'dist/errors.js',
  'client-sw': 'dist/errors.js',
};

export const BEGIN = '<!-- codes:begin — generated from the catalog by scripts/diagnostics-docs.mjs; do not edit -->';
export const END = '<!-- codes:end -->';
const WIDTH = 120;

/** `text` in lines of at most WIDTH characters, the rest indented under the list item. */
function wrap(text, indent = '  ') {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    // A continuation line that began with `-`, `1.` or `#` would start a list or a heading.
    const fits = line.length + 1 + word.length <= WIDTH || /^([-+*]|\d+[.)]|#+)$/.test(word);
    if (line === '' || fits) line = line === '' ? word : `${line} ${word}`;
    else {
      lines.push(line);
      line = indent + word;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/** Text outside code spans, with the backslashes Markdown would read as escapes kept. */
const prose = (text) => text.replaceAll('\\', '\\\\');

/** A message in a code span, whatever backticks it holds. */
const code = (text) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

/** One code: its anchor, level (and exit code), message or meaning, and what to do. */
function entry(row) {
  const level = row.exit === undefined ? row.level : `${row.level}, exit ${row.exit}`;
  const head = `- <a id="${row.code.toLowerCase()}"></a>**\`${row.code}\`** (${level}): `;
  const text = row.messages ? row.messages.map((m) => code(m)).join(' or ') : prose(row.meaning);
  return wrap(`${head}${text} **Do:** ${prose(row.hint)}`);
}

/** The reference for `rows` (from a package's `codesReference()`): errors, then warnings and notes. */
export function renderReference(rows) {
  const errors = rows.filter((r) => r.level === 'error');
  const others = rows.filter((r) => r.level !== 'error');
  const out = [BEGIN, ''];
  if (errors.length > 0) out.push('Errors:', '', ...errors.map(entry), '');
  if (others.length > 0) out.push('Warnings (`info`: a decision of the build, counted as no warning):', '');
  if (others.length > 0) out.push(...others.map(entry), '');
  out.push(END);
  return out.join('\n');
}

/** `readme` with its codes block replaced by `block`; throws when the markers are missing. */
export function withReference(readme, block) {
  const a = readme.indexOf(BEGIN);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`the README has no ${BEGIN} … ${END} block`);
  return readme.slice(0, a) + block + readme.slice(b + END.length);
}

/** Each match of `pattern` (its first group) in the sources under `dirs`, tests excluded, with the files naming it. */
export function codesInSources(dirs, pattern) {
  const found = new Map();
  const visit = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory() && e.name !== 'test-utils') visit(p);
      else if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        for (const m of readFileSync(p, 'utf8').matchAll(pattern))
          found.set(m[1], (found.get(m[1]) ?? new Set()).add(p));
      }
    }
  };
  for (const dir of dirs) visit(dir);
  return found;
}

/** The `src/` directory of every package, where the codes are used. */
export const SOURCES = Object.keys(PACKAGES).map((pkg) => join(root, 'packages', pkg, 'src'));

/**
 * What a package's codes-reference test checks: its README block against the one `rows` generate; codes of
 * `prefix` (a RegExp source) that any package's sources name and the catalog lacks; files other than the
 * `catalog` paths (relative to the package's src/) that write such a code as a string.
 */
export function checkCatalog(pkg, rows, prefix, catalog) {
  const readme = readFileSync(join(root, 'packages', pkg, 'README.md'), 'utf8');
  const known = new Set(rows.map((r) => r.code));
  const named = codesInSources(SOURCES, new RegExp(`\\b(${prefix}[A-Z][A-Z0-9_]*)\\b`, 'g'));
  const quoted = codesInSources(SOURCES, new RegExp(`['"\`](${prefix}[A-Z][A-Z0-9_]*)['"\`]`, 'g'));
  const own = catalog.map((c) => join(root, 'packages', pkg, 'src', c));
  const inCatalog = (file) => own.some((c) => file === c || file.startsWith(`${c}/`));
  return {
    readme,
    generated: withReference(readme, renderReference(rows)),
    unknown: [...named.keys()].filter((c) => !known.has(c)),
    literals: [...quoted.entries()].flatMap(([c, files]) =>
      [...files].filter((f) => !inCatalog(f)).map((f) => `${f.slice(root.length)}: ${c}`),
    ),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [pkg, module] of Object.entries(PACKAGES)) {
    const { codesReference } = await import(join(root, 'packages', pkg, module));
    const file = join(root, 'packages', pkg, 'README.md');
    const before = readFileSync(file, 'utf8');
    const after = withReference(before, renderReference(codesReference()));
    if (after === before) continue;
    stale++;
    if (!check) writeFileSync(file, after);
    process.stdout.write(`${check ? 'stale' : 'wrote'}: packages/${pkg}/README.md\n`);
  }
  process.exit(check && stale > 0 ? 1 : 0);
}
