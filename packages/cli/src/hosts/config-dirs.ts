import path from 'node:path';

// Apart from the host modules, so that a build (the incremental fast path) can name these files without
// loading the host config parsers' modules.

/** Where `vercel.json` and `firebase.json` are looked for, in order: the site, then the project directory. */
export function hostConfigDirs(root: string, cwd = process.cwd()): string[] {
  const project = path.resolve(cwd);
  return path.resolve(root).startsWith(project + path.sep) ? [root, project] : [root];
}

/**
 * Host configs readHosts may read that the incremental fingerprint must cover: those outside the site,
 * and the site's own that no build writes (`netlify.toml`, `_redirects`), which `--exclude` can keep from the
 * walk that otherwise notices an edit (the site's `_headers`, vercel.json and firebase.json are outputs,
 * checked by signature).
 */
export function unwalkedHostConfigs(root: string, cwd?: string): string[] {
  const outside = hostConfigDirs(root, cwd)
    .slice(1)
    .flatMap((d) => [path.join(d, 'vercel.json'), path.join(d, 'firebase.json'), path.join(d, 'netlify.toml')]);
  return [path.join(root, 'netlify.toml'), path.join(root, '_redirects'), ...outside];
}
