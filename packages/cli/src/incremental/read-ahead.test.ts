import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAhead } from './read-ahead.js';

const dir = mkdtempSync(path.join(tmpdir(), 'objpack-read-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readAhead', () => {
  it('reads the whole file, empty or larger than one read of readFile', async () => {
    const big = Buffer.alloc(3 << 20);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) & 0xff;
    writeFileSync(path.join(dir, 'big'), big);
    writeFileSync(path.join(dir, 'empty'), '');
    expect((await readAhead(path.join(dir, 'big')))?.equals(big)).toBe(true);
    expect(await readAhead(path.join(dir, 'empty'))).toEqual(Buffer.alloc(0));
  });

  it('resolves undefined for a file it cannot read (missing, a directory)', async () => {
    expect(await readAhead(path.join(dir, 'missing'))).toBeUndefined();
    expect(await readAhead(dir)).toBeUndefined();
  });
});
