/** Minimal inline-SVG horizontal bar charts for the self-contained report (no scripts, no external files). */

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface BarSeries {
  name: string;
  color: string;
  values: number[];
}

/** One row per label, one bar per series; values are scaled to the largest. */
export function barChart(
  labels: readonly string[],
  series: readonly BarSeries[],
  format: (n: number) => string,
): string {
  const rowH = 14 * series.length + 6;
  const labelW = 260;
  const barW = 420;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const rows = labels.map((label, i) => {
    const y = i * rowH;
    const bars = series.map((s, j) => {
      const v = s.values[i] ?? 0;
      const w = Math.max(1, Math.round((v / max) * barW));
      const by = y + 3 + j * 14;
      return (
        `<rect x="${labelW}" y="${by}" width="${w}" height="12" ` +
        `fill="${s.color}"><title>${escapeHtml(`${label} — ${s.name}: ${format(v)}`)}</title></rect>` +
        `<text x="${labelW + w + 4}" y="${by + 10}" font-size="10">${escapeHtml(format(v))}</text>`
      );
    });
    const short = label.length > 40 ? `…${label.slice(-39)}` : label;
    return (
      `<text x="${labelW - 6}" y="${y + rowH / 2 + 4}" font-size="11" ` +
      `text-anchor="end">${escapeHtml(short)}</text>${bars.join('')}`
    );
  });
  // Each entry as wide as its name (≈ 6.5 px per character at 11 px), so long names never overlap.
  let x = labelW;
  const legend = series
    .map((s) => {
      const item =
        `<rect x="${x}" y="0" width="10" height="10" fill="${s.color}"/><text x="${x + 14}" y="9" ` +
        `font-size="11">${escapeHtml(s.name)}</text>`;
      x += 14 + Math.ceil(s.name.length * 6.5) + 20;
      return item;
    })
    .join('');
  const height = labels.length * rowH + 20;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + barW + 90}" height="${height}" role="img">` +
    `<g>${legend}</g><g transform="translate(0,18)">${rows.join('')}</g></svg>`
  );
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}
