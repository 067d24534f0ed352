import { mkdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic, SiteGraph } from '../discover/types.js';
import { WarningCode, warn } from '../errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { REGISTER_PATH, registerPath, WORKER_PATH, workerPath } from '../inject/inject.js';
import { mapLimit } from '../pool/map-limit.js';

/**
 * Pages that load the registration script on a build that writes no worker (`--no-sw`): an earlier in-place
 * build injected the tag, or the user wrote it (client-sw README). The tag is never removed, as it may be the
 * user's. So that no page requests a missing file (a 404 on every page, and a failed registration in the
 * console), the worker files the site already has stay: in place they are left as they are, and `--out`
 * gets the site's copies (the copy of the site leaves objpack's files out). One warning counts the pages and
 * says how to stop them registering. Returns the files copied (relative to `outDir`).
 */
export async function keepRegisteredWorker(
  graph: SiteGraph,
  root: string,
  outDir: string,
  diagnostics: Diagnostic[],
  base = '/',
): Promise<string[]> {
  const [register, worker] = [registerPath(base), workerPath(base)];
  // Read, not taken from discovery: its cache ignores the tag (hashIgnore), so a page parsed before an earlier
  // build injected it has no reference to the script there.
  const pages: string[] = [];
  await mapLimit(graph.pages, 16, async (p) => {
    const html = await readFile(path.join(root, p.file)).catch(() => undefined);
    if (html?.includes(REGISTER_PATH)) pages.push(p.file);
  });
  if (pages.length === 0) return [];
  const copied: string[] = [];
  if (outDir !== root) {
    for (const rel of [REGISTER_PATH.slice(1), WORKER_PATH.slice(1)]) {
      if (!existsSync(path.join(root, rel))) continue;
      await mkdir(outDir, { recursive: true });
      // Pages of the copy may already load it: never a half-copied file under its name.
      await writeFileAtomic(path.join(outDir, rel), await readFile(path.join(root, rel)));
      copied.push(rel);
    }
  }
  const first = pages.sort()[0]!;
  const kept = existsSync(path.join(outDir, REGISTER_PATH.slice(1)));
  const parts = { pages: pages.length, first, register, worker, kept };
  diagnostics.push(warn(WarningCode.REGISTER_WITHOUT_SW, parts, { file: first, ref: register }));
  return copied;
}
