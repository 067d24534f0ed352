import type { BuildManifest } from '@objpack/format';
import { DiscoverCodes } from '../discover/diagnostic-codes.js';
import type { Diagnostic } from '../discover/types.js';
import { linkRulesText, type BuildSummary } from './summary.js';
import { barChart, escapeHtml, formatBytes } from './svg-bars.js';

/** Pages charted individually; bigger sites show their largest closures. */
const MAX_CHART_ROWS = 60;

/** What the report reads of the manifest and the plan (an incremental build patches it from its state). */
export type ReportManifest = Pick<BuildManifest, 'buildId'> & {
  packages: Readonly<Record<string, { bytes: number } | undefined>>;
};
export interface ReportPlan {
  shared: ReadonlyArray<{ url: string; pages: { readonly length: number }; objects: ReadonlyArray<{ url: string }> }>;
}

/** How every report begins: an earlier build's report in the output is known by it (report-file.ts). */
export const REPORT_HEAD = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>objpack report`;

/** The build report: one self-contained file (inline CSS and SVG, no scripts) with the build's charts. */
export function renderReport(
  manifest: ReportManifest,
  plan: ReportPlan,
  summary: BuildSummary,
  diagnostics: readonly Diagnostic[],
): string {
  const pages = [...summary.perPage].sort((a, b) => b.closureBytes - a.closureBytes).slice(0, MAX_CHART_ROWS);
  const labels = pages.map((p) => p.url);
  const cut =
    summary.perPage.length > pages.length
      ? `<p class="note">The ${pages.length} largest of ${summary.perPage.length} pages.</p>`
      : '';
  const sizeChart = barChart(
    labels,
    [
      { name: 'critical tier (packaged)', color: '#3b82f6', values: pages.map((p) => p.closureBytes) },
      { name: 'later tier (network)', color: '#94a3b8', values: pages.map((p) => p.laterBytes) },
    ],
    formatBytes,
  );
  const countChart = barChart(
    labels,
    [{ name: 'objects', color: '#10b981', values: pages.map((p) => p.objects) }],
    String,
  );
  const reqChart = barChart(
    labels,
    [
      { name: 'requests without objpack', color: '#f59e0b', values: pages.map((p) => p.requestsBefore) },
      { name: 'requests with objpack', color: '#6366f1', values: pages.map((p) => p.requestsAfter) },
    ],
    String,
  );
  const shared = [...plan.shared].sort((a, b) => b.pages.length - a.pages.length);
  const sharedChart = shared.length
    ? barChart(
        shared.slice(0, MAX_CHART_ROWS).map((s) => s.url.split('/').pop()!),
        [
          {
            name: 'pages using it',
            color: '#8b5cf6',
            values: shared.slice(0, MAX_CHART_ROWS).map((s) => s.pages.length),
          },
        ],
        String,
      )
    : '<p>No shared packages: no object is used by several pages often enough to share.</p>';
  const sharedRows = shared.slice(0, 500).map((s) => {
    const bytes = manifest.packages[s.url]?.bytes ?? 0;
    const objs = s.objects.map((o) => escapeHtml(o.url)).join('<br>');
    return (
      `<tr><td><code>${escapeHtml(s.url)}</code></td><td>${formatBytes(bytes)}</td><td>${s.pages.length}` +
      `</td><td><details><summary>${s.objects.length} ` +
      `object${s.objects.length === 1 ? '' : 's'}</summary>${objs}</details></td></tr>`
    );
  });
  const missing = diagnostics.filter(
    (d) => d.code === DiscoverCodes.MISSING_REF || d.code === DiscoverCodes.REF_ESCAPES_ROOT,
  );
  const missingRows = missing
    .slice(0, 1000)
    .map(
      (d) =>
        `<tr><td>${escapeHtml(d.file ?? '')}${d.line ? `:${d.line}` : ''}</td><td><code>${escapeHtml(d.ref ?? '')}` +
        `</code></td><td>${escapeHtml(d.code)}</td></tr>`,
    );
  const stat = (k: string, v: string) => `<div class="stat"><b>${escapeHtml(v)}</b><span>${escapeHtml(k)}</span></div>`;
  const links = summary.linkRules;
  const linkStat = links ? stat('pages with a Link rule (_headers)', `${links.pages} of ${links.of}`) : '';
  // Where a user looks for why some pages' first visits lack preloads (the summary table says it too).
  const missingTable = missing.length
    ? `<table><tr><th>where</th><th>reference</th><th>code</th></tr>${missingRows.join('')}</table>`
    : '<p>None.</p>';
  const linkNote =
    links && links.cut > 0
      ? `<p class="note">_headers (--target cloudflare): Link rules for ${escapeHtml(linkRulesText(links))}. ` +
        `${links.cut} page${links.cut === 1 ? ' gets' : 's get'} no preloads from the host on a first visit; the ` +
        `worker, once installed, announces them on every navigation.</p>`
      : '';
  return (
    `${REPORT_HEAD} — build ${escapeHtml(manifest.buildId)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1000px;padding:0 1rem;color:#111}
h1{font-size:1.5rem}h2{margin-top:2.5rem;border-bottom:1px solid #ddd}
.stats{display:flex;flex-wrap:wrap;gap:.75rem}.stat{border:1px solid #ddd;border-radius:6px;padding:.5rem ` +
    `.8rem;min-width:8rem}
.stat b{display:block;font-size:1.2rem}.stat span{color:#555;font-size:.85rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid ` +
    `#eee;padding:.3rem;text-align:left;vertical-align:top}
.note{color:#555}svg text{font-family:system-ui,sans-serif}
</style></head><body>
<h1>objpack build report</h1>
<p>Build <code>${escapeHtml(manifest.buildId)}</code></p>
<div class="stats">
${stat('pages', String(summary.pages))}${stat('objects', String(summary.objects))}
${stat('page packages', String(summary.packages.page))}${stat('shared packages', String(summary.packages.shared))}
${stat('object bytes', formatBytes(summary.objectBytes))}${stat('package bytes', formatBytes(summary.packageBytes))}
${stat('duplicated bytes', formatBytes(summary.duplicatedBytes))}` +
    `${stat('missing references', String(summary.missingReferences))}
${stat('requests before → after', `${summary.requestsBefore} → ${summary.requestsAfter}`)}` +
    `${stat('round trips saved', String(summary.roundTripsSaved))}${linkStat}
${stat('later tier (not packaged)', `${summary.later.objects} · ${formatBytes(summary.later.bytes)}`)}
</div>${linkNote}
<h2>Closure size per page</h2>${cut}
<p class="note">The critical tier is what a first load of the page fetches: its packages carry it. The later
tier (dynamic imports, image candidates for other displays, italic faces the page's text cannot use, touch
icons, the web manifest) is in no package: the browser fetches it from the network if the page asks.</p>
${sizeChart}
<h2>Objects per page</h2>${countChart}
<h2>Requests per page, before and after</h2>
<p class="note">Before: one request per object. After, on a cold cache: the page package, its shared packages ` +
    `(fetched in parallel) and the rest of any partial media.</p>${reqChart}
<h2>Shared packages</h2>${sharedChart}
<table><tr><th>package</th><th>size</th><th>pages</th><th>objects</th></tr>${sharedRows.join('')}</table>
<h2>Missing references (${missing.length})</h2>
${missingTable}
</body></html>
`
  );
}
