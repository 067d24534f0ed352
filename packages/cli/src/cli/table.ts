/** A plain two-or-more-column text table, right-aligning numeric cells. */
export function renderTable(rows: ReadonlyArray<readonly string[]>, header?: readonly string[]): string {
  const all = header ? [header, ...rows] : rows;
  const widths: number[] = [];
  for (const row of all) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const line = (row: readonly string[]) =>
    row
      .map((c, i) =>
        /^[\d.,\s%→×-]+( [KMG]i?B| B)?$/.test(c) && i > 0 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  const out = all.map(line);
  if (header) out.splice(1, 0, widths.map((w) => '─'.repeat(w)).join('  '));
  return out.join('\n');
}
