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
  return md.join('\n');
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
  const block = `${START}\n${body.trim()}\n${END}`;
  const i = text.indexOf(START),
    j = text.indexOf(END);
  text = i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + END.length) : `${text.trimEnd()}\n\n${block}\n`;
  await writeFile(readme, text);
}
