import { existsSync } from 'node:fs';
import { open, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../emit/atomic-write.js';
import { REPORT_FILE } from '../emit/output-files.js';
import { REPORT_HEAD } from './render-report.js';

/**
 * Where the report goes, relative to the project: beside it, as build reports usually are (Vite's
 * `.vite/`, Next's `.next/`), so it is not published with the site.
 */
export const DEFAULT_REPORT_FILE = '.objpack/report.html';

/** The report's absolute path, or undefined with `report: false`. */
export function reportPath(options: {
  report?: boolean;
  reportFile?: string;
  projectDir?: string;
}): string | undefined {
  if (options.report === false) return undefined;
  return path.resolve(options.projectDir ?? process.cwd(), options.reportFile ?? DEFAULT_REPORT_FILE);
}

/** `file` as a site-relative path when it lies inside `dir`, else undefined. */
export function insideDir(dir: string, file: string): string | undefined {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : undefined;
}

/**
 * Writes the report atomically. A `.objpack/` directory the build creates gets a `.gitignore` of `*`, as
 * Vercel's `.vercel/` and Turborepo's `.turbo/` do, so the report is not committed either.
 */
export async function writeReport(file: string, html: string): Promise<void> {
  const dir = path.dirname(file);
  const fresh = path.basename(dir) === '.objpack' && !existsSync(dir);
  await writeFileAtomic(file, html);
  if (fresh)
    await writeFile(path.join(dir, '.gitignore'), '# objpack build reports\n*\n', { flag: 'wx' }).catch(
      () => undefined,
    );
}

/**
 * Removes the report an earlier build wrote at the top of the output, where this one does not write it, so
 * it is not published any longer. Only a file that begins as objpack's reports do: a page of the user's
 * with the same name stays. Returns the removed site-relative path, if any.
 */
export async function removeOldReport(outDir: string, report: string | undefined): Promise<string[]> {
  const old = path.join(outDir, REPORT_FILE);
  if (report === old) return [];
  let start = '';
  try {
    const fh = await open(old, 'r');
    try {
      const { buffer, bytesRead } = await fh.read(Buffer.alloc(REPORT_HEAD.length), 0, REPORT_HEAD.length, 0);
      start = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return [];
  }
  if (start !== REPORT_HEAD) return [];
  await rm(old, { force: true });
  return [REPORT_FILE];
}
