import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { HOST_ENTRIES_FILE } from './output-files.js';

/** The `headers` entries objpack added to each host JSON config of `outDir` (HOST_ENTRIES_FILE); empty when unknown. */
export async function readOwnEntries(outDir: string): Promise<Record<string, unknown[]>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path.join(outDir, HOST_ENTRIES_FILE), 'utf8'));
  } catch {
    return {};
  }
  const out: Record<string, unknown[]> = {};
  if (parsed && typeof parsed === 'object') for (const [file, list] of Object.entries(parsed)) if (Array.isArray(list)) out[file] = list;
  return out;
}
