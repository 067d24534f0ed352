/**
 * A small hand-written SVG grouped bar chart (no dependencies). Paper values are drawn hatched.
 */

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#9c755f'];
const esc = (/** @type {string} */ s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * @typedef {object} BarChart
 * @property {string} title
 * @property {string[]} groups x-axis groups
 * @property {{ label: string, values: number[], paper?: boolean }[]} series
 * @property {string} [unit]
 */

/**
 * @param {BarChart} chart
 * @returns {string}
 */
export function barChart({ title, groups, series, unit = '' }) {
  const W = 720,
    left = 56,
    right = 16,
    top = 40;
  const bottom = 50 + 16 * Math.ceil(series.reduce((n, x) => n + 24 + x.label.length * 6.2, 0) / (W - left - right));
  const H = 290 + bottom;
  const plotW = W - left - right,
    plotH = H - top - bottom;
  const finite = series.flatMap((s) => s.values).filter(Number.isFinite);
  const max = niceMax(finite.length ? Math.max(...finite) : 1);
  const groupW = plotW / Math.max(1, groups.length);
  const barW = (groupW * 0.8) / Math.max(1, series.length);
  const y = (/** @type {number} */ v) => top + plotH - (plotH * v) / max;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" ` +
      `font-family="sans-serif" font-size="11">`,
    '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" ' +
      'patternTransform="rotate(45)"><rect width="6" height="6" fill="white"/><line x1="0" y1="0" x2="0" ' +
      'y2="6" stroke="#555" stroke-width="3"/></pattern></defs>',
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    out.push(
      `<line x1="${left}" x2="${W - right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${fmt(v)}${esc(unit)}</text>`,
    );
  }
  groups.forEach((g, gi) => {
    const x0 = left + gi * groupW + groupW * 0.1;
    series.forEach((s, si) => {
      const v = s.values[gi];
      if (v === undefined || !Number.isFinite(v)) return;
      const color = PALETTE[Math.floor(si / (series.some((x) => x.paper) ? 2 : 1)) % PALETTE.length];
      const x = x0 + si * barW;
      out.push(
        `<rect x="${x.toFixed(1)}" y="${y(v).toFixed(1)}" width="${(barW * 0.9).toFixed(1)}" ` +
          `height="${(top + plotH - y(v)).toFixed(1)}" fill="${s.paper ? 'url(#hatch)' : color}" ` +
          `stroke="${color}"><title>${esc(s.label)}: ${fmt(v)}${esc(unit)}</title></rect>`,
      );
    });
    out.push(
      `<text x="${left + gi * groupW + groupW / 2}" y="${top + plotH + 16}" text-anchor="middle">${esc(g)}</text>`,
    );
  });
  out.push(`<line x1="${left}" x2="${W - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#333"/>`);
  // Legend: items flow left to right and wrap (≈ 6.2 px per character at 11 px sans-serif).
  let lx = left,
    ly = top + plotH + 34;
  series.forEach((s, si) => {
    const color = PALETTE[Math.floor(si / (series.some((x) => x.paper) ? 2 : 1)) % PALETTE.length];
    const w = 24 + s.label.length * 6.2;
    if (lx + w > W - right && lx > left) {
      lx = left;
      ly += 16;
    }
    out.push(
      `<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${s.paper ? 'url(#hatch)' : color}" ` +
        `stroke="${color}"/>`,
      `<text x="${lx + 14}" y="${ly}">${esc(s.label)}</text>`,
    );
    lx += w;
  });
  out.push('</svg>\n');
  return out.join('\n');
}

/** @param {number} v */
function niceMax(v) {
  if (v <= 0) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
/** @param {number} v */
const fmt = (v) =>
  Math.abs(v) >= 100
    ? v.toFixed(0)
    : Math.abs(v) >= 10
      ? v.toFixed(1).replace(/\.0$/, '')
      : v.toFixed(2).replace(/\.?0+$/, '');
