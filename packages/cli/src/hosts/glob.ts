import type { minimatch as Minimatch } from 'minimatch';

/** A minimatch glob as the RegExp `objpack serve` and the worker test paths with, agreeing with minimatch(). */
export function globRegExp(minimatch: typeof Minimatch, glob: string): RegExp {
  const re = minimatch.makeRe(glob);
  if (re === false) throw new Error('not a valid glob');
  return new RegExp(forServe(glob, re.source), re.flags);
}

/**
 * minimatch's RegExp for `glob` brought in line with minimatch(): one trailing slash the glob does not end
 * with is accepted, and a final globstar needs its slash (`/blog/**` matches `/blog/`, not `/blog`); the
 * negated form (`^(?!…).+$`) is fixed inside. host-json-rules.test.ts checks it against minimatch().
 */
function forServe(glob: string, src: string): string {
  const negated = /^\^\(\?!(.*)\)\.\+\$$/.exec(src);
  if (negated) return `^(?!${forServe(glob.slice(1), negated[1]!)}).+$`;
  if (!src.endsWith('$') || src.endsWith('\\$')) return src;
  let body = src.slice(0, -1);
  if (glob.endsWith('/**') && body.endsWith(')?')) body = body.slice(0, -1);
  // Wildcards never match a segment's leading dot (`/.well-known/`, which objpack serve serves); makeRe's
  // lookahead misses the first segment after a leading '/'. A glob naming a dot segment is left as made.
  if (!glob.includes('/.') && body.startsWith('^')) body = `^(?!(?:.*\\/)?\\.)${body.slice(1)}`;
  return glob.endsWith('/') ? `${body}$` : `${body}\\/?$`;
}
