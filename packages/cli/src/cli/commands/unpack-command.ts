import { unpackPackage } from '../../inspect/unpack-package.js';
import { reportError } from '../errors-out.js';
import type { Logger } from '../logger.js';

export async function runUnpack(file: string, dir: string, opts: { force?: boolean }, logger: Logger): Promise<number> {
  try {
    const { files } = await unpackPackage(file, dir, { force: opts.force === true });
    logger.info(`${files.length} objects extracted to ${dir}`);
    for (const f of files) logger.out(f);
    return 0;
  } catch (err) {
    return reportError(err, logger);
  }
}
