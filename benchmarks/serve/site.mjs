/**
 * The benchmark site: 100 small files of 4 KB (000's file size), a page whose package carries all of them
 * (100 × 4 KB ≈ 400 KB), and a manifest so objpack serve knows the page, its package and its objects.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { encodePackageSync } from '@objpack/format';

export const FILES = 100;
export const FILE_BYTES = 4096;
export const PACKAGE_PATH = '/_objpack/pages/index.html.objp';

/** Deterministic text-like bytes. */
function body(i) {
  const line = `/* objpack bench file ${i} */ .c${i} { margin: ${i}px; padding: ${i % 7}rem; }\n`;
  return Buffer.from(line.repeat(Math.ceil(FILE_BYTES / line.length)).slice(0, FILE_BYTES));
}

/** Writes the site under `root`; returns the URL paths of the small files and their base64 digests. */
export function writeSite(root) {
  const paths = [];
  const digests = [];
  const files = new Map();
  for (let i = 0; i < FILES; i++) {
    const p = `/s/${String(i).padStart(3, '0')}.css`;
    const b = body(i);
    files.set(p, b);
    paths.push(p);
    digests.push(createHash('sha256').update(b).digest('base64'));
  }
  const html = Buffer.from(
    `<!doctype html><title>bench</title>${paths.map((p) => `<link rel=stylesheet href="${p}">`).join('')}`,
  );
  files.set('/index.html', html);
  const names = ['/index.html', ...paths];
  const pkg = encodePackageSync({
    buildId: 'bench',
    objects: names.map((n) => ({
      name: n,
      contentType: n.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/html; charset=utf-8',
      body: files.get(n),
    })),
  });
  files.set(PACKAGE_PATH, Buffer.from(pkg));
  const sri = (b) => `sha256-${createHash('sha256').update(b).digest('base64')}`;
  const objects = {};
  for (const n of names)
    objects[n] = {
      file: n.slice(1),
      bytes: files.get(n).length,
      digest: sri(files.get(n)),
      contentType: 'text/css; charset=utf-8',
      as: 'style',
    };
  const manifest = {
    version: 1,
    buildId: 'bench',
    pages: {
      '/': {
        file: 'index.html',
        package: PACKAGE_PATH,
        shared: [],
        closure: names,
        critical: paths.slice(0, 3).map((p) => ({ path: p, as: 'style' })),
        preconnect: [],
      },
    },
    packages: {
      [PACKAGE_PATH]: {
        kind: 'page',
        file: PACKAGE_PATH.slice(1),
        bytes: pkg.length,
        digest: sri(pkg),
        objects: names,
      },
    },
    objects,
  };
  files.set('/objpack-manifest.json', Buffer.from(JSON.stringify(manifest)));
  for (const [p, b] of files) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), b);
  }
  return { paths, digests, packageBytes: pkg.length };
}
