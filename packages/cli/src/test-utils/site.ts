import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorkerAssets } from '../emit/sw-assets.js';

/** Writes `files` (site-relative path → content) under a fresh temporary directory and returns it. */
export async function makeSite(files: Record<string, string | Uint8Array>, prefix = 'objpack-site-'): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  await writeFiles(root, files);
  return root;
}

export async function writeFiles(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), body);
  }
}

/** Stand-in worker files, so build tests do not depend on @objpack/client-sw being built. */
export async function fakeWorkerAssets(): Promise<WorkerAssets> {
  const dir = await mkdtemp(path.join(tmpdir(), 'objpack-sw-'));
  const assets = {
    workerFile: path.join(dir, 'sw.js'),
    registerFile: path.join(dir, 'register.js'),
    unregisterWorkerFile: path.join(dir, 'unregister.js'),
  };
  await writeFile(assets.workerFile, '/* worker */');
  await writeFile(assets.registerFile, '/* register */');
  await writeFile(assets.unregisterWorkerFile, '/* unregister */');
  return assets;
}

/** A small multi-page site: shared CSS (with @import and a font), a module graph, images and a page-only image. */
export const SMALL_SITE: Record<string, string | Uint8Array> = {
  'index.html':
    '<!doctype html><html><head><title>Home</title><link rel="stylesheet" href="/css/site.css"><script ' +
    'type="module" src="/js/app.js"></script></head><body><img src="/img/logo.png" alt=""><img ' +
    'src="/img/home.png" alt=""><a href="/about/">About</a></body></html>\n',
  'about/index.html':
    '<!doctype html><html><head><title>About</title><link rel="stylesheet" href="/css/site.css"><script ' +
    'type="module" src="/js/app.js"></script></head><body><img src="/img/logo.png" alt=""><img ' +
    'src="/img/team.png" alt=""></body></html>\n',
  'blog.html':
    '<!doctype html><html><head><title>Blog</title><link rel="stylesheet" ' +
    'href="/css/site.css"></head><body><img src="/img/logo.png" alt=""><img src="/img/missing.png" ' +
    'alt=""></body></html>\n',
  'css/site.css':
    `@import url("/css/base.css");\n@font-face{font-family:x;src:url("/fonts/x.woff2") ` +
    `format("woff2")}\nbody{font-family:x}\n/*${'c'.repeat(12000)}*/\n`,
  'css/base.css': `body{margin:0}\n/*${'b'.repeat(4000)}*/\n`,
  'fonts/x.woff2': new Uint8Array(20000).fill(7),
  'js/app.js': `import { a } from './lib.js';\nconsole.log(a);\n//${'j'.repeat(9000)}\n`,
  'js/lib.js': `export const a = 1;\n//${'l'.repeat(9000)}\n`,
  'img/logo.png': new Uint8Array(15000).fill(1),
  'img/home.png': new Uint8Array(3000).fill(2),
  'img/team.png': new Uint8Array(3000).fill(3),
};

/** benchmarks/browser's `deep` page: HTML → CSS → @import → fonts/backgrounds; HTML → module → import → import. */
const card = (i: number) => `<div class="card"><img src="/deep/img/c${i}.svg" width="8" height="8" alt=""></div>`;
export const DEEP: Record<string, string> = {
  'deep/index.html': `<!doctype html><html><head><meta charset="utf-8"><title>depth 3</title>
<link rel="stylesheet" href="/deep/css/site.css"><script type="module" src="/deep/js/app.js"></script></head>
<body><h1>A realistic page</h1><div class="hero"></div>${Array.from({ length: 10 }, (_, i) => card(i)).join('')}\
<footer>end</footer></body></html>`,
  'deep/css/site.css':
    '@import url("/deep/css/theme.css");\n' +
    'body{font-family:Body,sans-serif}.hero{height:120px;background:url(/deep/img/hero.svg)}',
  'deep/css/theme.css':
    '@font-face{font-family:Body;src:url(/deep/fonts/body.woff2) format("woff2")}' +
    '@font-face{font-family:Head;src:url(/deep/fonts/head.woff2) format("woff2")}' +
    'h1{font-family:Head,serif}.card{background:url(/deep/img/card.svg)}footer{background:url(/deep/img/foot.svg)}',
  'deep/fonts/body.woff2': 'font',
  'deep/fonts/head.woff2': 'font',
  'deep/img/hero.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'deep/img/card.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'deep/img/foot.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  ...Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [`deep/img/c${i}.svg`, '<svg xmlns="http://www.w3.org/2000/svg"/>']),
  ),
  'deep/js/app.js': "import { ui } from '/deep/js/ui.js';\nui();\n",
  'deep/js/ui.js':
    "import { util } from '/deep/js/util.js';\nexport function ui() { document.body.dataset.ui = util(); }\n",
  'deep/js/util.js': "export function util() { return 'ready'; }\n",
};
