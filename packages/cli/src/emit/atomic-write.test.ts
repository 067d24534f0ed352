import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { writeSmallAtomic, writeTemp } from './atomic-write.js';

const dir = mkdtempSync(path.join(tmpdir(), 'objpack-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The directories this process made are remembered; a cleanup between two builds in one process removes them.
test.each([
  ['writeTemp', (target: string, data: string): void => renameSync(writeTemp(target, Buffer.from(data)), target)],
  ['writeSmallAtomic', (target: string, data: string): void => void writeSmallAtomic(target, data)],
] as const)('%s makes a directory again when it vanished since the last write', (name, write) => {
  const sub = path.join(dir, name, 'pages');
  write(path.join(sub, 'a.objp'), 'one');
  rmSync(path.join(dir, name), { recursive: true });
  write(path.join(sub, 'b.objp'), 'two');
  expect(readFileSync(path.join(sub, 'b.objp'), 'utf8')).toBe('two');
});
