// Bundles the browser files into single scripts in dist/ (run by `pnpm build` after tsc; tests call
// bundle() into a temp dir so they never need a prior build).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const pkg = (p) => fileURLToPath(new URL(`../${p}`, import.meta.url));

/** Output file → entry. Classic scripts (IIFE): a worker made by importScripts and a plain <script>. */
export const ENTRIES = {
  'objpack-sw.js': 'src/sw.ts',
  'objpack-sw-unregister.js': 'src/unregister-sw.ts',
  'objpack-register.js': 'src/register/register.ts',
};

/**
 * Writes every bundle into `outdir`; returns the absolute paths by output name. `root` is a checkout's top
 * directory to bundle instead of this one and `entries` that checkout's own list (the browser benchmark's
 * `--baseline`: another commit's sources, whose files need not be where today's are).
 */
export async function bundle({ outdir = pkg('dist'), minify = true, root = undefined, entries = ENTRIES } = {}) {
  const src = (p) => (root ? `${root}/packages/client-sw/${p}` : pkg(p));
  const out = {};
  for (const [name, entry] of Object.entries(entries)) {
    const outfile = `${outdir}/${name}`;
    await build({
      entryPoints: [src(entry)],
      outfile,
      bundle: true,
      format: 'iife',
      platform: 'browser',
      // Service workers with streams and Cache Storage: every browser that has them runs ES2020.
      target: ['es2020'],
      minify,
      legalComments: 'none',
      logLevel: 'warning',
      // The format's sources, so the bundle never depends on a stale dist/ of a sibling package.
      alias: { '@objpack/format': src('../format/src/index.ts') },
    });
    out[name] = outfile;
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = await bundle();
  for (const f of Object.values(files)) process.stdout.write(`${f}\n`);
}
