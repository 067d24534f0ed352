/** page-complete.mjs's summaries of one cell's samples, and the revision names its notes use. */
import { execFileSync } from 'node:child_process';
import { median, quantile, round } from '../lib/stats.mjs';
import { REPO } from '../lib/workspace.mjs';

/** Medians of when the page got its response headers and its HTML, first asked for an object; the usual last object. */
export const phasesOf = (ps) => {
  if (ps.length === 0) return undefined;
  const lasts = new Map();
  for (const p of ps) lasts.set(p.last, (lasts.get(p.last) ?? 0) + 1);
  const [last, n] = [...lasts].sort((a, b) => b[1] - a[1])[0];
  return {
    htmlStart: round(median(ps.map((p) => p.htmlStart))),
    htmlEnd: round(median(ps.map((p) => p.htmlEnd))),
    firstRequest: round(median(ps.map((p) => p.firstRequest))),
    last: `${last} (${n}/${ps.length})`,
  };
};
export const summarize = (xs) => ({
  median: round(median(xs)),
  q1: round(quantile(xs, 0.25)),
  q3: round(quantile(xs, 0.75)),
  iqr: round(quantile(xs, 0.75) - quantile(xs, 0.25)),
});

/** The abbreviated commit id of a revision of this repository. */
export function shortRev(rev) {
  return execFileSync('git', ['-C', REPO, 'rev-parse', '--short', rev], { encoding: 'utf8' }).trim();
}
