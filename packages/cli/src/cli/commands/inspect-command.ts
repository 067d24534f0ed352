import { inspectPackage } from '../../inspect/inspect-package.js';
import { formatBytes } from '../../report/svg-bars.js';
import { reportErrorJson } from '../errors-out.js';
import type { Logger } from '../logger.js';
import { renderTable } from '../table.js';

export async function runInspect(file: string, opts: Record<string, unknown>, logger: Logger): Promise<number> {
  try {
    const r = await inspectPackage(file);
    if (opts.json) {
      logger.out(JSON.stringify(r, null, 2));
      return 0;
    }
    logger.out(
      [
        `${r.file}: objpack package v${r.version}, ${formatBytes(r.fileBytes)}`,
        `build: ${r.buildId || '(none: shared package)'}`,
        `shared packages: ${r.sharedRefs.length ? r.sharedRefs.join(', ') : 'none'}`,
        `index: ${formatBytes(r.headerBytes)}, data: ${formatBytes(r.dataBytes)}, ${r.objects.length} objects, all ` +
          `digests verified`,
        '',
        renderTable(
          r.objects.map((o) => [
            String(o.index),
            o.name,
            o.contentType,
            formatBytes(o.size),
            o.partial ? `prefix of ${formatBytes(o.totalSize)}` : '',
            o.digest,
          ]),
          ['#', 'name', 'type', 'size', 'partial', 'sha256'],
        ),
      ].join('\n'),
    );
    return 0;
  } catch (err) {
    return reportErrorJson(err, logger, opts.json === true);
  }
}
