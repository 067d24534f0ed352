import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { encodePackageSync, underBase, type BuildManifest } from '@objpack/format';

export interface FixtureSite {
  /** Parent temp dir (holds `secret.txt` outside the root). */
  base: string;
  root: string;
  files: Record<string, Buffer>;
  cleanup(): void;
}

const sri = (b: Uint8Array) => `sha256-${createHash('sha256').update(b).digest('base64')}`;
export const b64Digest = (b: Uint8Array) => createHash('sha256').update(b).digest('base64');

/** Deterministic pseudo-random bytes (incompressible). */
export function noise(n: number, seed = 1): Buffer {
  const out = Buffer.alloc(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

const css = Buffer.from(`body { color: #333; }\n${'.c { margin: 0 auto; padding: 1rem; }\n'.repeat(60)}`);
const appJs = Buffer.from(`export const x = 1;\n${'console.log("objpack");\n'.repeat(80)}`);
const guideJs = Buffer.from(`import './x.js';\n${'let a = 1;\n'.repeat(100)}`);

/**
 * A small built site: two pages with a manifest, page packages and one shared package, plus traps. `siteBase`:
 * built to be served under that base path (names, packages and the manifest's URLs lie under it; `files`
 * stays keyed by the file's path in the root).
 */
export function makeSite(siteBase = '/'): FixtureSite {
  const u = (p: string) => underBase(siteBase, p);
  const base = mkdtempSync(join(tmpdir(), 'objpack-serve-'));
  const root = join(base, 'site');
  const files: Record<string, Buffer> = {
    '/index.html': Buffer.from(
      '<!doctype html><title>Home</title><link rel=stylesheet href=/style.css><script type=module ' +
        'src=/app.js></script><img src=/logo.png>',
    ),
    '/style.css': css,
    '/app.js': appJs,
    '/logo.png': noise(3000, 7),
    '/font.woff2': noise(1200, 9),
    '/guide/index.html': Buffer.from(
      '<!doctype html><title>Guide</title><link rel=stylesheet href=/style.css><script src=/guide/guide.js></script>',
    ),
    '/guide/guide.js': guideJs,
    '/big.bin': noise(2 * 1024 * 1024, 3),
    '/with space.txt': Buffer.from('space'),
    '/ünïcode.txt': Buffer.from('unicode'),
    '/about.html': Buffer.from('<!doctype html><title>About</title>'),
    '/data.json': Buffer.from('{"a":1}'),
    '/.env': Buffer.from('SECRET=1'),
    '/.git/config': Buffer.from('[core]'),
    '/sub/.hidden': Buffer.from('hidden'),
  };
  files['/app.js.br'] = brotliCompressSync(appJs);
  files['/app.js.gz'] = gzipSync(appJs);

  const sharedUrl = u('/_objpack/shared/00112233aabbccdd.objp');
  const shared = encodePackageSync({
    buildId: 'b1',
    objects: [{ name: u('/style.css'), contentType: 'text/css; charset=utf-8', body: css }],
  });
  const homeObjects = ['/index.html', '/app.js', '/logo.png', '/font.woff2'];
  const types: Record<string, string> = {
    html: 'text/html; charset=utf-8',
    js: 'text/javascript; charset=utf-8',
    png: 'image/png',
    woff2: 'font/woff2',
    css: 'text/css; charset=utf-8',
  };
  const typeOf = (p: string) => types[p.split('.').pop()!]!;
  const pkg = (names: string[]) =>
    encodePackageSync({
      buildId: 'b1',
      sharedRefs: [sharedUrl],
      objects: names.map((n) => ({ name: u(n), contentType: typeOf(n), body: files[n]! })),
    });
  files['/_objpack/shared/00112233aabbccdd.objp'] = Buffer.from(shared);
  files['/_objpack/pages/index.html.objp'] = Buffer.from(pkg(homeObjects));
  files['/_objpack/pages/guide/index.html.objp'] = Buffer.from(pkg(['/guide/index.html', '/guide/guide.js']));

  const objects: BuildManifest['objects'] = {};
  for (const p of [...homeObjects, '/style.css', '/guide/index.html', '/guide/guide.js']) {
    objects[u(p)] = {
      file: p.slice(1),
      bytes: files[p]!.length,
      digest: sri(files[p]!),
      contentType: typeOf(p),
      as: 'fetch',
    };
  }
  const manifest: BuildManifest = {
    version: 1,
    buildId: 'b1',
    pages: {
      [u('/')]: {
        file: 'index.html',
        package: u('/_objpack/pages/index.html.objp'),
        shared: [sharedUrl],
        closure: ['/index.html', '/style.css', '/app.js', '/logo.png', '/font.woff2'].map(u),
        critical: [
          { path: u('/style.css'), as: 'style' },
          { path: u('/font.woff2'), as: 'font' },
          { path: u('/evil\r\nSet-Cookie: x=1.js'), as: 'script' },
        ],
        preconnect: [],
      },
      [u('/guide/')]: {
        file: 'guide/index.html',
        package: u('/_objpack/pages/guide/index.html.objp'),
        shared: [sharedUrl],
        closure: ['/guide/index.html', '/style.css', '/guide/guide.js'].map(u),
        critical: [{ path: u('/style.css'), as: 'style' }],
        preconnect: [],
      },
    },
    packages: {
      [u('/_objpack/pages/index.html.objp')]: {
        kind: 'page',
        file: '_objpack/pages/index.html.objp',
        bytes: 0,
        digest: '',
        objects: homeObjects.map(u),
      },
      [u('/_objpack/pages/guide/index.html.objp')]: {
        kind: 'page',
        file: '_objpack/pages/guide/index.html.objp',
        bytes: 0,
        digest: '',
        objects: ['/guide/index.html', '/guide/guide.js'].map(u),
      },
      [sharedUrl]: {
        kind: 'shared',
        file: '_objpack/shared/00112233aabbccdd.objp',
        bytes: 0,
        digest: '',
        objects: [u('/style.css')],
      },
    },
    objects,
    // The font may be reused for a year, as a host serves hashed assets; everything else keeps objpack serve's
    // default (revalidate), so a page's 103 names the font alone and its 200's Link both.
    hostHeaders: [
      {
        for: u('/font.woff2'),
        match: `^${u('/font.woff2').replace(/[.]/g, '\\.')}$`,
        headers: [['cache-control', 'public, max-age=31536000, immutable']],
      },
    ],
    ...(siteBase === '/' ? {} : { base: siteBase }),
  };
  files['/objpack-manifest.json'] = Buffer.from(JSON.stringify(manifest));

  for (const [p, body] of Object.entries(files)) {
    const full = join(root, p);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, body);
  }
  writeFileSync(join(base, 'secret.txt'), 'TOP SECRET');
  symlinkSync(join(base, 'secret.txt'), join(root, 'escape.txt'));
  symlinkSync(base, join(root, 'escape-dir'));
  symlinkSync(join(root, 'style.css'), join(root, 'inside-link.css'));
  mkdirSync(join(root, 'empty-dir'));
  return { base, root, files, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
