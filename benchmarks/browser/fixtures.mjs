/**
 * The benchmark's site, written once per run: paper 000's pages of 100 files of 4/16/32 KB, and a realistic
 * page with dependency depth 3 (HTML → CSS → @import → fonts/backgrounds; HTML → module → import → import).
 * Every object is a valid file of its type (padded SVG images, CSS, JS, WOFF2-named font bytes) so the
 * browser fetches it as it would on a real site. One page package per page (no shared packages: each
 * measured navigation is a first visit).
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const svg = (color, size) => {
  const head =
    `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" ` +
    `fill="${color}"/><!--`;
  const tail = '--></svg>';
  return Buffer.from(head + 'x'.repeat(Math.max(0, size - head.length - tail.length)) + tail);
};
const pad = (text, size, open = '/*', close = '*/') =>
  Buffer.from(text + open + ' '.repeat(Math.max(0, size - text.length - 4)) + close);
const seeded = (n, seed) => {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) out[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  return out;
};

/** @returns {{ path: string, files: Map<string, { type: string, body: Buffer }>, closure: string[] }} */
function filesPage(kb) {
  const files = new Map();
  const imgs = [];
  for (let i = 0; i < 100; i++) {
    const p = `/p${kb}/f/${String(i).padStart(3, '0')}.svg`;
    files.set(p, { type: 'image/svg+xml', body: svg(`hsl(${i * 3.6},60%,50%)`, kb * 1024) });
    imgs.push(`<img src="${p}" width="8" height="8" alt="">`);
  }
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><title>100 × ${kb} KB</title><link rel="icon" ` +
    `href="data:,"></head><body><h1>100 files of ${kb} KB</h1>${imgs.join('')}</body></html>`;
  files.set(`/p${kb}/`, { type: 'text/html; charset=utf-8', body: Buffer.from(html) });
  return { path: `/p${kb}/`, files, closure: [...files.keys()].filter((p) => p !== `/p${kb}/`) };
}

function deepPage() {
  const files = new Map();
  const add = (p, type, body) => files.set(p, { type, body });
  add(
    '/deep/css/site.css',
    'text/css',
    pad(
      `@import url("/deep/css/theme.css");\n` +
        `body{margin:0;font-family:Body,sans-serif}` +
        `.hero{height:120px;background:url(/deep/img/hero.svg)}`,
      40 * 1024,
    ),
  );
  add(
    '/deep/css/theme.css',
    'text/css',
    pad(
      `@font-face{font-family:Body;src:url(/deep/fonts/body.woff2) ` +
        `format("woff2")}@font-face{font-family:Head;src:url(/deep/fonts/head.woff2) ` +
        `format("woff2")}h1{font-family:Head,serif}.card{background:url(/deep/img/card.svg)}` +
        `footer{background:url(/deep/img/foot.svg)}`,
      20 * 1024,
    ),
  );
  add('/deep/fonts/body.woff2', 'font/woff2', seeded(30 * 1024, 1));
  add('/deep/fonts/head.woff2', 'font/woff2', seeded(24 * 1024, 2));
  for (const [n, size] of [
    ['hero', 60],
    ['card', 20],
    ['foot', 12],
  ])
    add(`/deep/img/${n}.svg`, 'image/svg+xml', svg('teal', size * 1024));
  add('/deep/js/app.js', 'text/javascript', pad(`import { ui } from '/deep/js/ui.js';\nui();\n`, 50 * 1024));
  add(
    '/deep/js/ui.js',
    'text/javascript',
    pad(
      `import { util } from '/deep/js/util.js';\nexport function ui() { document.body.dataset.ui = util(); }\n`,
      30 * 1024,
    ),
  );
  add('/deep/js/util.js', 'text/javascript', pad(`export function util() { return 'ready'; }\n`, 20 * 1024));
  const imgs = [];
  for (let i = 0; i < 10; i++) {
    add(`/deep/img/c${i}.svg`, 'image/svg+xml', svg(`hsl(${i * 36},50%,50%)`, 40 * 1024));
    imgs.push(`<div class="card"><img src="/deep/img/c${i}.svg" width="8" height="8" alt=""></div>`);
  }
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><title>depth 3</title><link rel="icon" ` +
    `href="data:,">
<link rel="stylesheet" href="/deep/css/site.css"><script type="module" src="/deep/js/app.js"></script></head>
<body><h1>A realistic page</h1><div ` +
    `class="hero"></div>${imgs.join('')}<p>${'Body text. '.repeat(100)}</p><footer>end</footer>
<!--${'-'.repeat(30 * 1024)}--></body></html>`;
  add('/deep/', 'text/html; charset=utf-8', Buffer.from(html));
  // What \`objpack build\` lists for this page in routes.json's \`preload\` (packages/cli/src/prepare/preload-hints.ts,
  // checked by its test on the same page): render-blocking CSS with its @imports, fonts of that CSS, the
  // page's module and its static imports, the page's own (not lazy) images, the CSS's images.
  const preload = [
    ['/deep/css/site.css', 'style'],
    ['/deep/css/theme.css', 'style'],
    ['/deep/fonts/body.woff2', 'font'],
    ['/deep/fonts/head.woff2', 'font'],
    ['/deep/js/app.js', 'module'],
    ['/deep/js/ui.js', 'module'],
    ['/deep/js/util.js', 'module'],
    ...Array.from({ length: 10 }, (_, i) => [`/deep/img/c${i}.svg`, 'image']),
    ['/deep/img/card.svg', 'image'],
    ['/deep/img/foot.svg', 'image'],
    ['/deep/img/hero.svg', 'image'],
  ];
  return { path: '/deep/', files, closure: [...files.keys()].filter((p) => p !== '/deep/'), preload };
}

export const FIXTURES = { p4: () => filesPage(4), p16: () => filesPage(16), p32: () => filesPage(32), deep: deepPage };

/**
 * Writes the site (files, page packages, routes.json, worker files) into `root`.
 * @param {string} root
 * @param {string[]} names fixture names
 * @param {{ encodePackageSync: Function }} format
 * @param {{ worker: Buffer, register: Buffer }} bundles
 */
export async function writeSite(root, names, format, bundles) {
  const pages = {};
  const write = async (p, body) => {
    const file = join(root, p.endsWith('/') ? `${p}index.html` : p);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, body);
  };
  const packages = [];
  const routePages = {};
  const preload = { urls: [], pages: {} };
  for (const name of names) {
    const page = FIXTURES[name]();
    for (const [p, f] of page.files) await write(p, f.body);
    const objects = [page.path, ...page.closure].map((p) => ({
      name: p,
      contentType: page.files.get(p).type,
      body: page.files.get(p).body,
    }));
    // What `objpack build` does to every page: a deferred registration script, in the file and the
    // package. The nginx variants stand for the site before objpack, so only the package has it here.
    objects[0].body = Buffer.from(objects[0].body.toString('utf8').replace('</head>', `${BENCH_REGISTER_TAG}</head>`));
    const pkg = format.encodePackageSync({ buildId: 'bench', objects });
    const pkgPath = `/_objpack/pages${page.path}index.html.objp`;
    await write(pkgPath, pkg);
    packages.push(pkgPath);
    routePages[page.path] = [packages.length - 1];
    if (page.preload)
      preload.pages[page.path] = [...page.preload, [BENCH_REGISTER, 'script']].map((h) => preload.urls.push(h) - 1);
    pages[name] = {
      path: page.path,
      closure: page.closure,
      bytes: objects.reduce((n, o) => n + o.body.length, 0),
      packageBytes: pkg.length,
      digest: createHash('sha256').update(pkg).digest('hex').slice(0, 12),
    };
  }
  await write(
    '/_objpack/routes.json',
    JSON.stringify({ version: 1, buildId: 'bench', packages, pages: routePages, preload }),
  );
  await write('/objpack-sw.js', bundles.worker);
  await write('/objpack-register.js', bundles.register);
  // Stands in for the registration snippet on measured pages (the real one would register /objpack-sw.js
  // over the bench workers); the request is what costs, not what the script does.
  await write(BENCH_REGISTER, '/* objpack-register.js stand-in */\n');
  // The bench worker records the worker's own per-object cost, then is the shipped worker. The -nopreload
  // one is the same with the Link preloads off, the -late one answers navigations only once the package's
  // index is in (earlyResponse: false): the A/B of each feature.
  // The -noregcache one fetches the registration script from the host on every page (registerUrl: '': the
  // worker keeps no copy of its own).
  // With a baseline bundle (another commit's worker, page-complete.mjs --baseline), -baseline is that worker.
  if (bundles.baseline) await write('/objpack-sw-baseline.js', bundles.baseline);
  const workers = [
    ['sw-bench', ''],
    ['sw-bench-nopreload', ', preload: false'],
    ['sw-bench-late', ', earlyResponse: false'],
    ['sw-bench-noregcache', ", registerUrl: ''"],
  ];
  if (bundles.baseline) workers.push(['sw-bench-baseline', '', '/objpack-sw-baseline.js']);
  for (const [name, extra, script] of workers) {
    await write(`/${name}.js`, benchWorker(extra, script));
    await write(
      `/install${name.slice('sw-bench'.length)}.html`,
      `<!doctype html><link rel="icon" href="data:,"><script src="/objpack-register.js" data-sw="/${name}.js" ` +
        `data-prefetch="off"></script>`,
    );
  }
  await write('/warm.html', '<!doctype html><link rel="icon" href="data:,"><p>warm</p>');
  return pages;
}

const BENCH_REGISTER = '/bench-register.js';
const BENCH_REGISTER_TAG = `<script src="${BENCH_REGISTER}" defer></script>`;

const benchWorker = (extraOptions, script = '/objpack-sw.js') =>
  `self.__costs = [];
self.objpackOptions = { routesMaxAgeMs: 3600000, registerUrl: '${BENCH_REGISTER}'${extraOptions}, onEvent: (e) => { ` +
  `if (e.type === 'object-served') self.__costs.push({ url: e.url, ms: e.ms, at: e.at }); } };
self.addEventListener('message', (e) => {
  if (e.data === 'bench:costs') e.ports[0].postMessage(self.__costs.splice(0));
  if (e.data === 'bench:settled') e.waitUntil(self.objpack.settled().then(() => e.ports[0].postMessage(true)));
});
importScripts('${script}');`;
