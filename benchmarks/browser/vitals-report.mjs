/**
 * vitals.mjs's summaries: medians and IQRs per cell, ratios to the nginx HTTP/2 peer of the same cell, and
 * the markdown tables of results/NAME.md.
 */
import { median, quantile, ratioInterval, round } from '../lib/stats.mjs';

const METRICS = ['lcp', 'fcp', 'dcl', 'load', 'complete'];

const summarize = (xs) => {
  const ok = xs.filter((x) => Number.isFinite(x));
  if (ok.length === 0) return undefined;
  return {
    median: round(median(ok)),
    q1: round(quantile(ok, 0.25)),
    q3: round(quantile(ok, 0.75)),
    iqr: round(quantile(ok, 0.75) - quantile(ok, 0.25)),
  };
};

/** The metrics whose ratio to nginx-h2 the tables give, each with a bootstrap interval. */
const RATIOS = ['lcp', 'complete'];

/** The nginx-h2 cell or row of the same scenario, site, RTT and bandwidth as `x`. */
const peerOf = (list, x) =>
  list.find(
    (p) =>
      p.variant === 'nginx-h2' &&
      p.scenario === x.scenario &&
      p.site === x.site &&
      p.rtt === x.rtt &&
      p.mbps === x.mbps,
  );

/**
 * One row per cell: each metric's median and IQR, objects, how often the page was controlled, the usual last object
 * and the usual LCP element; the samples of LCP and page-complete, and the 95% bootstrap interval of their ratio to
 * the nginx-h2 cell of the same scenario, site, RTT and bandwidth (`ratioInterval`, benchmarks/lib/stats.mjs).
 */
export function summarizeCells(cells) {
  const usual = (samples, key) => {
    const seen = new Map();
    for (const s of samples) seen.set(s[key] ?? '', (seen.get(s[key] ?? '') ?? 0) + 1);
    const [what, n] = [...seen].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    return `${what || '–'} (${n}/${samples.length})`;
  };
  return cells.map((c) => {
    return {
      scenario: c.scenario,
      site: c.site,
      rtt: c.rtt,
      mbps: c.mbps,
      variant: c.variant,
      n: c.samples.length,
      errors: c.errors,
      ...Object.fromEntries(METRICS.map((m) => [m, summarize(c.samples.map((s) => s[m]))])),
      htmlEnd: summarize(c.samples.map((s) => s.htmlEnd)),
      objects: median(c.samples.map((s) => s.objects)),
      controlled: c.samples.filter((s) => s.controlled).length,
      prefetchedMeasured: c.samples.filter((s) => s.prefetchedMeasured).length,
      last: usual(c.samples, 'last'),
      lcpWhat: usual(c.samples, 'lcpWhat'),
      samples: Object.fromEntries(RATIOS.map((m) => [m, c.samples.map((s) => round(s[m]))])),
      interval: Object.fromEntries(
        RATIOS.map((m) => {
          const p = peerOf(cells, c);
          const iv =
            p &&
            ratioInterval(
              c.samples.map((s) => s[m]),
              p.samples.map((s) => s[m]),
            );
          return [m, iv?.map(round)];
        }),
      ),
    };
  });
}

/** Median of `metric` in `row` over the same cell's nginx-h2 median. */
export function ratio(rows, row, metric) {
  const peer = peerOf(rows, row);
  const a = row[metric]?.median,
    b = peer?.[metric]?.median;
  return a !== undefined && b ? round(a / b) : undefined;
}

const loadText = (l) =>
  `RTT ${l.rtt}${l.mbps ? `/${l.mbps} Mbit/s` : ''}: ${l.loadavg[0]} → ${l.endLoadavg?.[0] ?? '?'}`;
const cellText = (s) => (s ? `${s.median} (${s.iqr})` : '–');
/** A ratio with its interval: `1.1 (0.96–1.24)`; the peer's own row has none. */
const ratioText = (rows, r, metric) => {
  const x = ratio(rows, r, metric);
  if (x === undefined) return '–';
  const iv = r.variant === 'nginx-h2' ? undefined : r.interval?.[metric];
  return iv ? `${x} (${iv[0]}–${iv[1]})` : `${x}`;
};

/** The results page: one table per scenario, a row per site/RTT/bandwidth/variant. */
export function renderVitals(result) {
  const { rows } = result;
  const lines = [
    `# Browser vitals (${result.date.slice(0, 16)}, ${result.runsPerCell} runs/cell, ${result.browser}, ` +
      `${result.machine})`,
    '',
    '- median ms from navigation start (IQR = q3 − q1); ratios are medians over the nginx-h2 median of the same ' +
      'cell, with their 95% bootstrap interval (sampling alone; runs on a busy machine differ by more)',
    '- page-complete = last same-origin responseEnd among what the page requested before its load event',
    '- session: the first page loaded unmeasured in the same context (nginx-h2 keeps what it fetched in the ' +
      "HTTP cache; objpack's worker installs and fetches what the snippet hints), then the measured page; " +
      'first: a fresh context (empty cache, no worker, cold TLS connection); return: as session, with the ' +
      'browser quit and started again on the same profile before the measured page (worker stopped, memory ' +
      'cache gone, HTTP disk cache and Cache Storage kept, cold TLS connection); idle: as session, with the ' +
      'worker stopped before the measured page (as Chromium stops it after 30 s without events; caches and ' +
      'connections kept)',
    '- nginx-h2: the site as built by its generator on nginx HTTP/2 + TLS; objpack-static: after objpack ' +
      'build, same nginx; objpack-serve: objpack serve over HTTP/2 + TLS with 103 Early Hints',
    ...(result.baseline
      ? [`- objpack-static-baseline: objpack-static with the worker of ${result.baseline} (today's snippet)`]
      : []),
    ...(result.buildBaseline
      ? [
          `- objpack-static-build-baseline, objpack-serve-build-baseline: the site built by the objpack of ` +
            `${result.buildBaseline}, on the same nginx, or today's objpack serve`,
        ]
      : []),
    ...(result.dwellMs !== undefined
      ? [
          `- session: the measured page opened ${result.dwellMs} ms after the first page's load event (prefetches ` +
            `may be in flight)`,
        ]
      : []),
    ...((result.visits ?? 2) > 2 && rows.some((r) => r.scenario === 'return')
      ? [
          `- return: the measured page is the reader's visit ${result.visits}: the ${result.visits - 2} before it ` +
            `opened the same page, each in a browser started again on the profile`,
        ]
      : []),
    `- load average per condition: ${result.loads.map(loadText).join('; ')}`,
    '',
  ];
  for (const scenario of [...new Set(rows.map((r) => r.scenario))]) {
    lines.push(
      `## ${scenario}`,
      '',
      '| site | RTT ms | Mbit/s | variant | LCP | FCP | DCL | load | complete | LCP × | complete × | objects ' +
        '| controlled | measured page prefetched | usual last object | usual LCP element |',
      '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    );
    for (const r of rows.filter((x) => x.scenario === scenario)) {
      lines.push(
        `| ${r.site} | ${r.rtt} | ${r.mbps || '∞'} | ${r.variant} | ` +
          `${METRICS.map((m) => cellText(r[m])).join(' | ')} | ${ratioText(rows, r, 'lcp')} | ` +
          `${ratioText(rows, r, 'complete')} | ${r.objects} | ${r.controlled}/${r.n} | ` +
          `${r.prefetchedMeasured}/${r.n} | ${r.last} | ${r.lcpWhat ?? '–'} |`,
      );
    }
    lines.push('');
  }
  const errors = rows.filter((r) => r.errors > 0);
  if (errors.length)
    lines.push(
      `Errors: ${errors.map((r) => `${r.scenario} ${r.site} ${r.rtt} ${r.variant}: ${r.errors}`).join('; ')}`,
      '',
    );
  return lines.join('\n');
}
