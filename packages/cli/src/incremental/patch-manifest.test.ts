import { describe, expect, test } from 'vitest';
import { locateManifest, patchManifest } from './patch-manifest.js';

const manifest = (packages: Record<string, object>, objects: Record<string, object>) =>
  Buffer.from(JSON.stringify({ version: 1, buildId: 'old', pages: {}, packages, objects }, null, 2));

describe('patchManifest', () => {
  const text = manifest(
    {
      '/_objpack/pages/a.objp': { bytes: 10, digest: 'sha256-a' },
      '/_objpack/pages/b.objp': { bytes: 20, digest: 'sha256-b', buildId: 'older' },
      '/_objpack/pages/c.objp': { bytes: 30, digest: 'sha256-c', buildId: 'older' },
      '/_objpack/pages/d.objp': { bytes: 40, digest: 'sha256-d' },
    },
    { '/a.html': { file: 'a.html', bytes: 5, digest: 'sha256-x', contentType: 'text/html' } },
  );

  test('adds, replaces and removes build ids, sets sizes and digests; the rest is byte for byte the same', () => {
    const located = locateManifest(
      text,
      'old',
      ['/_objpack/pages/a.objp', '/_objpack/pages/b.objp', '/_objpack/pages/c.objp', '/_objpack/pages/d.objp'],
      ['/a.html'],
    )!;
    expect(located).toBeDefined();
    const parts = patchManifest(
      located,
      'new',
      [
        { url: '/_objpack/pages/a.objp', buildId: 'old' },
        { url: '/_objpack/pages/b.objp', buildId: 'old' },
        { url: '/_objpack/pages/c.objp', buildId: undefined },
        { url: '/_objpack/pages/d.objp', buildId: undefined, bytes: 41, digest: 'sha256-D' },
      ],
      [{ url: '/a.html', bytes: 6, digest: 'sha256-y' }],
    )!;
    const out = Buffer.concat(parts).toString('utf8');
    expect(out).toBe(
      JSON.stringify(
        {
          version: 1,
          buildId: 'new',
          pages: {},
          packages: {
            '/_objpack/pages/a.objp': { bytes: 10, digest: 'sha256-a', buildId: 'old' },
            '/_objpack/pages/b.objp': { bytes: 20, digest: 'sha256-b', buildId: 'old' },
            '/_objpack/pages/c.objp': { bytes: 30, digest: 'sha256-c' },
            '/_objpack/pages/d.objp': { bytes: 41, digest: 'sha256-D' },
          },
          objects: { '/a.html': { file: 'a.html', bytes: 6, digest: 'sha256-y', contentType: 'text/html' } },
        },
        null,
        2,
      ),
    );
  });

  test('finds the sections whatever a page URL holds and whatever follows them', () => {
    // A page whose URL spells the section keys, and the manifest's later top-level fields after `objects`.
    const tricky = '/"objects": {/"packages": {/';
    const doc = {
      version: 1,
      buildId: 'old',
      pages: { [tricky]: { file: 'x.html', objects: { a: 1 } } },
      packages: { '/_objpack/pages/a.objp': { bytes: 10, digest: 'sha256-a' } },
      objects: { '/a.html': { file: 'a.html', bytes: 5, digest: 'sha256-x' } },
      hostRules: [{ match: '/*', headers: { 'x-objects': '{' } }],
      hostRoutes: [['/objects', '/packages/', 301]],
      cleanUrls: true,
    };
    const located = locateManifest(
      Buffer.from(JSON.stringify(doc, null, 2)),
      'old',
      ['/_objpack/pages/a.objp'],
      ['/a.html'],
    )!;
    const out = JSON.parse(
      Buffer.concat(
        patchManifest(
          located,
          'new',
          [{ url: '/_objpack/pages/a.objp', buildId: undefined, bytes: 11, digest: 'sha256-b' }],
          [{ url: '/a.html', bytes: 6, digest: 'sha256-y' }],
        )!,
      ).toString('utf8'),
    );
    expect(out).toEqual({
      ...doc,
      buildId: 'new',
      packages: { '/_objpack/pages/a.objp': { bytes: 11, digest: 'sha256-b' } },
      objects: { '/a.html': { file: 'a.html', bytes: 6, digest: 'sha256-y' } },
    });
  });

  test('another shape, an unknown key or a stale build id is refused', () => {
    expect(locateManifest(text, 'other', ['/_objpack/pages/a.objp'], [])).toBeUndefined();
    expect(locateManifest(text, 'old', ['/_objpack/pages/zz.objp'], [])).toBeUndefined();
    // Out of manifest order: the second key is searched after the first.
    expect(locateManifest(text, 'old', ['/_objpack/pages/b.objp', '/_objpack/pages/a.objp'], [])).toBeUndefined();
    expect(locateManifest(Buffer.from(JSON.stringify({ version: 1, buildId: 'old' })), 'old', [], [])).toBeUndefined();
    const located = locateManifest(text, 'old', ['/_objpack/pages/a.objp'], [])!;
    expect(patchManifest(located, 'new', [], [])).toBeUndefined();
  });
});
