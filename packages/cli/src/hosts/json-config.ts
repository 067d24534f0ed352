import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { HOST_ENTRIES_FILE } from '../emit/output-files.js';
import { WarningCode, warn } from '../errors.js';
import type { HeaderRule, HostOutput, HostReading, HostSite, HostWarning, JsonHeaderEntry } from './host.js';

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

/** Header rules as `headers` entries of a host JSON config, each path written as `source` spells it. */
export const toJsonHeaders = (rules: readonly HeaderRule[], source: (p: string) => string): JsonHeaderEntry[] =>
  rules.map((r) => ({ source: source(r.path), headers: r.headers.map(([key, value]) => ({ key, value })) }));

/** `existing` without the entries objpack wrote before (or is writing now), then objpack's. */
export function replaceOurs(
  existing: unknown,
  previous: readonly unknown[],
  ours: readonly JsonHeaderEntry[],
): unknown[] {
  const drop = new Set([...previous, ...ours].map((e) => JSON.stringify(e)));
  const keep = Array.isArray(existing) ? existing.filter((e) => !drop.has(JSON.stringify(e))) : [];
  return [...keep, ...ours];
}

/**
 * Merges objpack's entries into each host JSON config of `outDir` and writes them with `writeText`. Entries
 * of both builds are recorded before a config changes, and only this build's after: killed in between, the
 * next build still knows every entry that is objpack's. Files not written this time keep theirs.
 */
export async function writeJsonConfigs(
  outDir: string,
  outputs: readonly HostOutput[],
  writeText: (rel: string, text: string) => Promise<void>,
  warnings: HostWarning[],
): Promise<void> {
  if (outputs.length === 0) return;
  const previous = await readOwnEntries(outDir);
  const configs: Array<{ file: string; config: Record<string, unknown>; ours: unknown[] }> = [];
  for (const { file, json } of outputs) {
    const existing = await readJsonConfig(path.join(outDir, file));
    // Never overwrite what we cannot read (firebase-tools accepts comments in firebase.json).
    if (existing === undefined)
      warnings.push(
        warn(WarningCode.HOST_CONFIG_KEPT, {
          file,
          reason: "not plain JSON: left as it is, without objpack's header rules",
        }),
      );
    const made = existing && json!(existing, previous[file] ?? []);
    if (typeof made === 'string') warnings.push(warn(WarningCode.HOST_CONFIG_KEPT, { file, reason: made }));
    else if (made) configs.push({ file, ...made });
  }
  const record = (both: boolean) =>
    JSON.stringify({
      ...previous,
      ...Object.fromEntries(configs.map((c) => [c.file, both ? [...(previous[c.file] ?? []), ...c.ours] : c.ours])),
    });
  if (configs.length === 0) return;
  await writeText(HOST_ENTRIES_FILE, record(true));
  for (const c of configs) await writeText(c.file, `${JSON.stringify(c.config, null, 2)}\n`);
  await writeText(HOST_ENTRIES_FILE, record(false));
}

/** A JSON config of the site's host as read: where it is, its text and its value. */
export interface ReadConfig {
  dir: string;
  /** The file as messages name it, relative to the site. */
  shown: string;
  text: string;
  config: unknown;
}

/**
 * Each `file` of the site's config directories (`site.dirs`, the site's first), read and parsed with `parse`.
 * One that cannot be is a warning and `undefined` in its place, where its host has nothing to apply.
 */
export async function* readConfigs(
  site: HostSite,
  file: string,
  parse: (text: string) => unknown,
): AsyncGenerator<ReadConfig | undefined> {
  for (const dir of site.dirs.filter((d) => existsSync(path.join(d, file)))) {
    const shown = path.relative(site.root, path.join(dir, file)) || file;
    let read: ReadConfig | undefined;
    try {
      const text = await readFile(path.join(dir, file), 'utf8');
      read = { dir, shown, text, config: await parse(text) };
    } catch (err) {
      const parts = { problem: (err as Error).message, unread: true };
      site.diagnostics.push(warn(WarningCode.HOST_HEADERS, parts, { file: shown }));
    }
    // One at a time: each config's warnings follow those of the one before.
    yield read;
  }
}

/** A reading of a config that gives the host nothing to apply. */
export const nothing = (): HostReading => ({ headers: [], redirects: [], routes: { routes: [], skipped: [] } });
