import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { statSignature } from '../discover/stat-key.js';
import { DEFAULT_PLAN_OPTIONS } from '../plan/plan-packages.js';
import type { PlanOptions } from '../plan/types.js';

/**
 * Everything besides the site's files that the outputs depend on: the options, the worker files and this
 * objpack itself (a reinstalled objpack may plan differently, so its state is not patched).
 */
export function buildFingerprint(input: {
  options: PlanOptions & Record<string, unknown>;
  exclude: readonly string[];
  inject: boolean;
  workerFiles: readonly string[];
  /** Host configs the walk may not see (outside the site, or excluded from it), present or not. */
  hostFiles?: readonly string[];
}): string {
  const { options } = input;
  const sig = (file: string) => {
    const st = statSync(file, { throwIfNoEntry: false });
    return st ? statSignature({ bytes: st.size, mtimeMs: st.mtimeMs, ino: st.ino }) : '-';
  };
  const plan = Object.fromEntries(Object.keys(DEFAULT_PLAN_OPTIONS).map((k) => [k, options[k] ?? null]));
  return JSON.stringify({
    origin: options.origin ?? null,
    exclude: input.exclude,
    inject: input.inject,
    serviceWorker: options.serviceWorker !== false,
    unregister: options.unregister === true,
    // The report's site-relative path when it is written into the site, else whether there is one.
    report: options.report ?? true,
    partialThreshold: options.partialThreshold ?? null,
    cleanUrls: options.cleanUrls ?? null,
    bareDirUrls: options.bareDirUrls ?? null,
    targets: options.targets ?? [],
    // A traced build's closures hold what a browser requested: a static build must not patch them.
    trace: options.trace ?? false,
    plan,
    workers: input.workerFiles.map((f) => `${f}:${sig(f)}`),
    // Only those present: where they are looked for depends on the working directory, and a build run from
    // another directory (CI, a script) with no project config is the same build.
    hostFiles: (input.hostFiles ?? []).map((f) => `${f}:${sig(f)}`).filter((s) => !s.endsWith(':-')),
    objpack: sig(fileURLToPath(import.meta.url)),
  });
}
