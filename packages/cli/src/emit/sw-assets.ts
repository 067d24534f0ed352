import { access } from 'node:fs/promises';
import { ErrorCode, ObjpackError } from '../errors.js';

/** Built files of @objpack/client-sw the build copies into the site. */
export interface WorkerAssets {
  workerFile: string;
  registerFile: string;
  unregisterWorkerFile: string;
}

// Resolved at run time: the worker package is built separately, and a build without it must fail clearly.
const ASSETS_MODULE = '@objpack/client-sw/assets';

/**
 * Locates the worker files through `@objpack/client-sw/assets`. Fails with OBJPACK_E_SW_ASSETS_MISSING,
 * naming what is missing, when the package is not built: a site must never be told to register a worker
 * that was not written.
 */
export async function loadWorkerAssets(): Promise<WorkerAssets> {
  let assets: WorkerAssets;
  try {
    const mod = (await import(ASSETS_MODULE)) as { workerAssets(): WorkerAssets };
    assets = mod.workerAssets();
  } catch (cause) {
    throw new ObjpackError(
      ErrorCode.SW_ASSETS_MISSING,
      `cannot load @objpack/client-sw/assets: ${(cause as Error)?.message ?? cause}`,
      undefined,
      { cause },
    );
  }
  await checkWorkerAssets(assets);
  return assets;
}

/** Throws OBJPACK_E_SW_ASSETS_MISSING unless every asset file exists. */
export async function checkWorkerAssets(assets: WorkerAssets): Promise<void> {
  for (const file of [assets.workerFile, assets.registerFile, assets.unregisterWorkerFile]) {
    try {
      await access(file);
    } catch {
      throw new ObjpackError(ErrorCode.SW_ASSETS_MISSING, `service worker file missing: ${file}`, file);
    }
  }
}
