import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { END, START, markdownTable, updateReadme, wrapMarkdown } from './report.mjs';
import { barChart } from './svg.mjs';
import { median, quantile, round } from './stats.mjs';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('report', () => {
  it('renders a Markdown table, escaping pipes', () => {
    const md = markdownTable({ title: 'T', columns: ['a', 'b'], rows: [['x|y', 2]] });
    expect(md).toBe('**T**\n\n| a | b |\n|---|---|\n| x\\|y | 2 |\n');
  });
  it('replaces only the text between the markers, and appends them when absent', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'objpack-report-'));
    dirs.push(dir);
    const f = join(dir, 'README.md');
    await writeFile(f, `# intro\n\n${START}\nold\n${END}\n\n## after\n`);
    await updateReadme(f, 'new');
    expect(await readFile(f, 'utf8')).toBe(`# intro\n\n${START}\nnew\n${END}\n\n## after\n`);
    await writeFile(f, '# bare\n');
    await updateReadme(f, 'x');
    expect(await readFile(f, 'utf8')).toBe(`# bare\n\n${START}\nx\n${END}\n`);
  });
  it('wraps generated prose to 120 characters, keeping table rows and blockquotes whole', async () => {
    const note = `> ${'word '.repeat(60).trim()}`;
    const row = `| ${'cell | '.repeat(30)}`;
    const wrapped = wrapMarkdown(`${note}\n\n${row}`).split('\n');
    expect(wrapped.filter((l) => l !== row).every((l) => l.length <= 120 && (l === '' || l.startsWith('> ')))).toBe(
      true,
    );
    expect(
      wrapped
        .filter((l) => l.startsWith('> '))
        .join(' ')
        .replace(/> /g, ''),
    ).toBe(note.slice(2));
    expect(wrapped).toContain(row);
    const dir = await mkdtemp(join(tmpdir(), 'objpack-report-'));
    dirs.push(dir);
    const f = join(dir, 'README.md');
    await updateReadme(f, note);
    expect((await readFile(f, 'utf8')).split('\n').every((l) => l.length <= 120)).toBe(true);
  });
  it('draws one bar per finite value, hatching paper values, escaping text', () => {
    const svg = barChart({
      title: 'a < b',
      groups: ['g1', 'g2'],
      series: [
        { label: 'ours', values: [10, NaN] },
        { label: 'paper', values: [20, 30], paper: true },
      ],
    });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('a &lt; b');
    expect(svg.match(/<rect [^>]*><title>/g)).toHaveLength(3);
    expect(svg.match(/fill="url\(#hatch\)" stroke="[^"]+"><title>/g)).toHaveLength(2);
  });
  it('stats', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(quantile([0, 10], 0.95)).toBeCloseTo(9.5);
    expect(round(123.456)).toBe(123);
    expect(round(1.23456)).toBe(1.23);
  });
});
