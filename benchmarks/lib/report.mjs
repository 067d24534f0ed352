/**
 * Turn experiment results into Markdown (README between markers), JSON and SVG files.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { barChart } from './svg.mjs';

export const START = '<!-- bench:results:start -->';
export const END = '<!-- bench:results:end -->';

/**
 * @typedef {object} ExperimentResult
 * @property {string} id
 * @property {string} title
 * @property {{ title: string, columns: string[], rows: (string | number)[][] }[]} tables
 * @property {(import('./svg.mjs').BarChart & { name: string })[]} plots
 * @property {unknown} raw
 * @property {string[]} [notes]
 */

/** @param {{ title: string, columns: string[], rows: (string | number)[][] }} t */
export function markdownTable(t) {
  const cell = (/** @type {unknown} */ v) => String(v ?? '').replace(/\|/g, '\\|');
  return [
    `**${t.title}**`,
    '',
    `| ${t.columns.map(cell).join(' | ')} |`,
    `|${t.columns.map(() => '---').join('|')}|`,
    ...t.rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
    '',
  ].join('\n');
}

/**
 * Wrap prose lines of Markdown at spaces to `width` characters, so generated sections keep the README's line
 * limit. Table rows, headings, HTML comments and fenced code stay as they are: a table row cannot be split.
 * A blockquote's continuation lines keep its `> `.
 * @param {string} md
 * @param {number} [width]
 */
export function wrapMarkdown(md, width = 120) {
  const out = [];
  let fenced = false;
  for (const line of md.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced || line.length <= width || /^\s*(\||#|<!--|```)/.test(line)) {
      out.push(line);
      continue;
    }
    const prefix = line.startsWith('> ') ? '> ' : '';
    let rest = line.slice(prefix.length);
    while (prefix.length + rest.length > width) {
      const cut = rest.lastIndexOf(' ', width - prefix.length);
      if (cut <= 0) break;
      out.push(prefix + rest.slice(0, cut));
      rest = rest.slice(cut + 1);
    }
    out.push(prefix + rest);
  }
  return out.join('\n');
}

/**
 * Write results/<id>.json and results/plots/<id>-<name>.svg; return the Markdown section.
 * @param {string} resultsDir
 * @param {ExperimentResult} r
 * @param {{ mode: string, date: string, machine: string, ms: number }} meta
 */
export async function writeExperiment(resultsDir, r, meta) {
  await mkdir(join(resultsDir, 'plots'), { recursive: true });
  await writeFile(join(resultsDir, `${r.id}.json`), `${JSON.stringify({ ...meta, ...r }, null, 1)}\n`);
  const md = [
    `### ${r.title}`,
    '',
    `_${meta.mode} run, ${meta.date}, ${meta.machine}, ${(meta.ms / 1000).toFixed(0)} s._`,
    '',
  ];
  for (const n of r.notes ?? []) md.push(`> ${n}`, '');
  for (const t of r.tables) md.push(markdownTable(t));
  for (const p of r.plots) {
    const file = `${r.id}-${p.name}.svg`;
    await writeFile(join(resultsDir, 'plots', file), barChart(p));
    md.push(`![${p.title}](results/plots/${file})`, '');
  }
  return wrapMarkdown(md.join('\n'));
}

/**
 * Replace the text between the markers of README.md (appending the markers when absent).
 * @param {string} readme
 * @param {string} body
 */
export async function updateReadme(readme, body) {
  let text = '';
  try {
    text = await readFile(readme, 'utf8');
  } catch {
    text = '# benchmarks\n';
  }
  const block = `${START}\n${wrapMarkdown(body.trim())}\n${END}`;
  const i = text.indexOf(START),
    j = text.indexOf(END);
  text = i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + END.length) : `${text.trimEnd()}\n\n${block}\n`;
  await writeFile(readme, text);
}
