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
  if (parsed && typeof parsed === 'object')
    for (const [file, list] of Object.entries(parsed)) if (Array.isArray(list)) out[file] = list;
  return out;
}

/** A host JSON config: `{}` when there is none, undefined when it is there but not a JSON object. */
export async function readJsonConfig(file: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
