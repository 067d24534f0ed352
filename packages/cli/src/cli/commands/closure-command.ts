import { OWN_FILES } from '../../build.js';
import { discoverSite, laterReason, pageClosure, type PageClosure, type SiteGraph } from '../../discover/index.js';
import { ErrorCode, ObjpackError } from '../../errors.js';
import { aboutSite, ownPaths } from '../../inject/own-paths.js';
import { reportErrorJson } from '../errors-out.js';
import type { Logger } from '../logger.js';
import { formatDiagnostic } from '../../report/format-diagnostic.js';

/** The page by URL path (`/guide/`), by file (`guide/index.html`) or by URL path of the file. */
function findPage(graph: SiteGraph, page: string): PageClosure | undefined {
  const bare = page.replace(/^\.?\/+/, '');
  return (
    pageClosure(graph, page) ??
    graph.pages.find((p) => p.file === bare || p.url === `/${bare}` || p.url === `/${bare}/`)
  );
}

export async function runClosure(
  dir: string,
  page: string,
  opts: Record<string, unknown>,
  logger: Logger,
): Promise<number> {
  try {
    // As the build walks the site: objpack's own output (its report is an .html file) is no page of it.
    // Discovery's parser threads are unref'd; keep the process alive while they work.
    const keepAlive = setInterval(() => undefined, 1 << 30);
    const graph = await discoverSite(dir, { origin: opts.origin as string | undefined, exclude: OWN_FILES }).finally(
      () => clearInterval(keepAlive),
    );
    const closure = findPage(graph, page);
    if (!closure) {
      const some = graph.pages
        .slice(0, 5)
        .map((p) => p.url)
        .join(', ');
      throw new ObjpackError(
        ErrorCode.PAGE_NOT_FOUND,
        `no page ${JSON.stringify(page)} in ${graph.root}${some ? ` (pages include ${some})` : ''}`,
      );
    }
    // As the package has it: without objpack's own files (a built page carries the registration script).
    const own = ownPaths();
    const items = closure.items.filter((i) => !own.has(i.path));
    const mine = graph.diagnostics.filter((d) => d.file === closure.file && aboutSite(d));
    // Each object with its tier (discover/tiers.ts): the critical tier goes into the packages.
    const tiered = items.map((i) => ({ ...i, tier: laterReason(i) === undefined ? 'critical' : 'later' }));
    const bytes = (tier: string) => {
      const list = tiered.filter((i) => i.tier === tier);
      return { objects: list.length, bytes: list.reduce((s, i) => s + (graph.files.get(i.path)?.bytes ?? 0), 0) };
    };
    if (opts.json) {
      const tiers = { critical: bytes('critical'), later: bytes('later') };
      const { iframes, crossOrigin } = closure;
      const out = { page: closure.url, file: closure.file, items: tiered, tiers, iframes, crossOrigin };
      logger.out(JSON.stringify({ ...out, diagnostics: mine }, null, 2));
    } else {
      logger.out(
        tiered
          .filter((i) => i.tier === 'critical')
          .map((i) => i.url)
          .join('\n'),
      );
      const later = tiered.filter((i) => i.tier === 'later');
      if (later.length > 0) {
        logger.out('# later tier (in no package: fetched from the network if the page asks)');
        logger.out(later.map((i) => `${i.url}  ${i.conditional}`).join('\n'));
      }
      for (const d of mine) logger.warn(formatDiagnostic(d));
    }
    return 0;
  } catch (err) {
    return reportErrorJson(err, logger, opts.json === true);
  }
}
