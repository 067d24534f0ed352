/**
 * Bytes a first navigation downloads with objpack (the page package and the shared packages it names)
 * against the bytes Chromium loads for the same page served plainly, on every real generator fixture
 * (fixtures/closure/gen-*) and the example site; and recall: every object Chromium loads that the page's
 * HTML, CSS or module imports name must be in those packages.
 *
 * Chromium's side comes from the fixtures' browser oracle (fixtures/closure/README.md): the closure's
 * critical tier, less `oracle.staticOnly`, plus `oracle.browserOnly`; `closure-fixtures.test.ts` checks in
 * real Chromium that this is exactly what it requests. Sizes are the files' bytes (served uncompressed).
 *
 *   node benchmarks/build/first-load.mjs [--objpack path/to/cli/dist/index.js] [--json] [--pages]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const FIXTURES = fileURLToPath(new URL('../../fixtures/closure/', import.meta.url));

/** The real generator fixtures and the example site. */
export function firstLoadCases() {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && (d.name.startsWith('gen-') || d.name === 'example-site'))
    .filter((d) => existsSync(path.join(FIXTURES, d.name, 'expected.json')))
    .map((d) => {
      const expected = JSON.parse(readFileSync(path.join(FIXTURES, d.name, 'expected.json'), 'utf8'));
      return { name: d.name, site: path.resolve(FIXTURES, d.name, expected.site ?? 'site'), expected };
    });
}

/**
 * Measures one case. `objpack` is the library that builds the packages (this checkout's by default, an
 * older build's for a before/after); discovery for Chromium's side is always this checkout's.
 */
export async function measureCase(c, { objpack, current } = {}) {
  const lib = objpack ?? (await import('objpack'));
  const now = current ?? (await import('objpack'));
  const graph = await now.discoverSite(c.site, { ...(c.expected.options ?? {}), concurrency: 1 });
  const dir = await mkdtemp(path.join(tmpdir(), 'objpack-first-load-'));
  try {
    const out = path.join(dir, 'out');
    await lib.build({ root: c.site, out, report: false, cache: false, ...(c.expected.options ?? {}) });
    const manifest = JSON.parse(readFileSync(path.join(out, 'objpack-manifest.json'), 'utf8'));
    const { staticOnly, browserOnly } = c.expected.oracle;
    // Closure items name their file (a page's URL is its directory, under the base when there is one).
    const pathOf = new Map(graph.pages.flatMap((p) => p.items.map((i) => [i.url, i.path])));
    const base = c.expected.options?.base ?? '/';
    const fileBytes = (url) => {
      const key = pathOf.get(url) ?? decodeURIComponent(url.split('?')[0]);
      const f = graph.files.get(key);
      return f ? f.bytes : statSync(path.join(c.site, key.startsWith(base) ? key.slice(base.length) : key)).size;
    };
    const pages = graph.pages.map((page) => {
      const mine = (list) => new Set(list.filter((e) => e.page === page.url).map((e) => e.url));
      const skipped = mine(staticOnly);
      const found = page.items
        .filter(now.inCriticalTier)
        .map((i) => i.url)
        .filter((u) => !skipped.has(u));
      const loaded = [...new Set([...found, ...mine(browserOnly)])];
      const entry = manifest.pages[page.url];
      const packages = [entry.package, ...entry.shared];
      const carried = new Set(packages.flatMap((p) => manifest.packages[p].objects));
      return {
        page: page.url,
        chromiumBytes: loaded.reduce((s, u) => s + fileBytes(u), 0),
        chromiumObjects: loaded.length,
        packageBytes: packages.reduce((s, p) => s + manifest.packages[p].bytes, 0),
        packages: packages.length,
        // Objects the page's HTML, CSS or module imports name that Chromium loads, missing from the packages.
        missing: found.filter((u) => !carried.has(u)),
      };
    });
    for (const p of pages) p.ratio = p.packageBytes / p.chromiumBytes;
    const sum = (f) => pages.reduce((s, p) => s + f(p), 0);
    return {
      name: c.name,
      pages,
      chromiumBytes: sum((p) => p.chromiumBytes),
      packageBytes: sum((p) => p.packageBytes),
      ratio: sum((p) => p.packageBytes) / sum((p) => p.chromiumBytes),
      worst: pages.reduce((w, p) => (p.ratio > w.ratio ? p : w)),
      missing: pages.flatMap((p) => p.missing.map((u) => `${p.page} ${u}`)),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every case, in name order. */
export async function measureFirstLoad(opts = {}) {
  const results = [];
  for (const c of firstLoadCases().sort((a, b) => a.name.localeCompare(b.name)))
    results.push(await measureCase(c, opts));
  return results;
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** The README's table: one row per fixture. */
export function renderTable(results) {
  const rows = results.map((r) => {
    const worst = `${r.worst.ratio.toFixed(3)} (${r.worst.page})`;
    const cells = [
      r.name,
      r.pages.length,
      kb(r.chromiumBytes),
      kb(r.packageBytes),
      r.ratio.toFixed(3),
      worst,
      r.missing.length,
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '| fixture | pages | Chromium loads | first-navigation packages | ratio | worst page | objects missing |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { objpack: { type: 'string' }, json: { type: 'boolean' }, pages: { type: 'boolean' } },
  });
  const objpack = values.objpack ? await import(pathToFileURL(path.resolve(values.objpack)).href) : undefined;
  const results = await measureFirstLoad({ objpack });
  if (values.json) console.log(JSON.stringify(results, null, 2));
  else {
    console.log(renderTable(results));
    if (values.pages) {
      for (const r of results) {
        for (const p of r.pages)
          console.log(`${r.name} ${p.page}: ${p.chromiumBytes} → ${p.packageBytes} = ${p.ratio.toFixed(3)}`);
      }
    }
  }
}
