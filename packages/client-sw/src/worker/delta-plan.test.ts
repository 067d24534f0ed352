import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../options.js';
import { Delta } from './delta.js';
import { Store } from './store.js';

const O = 'https://site.example';
const PKG = '/_objpack/pages/index.html.objp';
const DIGEST = `sha256-${'A'.repeat(43)}=`;

/** A Delta that knows build `b2`'s listing and holds the page's image (no Cache Storage involved). */
function delta(): Delta {
  const d = new Delta(new Store('objpack-v1', O), resolveOptions({}, O));
  d.capable = true;
  // The listing normally arrives in the background (doRefresh); plan() reads only memory.
  (d as unknown as { listing: unknown }).listing = {
    buildId: 'b2',
    complete: true,
    packages: {
      [PKG]: [
        ['/', `sha256-${'B'.repeat(43)}=`, 'text/html'],
        ['/img.png', DIGEST, 'image/png'],
      ],
    },
  };
  d.add(
    'objpack-v1-build-b2',
    { buildId: 'b2', sharedRefs: [], objects: [{ name: '/img.png', digest: DIGEST }] },
    '/_objpack/shared/s.objp',
  );
  return d;
}

describe('Delta.plan', () => {
  it('accepts a delta naming the table build, and the build a kept page package carries', () => {
    const plan = delta().plan(PKG, 'b2', 'b1');
    expect(plan?.builds).toEqual(['b2', 'b1']);
    expect([...plan!.claims.keys()]).toEqual(['/img.png']);
    expect(delta().plan(PKG, 'b2')?.builds).toEqual(['b2']);
  });
  it('claims nothing from a listing of another build', () => {
    expect(delta().plan(PKG, 'b3', 'b1')).toBeUndefined();
  });
});
