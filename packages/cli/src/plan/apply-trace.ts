import { WarningCode, warn } from '../errors.js';
import { tracePages, type Diagnostic, type SiteGraph } from '../discover/index.js';

/**
 * Runs discovery's browser trace (`tracePages`) and appends what the browser requested but static
 * analysis missed to each page's closure, reporting each such object as a warning with its page.
 */
export async function traceClosures(root: string, graph: SiteGraph, sample: number | undefined): Promise<Diagnostic[]> {
  const { added, missedByStatic } = await tracePages(root, graph, sample === undefined ? {} : { sample });
  for (const page of graph.pages) {
    const extra = added.get(page.url);
    if (!extra) continue;
    const have = new Set(page.items.map((i) => i.url));
    for (const item of extra) if (!have.has(item.url)) page.items.push(item);
  }
  return missedByStatic.map((m) =>
    warn(
      WarningCode.TRACE_MISSED,
      { url: m.url },
      { file: graph.pages.find((p) => p.url === m.page)?.file, ref: m.url },
    ),
  );
}
