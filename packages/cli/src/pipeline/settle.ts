import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { resolveBase } from '../base-option.js';
import { unwalkedHostConfigs } from '../hosts/config-dirs.js';
import { checkWorkerAssets, loadWorkerAssets } from '../emit/sw-assets.js';
import { ErrorCode, ObjpackError } from '../errors.js';
import { buildFingerprint } from '../incremental/fingerprint.js';
import { BUILD_DEFAULTS, OWN_FILES, type BuildOptions } from '../options.js';
import { insideDir, reportPath } from '../report/report-file.js';
import type { BuildContext } from './context.js';

/**
 * The first stage: checks the options against the file system and settles everything the later stages read
 * (directories, excludes, the worker files, the fingerprint). Misuse throws {@link ObjpackError}.
 */
export async function settle(options: BuildOptions): Promise<BuildContext> {
  const t0 = performance.now();
  options = { ...options, base: resolveBase(options) };
  const root = await resolveRoot(options.root);
  const outDir = options.out ? path.resolve(options.out) : root;
  const inPlace = outDir === root;
  if (!inPlace && (root + path.sep).startsWith(outDir + path.sep)) {
    throw new ObjpackError(ErrorCode.OUT_CONTAINS_INPUT, `--out ${outDir} contains the site directory ${root}`);
  }
  // A file at or above --out: a usage error here, not ENOTDIR from deep in the writer.
  if (
    !inPlace &&
    !(await stat(outDir).then(
      (st) => st.isDirectory(),
      (e: NodeJS.ErrnoException) => e.code !== 'ENOTDIR',
    ))
  ) {
    throw new ObjpackError(
      ErrorCode.USAGE,
      `--out ${outDir} is a file or lies under one; give a directory (it is created if missing)`,
      outDir,
    );
  }
  const outRel = path.relative(root, outDir);
  const outInside = !inPlace && !outRel.startsWith('..') && !path.isAbsolute(outRel);
  const report = reportPath(options);
  // A report written into the site (`reportFile: 'dist/report.html'`) is never one of its pages.
  const reportRel = report === undefined ? undefined : insideDir(root, report);
  const exclude = [
    ...(options.exclude ?? []),
    ...OWN_FILES,
    ...(outInside ? [outRel.split(path.sep).join('/')] : []),
    ...(reportRel ? [reportRel] : []),
  ];

  const wantWorker = options.serviceWorker !== false;
  const workerAssets = wantWorker
    ? options.workerAssets
      ? (await checkWorkerAssets(options.workerAssets), options.workerAssets)
      : await loadWorkerAssets()
    : undefined;
  const inject = options.inject !== false && wantWorker;
  const workerFiles = workerAssets
    ? [workerAssets.workerFile, workerAssets.registerFile, workerAssets.unregisterWorkerFile]
    : [];
  // Where the report lies outside the site it changes no output: a build from another directory is the same.
  const fingerprint = buildFingerprint({
    options: { ...options, report: report !== undefined && (reportRel ?? true) },
    exclude,
    inject,
    workerFiles,
    hostFiles: unwalkedHostConfigs(root),
  });
  return {
    options,
    root,
    outDir,
    inPlace,
    exclude,
    workerAssets,
    inject,
    partialThreshold: options.partialThreshold ?? BUILD_DEFAULTS.partialThreshold,
    concurrency: options.concurrency ?? BUILD_DEFAULTS.concurrency,
    fingerprint,
    report,
    signal: options.signal,
    progress: options.onProgress ?? (() => undefined),
    t0,
  };
}

async function resolveRoot(root: string): Promise<string> {
  const abs = path.resolve(root);
  let st;
  try {
    st = await stat(abs);
  } catch {
    throw new ObjpackError(ErrorCode.INPUT_NOT_FOUND, `site directory not found: ${abs}`, abs);
  }
  if (!st.isDirectory()) throw new ObjpackError(ErrorCode.INPUT_NOT_DIRECTORY, `not a directory: ${abs}`, abs);
  return realpath(abs);
}
