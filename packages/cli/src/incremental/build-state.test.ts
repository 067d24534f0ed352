import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadState, saveState, StateRows, type StateInput } from './build-state.js';

test('rows come back exactly at their offsets, whatever their characters', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'objpack-state-'));
  const rows = [
    '["/a","café"]',
    JSON.stringify(['/ü/日本語', '🙂', '\ud800 lone', '']),
    '[]',
    JSON.stringify({ k: 'x'.repeat(70_000) }),
    '{"last":"ß"}',
  ];
  const state = {
    fingerprint: 'f',
    fileKeys: '',
    fileStats: new Float64Array(0),
    walkDiagnostics: '[]',
    buildId: 'b',
    sharedKeys: [],
    pageFiles: [],
    packageUrls: [],
    pageKeys: [],
    pageBuilds: [],
    objectCount: rows.length,
    reportShared: '[]',
    stats: { groups: 0, inlinedGroups: 0, mergedGroups: 0, sharedPackages: 0, duplicatedBytes: 0 },
    summary: '{}',
    diagnostics: '[]',
    outputs: {},
  } as unknown as StateInput;
  await saveState(dir, state, rows);
  const loaded = loadState(dir)!;
  const read = StateRows.open(dir, loaded)!;
  try {
    expect(rows.map((_, k) => read.get(k))).toEqual(rows);
  } finally {
    read.close();
  }
});
