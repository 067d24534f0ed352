/**
 * The sites vitals.mjs measures, each twice: as it is (`plain`, the peer's root) and after `objpack build`
 * (`built`, with the registration snippet injected and the real worker): the synthetic depth-3 page of
 * fixtures.mjs with a home page that shares its CSS, fonts and modules, and real generator output from
 * fixtures/closure/gen-* (VitePress, Docusaurus). Each names the page a visit starts on (`first`) and the
 * page measured (`measured`).
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { REPO } from '../lib/workspace.mjs';
import { FIXTURES } from './fixtures.mjs';

/** `name` → how to write its plain root, the build options, the first and the measured page. */
export const SITES = {
  deep: { write: writeDeep, build: {}, first: '/', measured: '/deep/' },
  vitepress: { fixture: 'gen-vitepress', build: {}, first: '/', measured: '/guide/getting-started.html' },
  docusaurus: { fixture: 'gen-docusaurus', build: { bareDirUrls: true }, first: '/', measured: '/docs/intro/' },
};

/** The deep page and a home page that links to it and uses the same stylesheet, fonts and modules. */
function writeDeep(root) {
  const page = FIXTURES.deep();
  for (const [p, f] of page.files) {
    const file = join(root, p.endsWith('/') ? `${p}index.html` : p);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, f.body);
  }
  writeFileSync(
    join(root, 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>home</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/deep/css/site.css"><script type="module" src="/deep/js/app.js"></script></head>
<body><h1>Home</h1><div class="hero"></div><p><a href="/deep/">A realistic ` +
      `page</a></p><p>${'Home text. '.repeat(40)}</p><footer>end</footer></body></html>`,
  );
}

/**
 * A `_headers` giving the site's files the caching the nginx peer gives them (nginx-tls.mjs startNginxSites):
 * every file but pages may be reused for an hour. objpack serve applies it to the files, and the build hands it
 * to the worker for the objects it answers, so every variant caches alike. A directory without pages gets one
 * rule, any other file one of its own.
 */
function hostCaching(root) {
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => `/${relative(root, join(e.parentPath, e.name)).split(sep).join('/')}`);
  const isPage = (f) => f.endsWith('.html');
  const top = (f) => f.split('/')[1];
  const withPages = new Set(files.filter((f) => isPage(f) && f.includes('/', 1)).map(top));
  const rules = new Set();
  for (const f of files) {
    if (isPage(f) || f === '/_headers') continue;
    rules.add(f.includes('/', 1) && !withPages.has(top(f)) ? `/${top(f)}/*` : f);
  }
  return [...rules].map((r) => `${r}\n  Cache-Control: public, max-age=3600\n`).join('');
}

/**
 * The bench worker: the built `objpack-sw.js` with an event hook that records what it served and a message
 * that answers once every package in flight is stored, put before it in the same file (one script, as the
 * build writes it: a second one would be read and run at every worker start); otherwise the shipped worker
 * with the options `objpack build` gives it.
 */
const BENCH_PRELUDE = `self.__events = [];
self.objpackOptions = { onEvent: (e) => { self.__events.push({ type: e.type, url: e.url, t: Date.now() }); } };
self.addEventListener('message', (e) => {
  if (e.data === 'bench:settled') e.waitUntil(self.objpack.settled().then(() => e.ports[0].postMessage(true)));
  if (e.data === 'bench:events') e.ports[0].postMessage(self.__events.splice(0));
});
`;

/** `worker` (a bundle's source) as the bench worker; its `"use strict"` directive stays first. */
export function benchWorker(worker) {
  const text = String(worker);
  const directive = /^"use strict";/.exec(text)?.[0] ?? '';
  return `${directive}${BENCH_PRELUDE}${text.slice(directive.length)}`;
}

/**
 * Writes every named site under `dir` and builds its copy with the workspace's built CLI (`pnpm build`).
 * @param {string} dir
 * @param {string[]} names keys of SITES
 * @param {(m: string) => void} log
 * @returns {Promise<Record<string, { plain: string, built: string, first: string, measured: string, packageBytes:
 * number }>>}
 */
export async function prepareSites(dir, names, log) {
  const out = {};
  for (const name of names) {
    const site = SITES[name];
    const plain = join(dir, name, 'plain'),
      built = join(dir, name, 'built');
    mkdirSync(plain, { recursive: true });
    if (site.write) site.write(plain);
    else cpSync(join(REPO, 'fixtures/closure', site.fixture, 'site'), plain, { recursive: true });
    writeFileSync(join(plain, '_headers'), hostCaching(plain));
    const result = await buildCopy(REPO, name, plain, built);
    // What a first navigation to the measured page downloads with objpack: its page package and shared ones.
    const mp = result.manifest.pages[site.measured];
    const packageBytes = mp
      ? [mp.package, ...mp.shared].reduce((n, p) => n + (result.manifest.packages[p]?.bytes ?? 0), 0)
      : undefined;
    log(
      `${name}: built ${Object.keys(result.manifest.pages).length} pages; measured ${site.measured}: ${packageBytes} ` +
        `package bytes`,
    );
    out[name] = { plain, built, first: site.first, measured: site.measured, packageBytes };
  }
  return out;
}

/**
 * Copies `plain` to `dest` and builds it with the objpack of the checkout at `repo` (built: `pnpm build`), with
 * the site's build options and the bench worker; returns the build's result.
 * @param {string} repo
 * @param {string} name a key of SITES
 * @param {string} plain
 * @param {string} dest
 */
export async function buildCopy(repo, name, plain, dest) {
  const cliDist = join(repo, 'packages/cli/dist/build.js');
  if (!existsSync(cliDist)) throw new Error(`${repo}/packages/cli/dist missing: run pnpm build there first`);
  const { build } = await import(cliDist);
  cpSync(plain, dest, { recursive: true });
  const result = await build({ ...SITES[name].build, root: dest, cache: false });
  writeFileSync(join(dest, 'objpack-sw.js'), benchWorker(readFileSync(join(dest, 'objpack-sw.js'))));
  return result;
}
