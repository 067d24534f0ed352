/**
 * What a build leaves for the next one to patch its outputs instead of rebuilding them (the target: an edited
 * page rebuilt in ≤ 5 % of a full build): the walked file list with stat signatures, the plan in compact
 * rows (one JSON string per page and per object, parsed only for the pages that changed), each page's
 * extract signature, the summary and the signatures of the output files the patch edits in place.
 * Stored with v8.serialize: a few arrays of strings load in milliseconds, where the JSON build cache takes
 * hundreds. A missing, corrupt or foreign state is ignored: the full pipeline is always correct.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { PACKAGE_DIR } from '@objpack/format';
import type { SiteFile } from '../discover/types.js';
import type { PageExtract } from '../discover/page-extract.js';
import { statSignature } from '../discover/stat-key.js';
import { writeFileAtomic } from '../emit/atomic-write.js';
import { registerPath } from '../inject/inject.js';
import type { PlannedPage, PlanObject, PlanStats } from '../plan/types.js';

export const STATE_FILE = `${PACKAGE_DIR}/.state.v8`;
export const STATE_ROWS_FILE = `${PACKAGE_DIR}/.state-rows`;
/**
 * 4: page URLs keep `[` `]` (site-origin.ts encodePath). 5: object URLs escape `|` `^` (resolve-url.ts).
 * 6: the summary's `linkRules` has `cut` (an older state's patch would not name Cloudflare's limit).
 * 7: object URLs in one spelling. 8: a page's recorded headers include the rules that name it
 * decoded (hosts/read-hosts.ts pageHeaders). 9: object URLs as the page spells them again. 10: page packages
 * are named for their build id (emit/generation.ts), `superseded`.
 */
const STATE_VERSION = 10;

/** [url, path, file, rel, bytes, contentType, as, sendBytes, digest (base64), sri] */
export type ObjectRow = [string, string, string, string, number, string, PlanObject['as'], number, string, string];

/** One planned page; objects are indexes into {@link BuildState.objects}. */
export interface PageRecord {
  url: string;
  file: string;
  packageUrl: string;
  /** Page package objects: the HTML first, then the page's own objects. */
  own: number[];
  shared: string[];
  closure: number[];
  critical: PlannedPage['critical'];
  preload?: PlannedPage['preload'];
  earlyHints?: PlannedPage['earlyHints'];
  crossOrigin: string[];
  later?: PlannedPage['later'];
  /** Bytes of the page package file. */
  bytes: number;
  /** Hash of the page's parse result: equal means the closure (and its warnings) cannot have changed. */
  extract: string;
  /** The page has warnings, which name lines: {@link extract} covers the references' lines. */
  lines: boolean;
  /** Its unicode-range font subsets depend on its characters: {@link extract} covers them. */
  fontsByChars?: boolean;
  /** Another page embeds this HTML as an object (`<object data>`, `<embed>`): its digest is theirs too. */
  embedded: boolean;
  /**
   * The response headers the site's host config gives the page, as the pipeline carried them in its package:
   * host configs are unchanged whenever the patch applies, so it takes them from here instead of parsing them.
   */
  headers?: Array<[string, string]>;
}

/** A shared package as the report shows it. */
export interface SharedRecord {
  url: string;
  key: string;
  bytes: number;
  objects: number[];
  pages: number[];
}

/** What the report shows of a shared package. */
export interface ReportShared {
  url: string;
  bytes: number;
  /** Pages using it. */
  pages: number;
  urls: string[];
}

export interface BuildState {
  version: number;
  /** Options, worker assets and versions the outputs depend on. */
  fingerprint: string;
  /** Walked files (URL paths, '\0'-joined, sorted) with [bytes, mtimeMs, ino] each. */
  fileKeys: string;
  fileStats: Float64Array;
  /** The walk's own warnings (JSON): a new broken symlink changes them without changing the file list. */
  walkDiagnostics: string;
  buildId: string;
  sharedKeys: string[];
  /**
   * Per page, in plan order: site-relative file, package URL, content key, and the build id its package
   * was encoded with. The page's {@link PageRecord} is row `objectCount + index` of {@link STATE_ROWS_FILE}.
   */
  pageFiles: string[];
  packageUrls: string[];
  pageKeys: string[];
  pageBuilds: string[];
  /**
   * Package files (site-relative) of the generation before this build's that it does not name: kept while
   * workers may hold that generation's route table, removed once the next build has switched.
   */
  superseded: string[];
  /**
   * Rows of {@link STATE_ROWS_FILE}: JSON {@link ObjectRow}s, then {@link PageRecord}s, then the {@link
   * SharedRecord}[].
   */
  objectCount: number;
  rows: { signature: string; offsets: Uint32Array };
  /** Rows replaced by incremental builds since a full build wrote the rows file. */
  overlay: Record<number, string>;
  /** JSON {@link ReportShared}[]. */
  reportShared: string;
  stats: PlanStats;
  /** JSON {@link BuildSummary} and Diagnostic[] as the build returned them. */
  summary: string;
  diagnostics: string;
  /** Site-relative output file → stat signature after the build: the patch edits exactly these files. */
  outputs: Record<string, string>;
}

/** The state without what {@link saveState} fills in. */
export type StateInput = Omit<BuildState, 'version' | 'rows' | 'overlay'> &
  Partial<Pick<BuildState, 'rows' | 'overlay'>>;

/**
 * The bulky rows, read one at a time at their offsets: an incremental build touching one page reads three
 * rows, not 10 MB. Rows an incremental build replaced come from the state's overlay.
 */
export class StateRows {
  private constructor(
    private readonly fd: number,
    private readonly state: BuildState,
  ) {}

  static open(outDir: string, state: BuildState): StateRows | undefined {
    let fd: number | undefined;
    try {
      fd = openSync(path.join(outDir, STATE_ROWS_FILE), 'r');
      const st = fstatSync(fd);
      if (statSignature({ bytes: st.size, mtimeMs: st.mtimeMs, ino: st.ino }) === state.rows.signature)
        return new StateRows(fd, state);
    } catch {
      // no rows: no patching
    }
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }

  get(k: number): string {
    const over = this.state.overlay[k];
    if (over !== undefined) return over;
    const { offsets } = this.state.rows;
    const buf = Buffer.allocUnsafe(offsets[k + 1]! - offsets[k]!);
    readSync(this.fd, buf, 0, buf.length, offsets[k]!);
    return buf.toString('utf8');
  }

  object(k: number): ObjectRow {
    return JSON.parse(this.get(k)) as ObjectRow;
  }

  page(index: number): PageRecord {
    return JSON.parse(this.get(this.state.objectCount + index)) as PageRecord;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * Hash of a page's parse result, as stored in {@link PageRecord.extract}, without the registration script
 * the build injects: a page parsed before the build gave it the tag and after must compare equal (the
 * pipeline drops that script from closures and its warnings from reports either way). Line numbers count
 * only where `lines` says the outputs show them (the page has warnings): otherwise an edit that moves the
 * page's tags up or down, the common case, leaves closure, preload hints and warnings alone and is patched.
 */
export function extractSignature(extract: PageExtract, lines: boolean, fontsByChars = false, base = '/'): string {
  const register = registerPath(base);
  const refs: unknown[] = [];
  extract.refs.forEach((ref, i) => {
    if (ref.v === register) return;
    refs.push([lines ? ref : { ...ref, line: 0 }, extract.inline[i] ?? null]);
  });
  // Where the page's characters choose its unicode-range font subsets, an edit that brings new ones (the
  // first Cyrillic word) rebuilds the page's closure instead of patching it; elsewhere they do not count.
  const chars = fontsByChars ? (extract.chars ?? '') : null;
  return createHash('sha1')
    .update(JSON.stringify([lines, refs, extract.parseErrors, extract.firstError ?? null, chars]))
    .digest('base64url');
}

export function objectRow(o: PlanObject): ObjectRow {
  return [
    o.url,
    o.path,
    o.file,
    o.rel,
    o.bytes,
    o.contentType,
    o.as,
    o.sendBytes,
    Buffer.from(o.digest).toString('base64'),
    o.sri,
  ];
}

export function planObjectOf(row: ObjectRow): PlanObject {
  const [url, p, file, rel, bytes, contentType, as, sendBytes, digest, sri] = row;
  return { url, path: p, file, rel, bytes, contentType, as, sendBytes, digest: Buffer.from(digest, 'base64'), sri };
}

/** The walked URL paths as the state stores them (`fileKeys`): compared whole by the next build. */
export function fileKeysOf(paths: readonly string[]): string {
  return paths.join('\0');
}

/** The walked file list in the state's form (the patch builds the same from the walk's flat lists). */
export function fileSnapshot(files: ReadonlyMap<string, SiteFile>): { fileKeys: string; fileStats: Float64Array } {
  const fileStats = new Float64Array(files.size * 3);
  let i = 0;
  for (const f of files.values()) {
    fileStats[i++] = f.bytes;
    fileStats[i++] = f.mtimeMs;
    fileStats[i++] = f.ino ?? 0;
  }
  return { fileKeys: fileKeysOf([...files.keys()]), fileStats };
}

/** Stat signatures of the given site-relative outputs that exist. */
export function outputSignatures(outDir: string, rels: Iterable<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of rels) {
    const st = statSync(path.join(outDir, rel), { throwIfNoEntry: false });
    if (st) out[rel] = statSignature({ bytes: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
  }
  return out;
}

export function loadState(outDir: string): BuildState | undefined {
  try {
    const state = v8.deserialize(readFileSync(path.join(outDir, STATE_FILE))) as BuildState;
    return state?.version === STATE_VERSION ? state : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the state; with `rows`, first the rows file it points into (a full build), else the state keeps
 * its rows file and carries the replaced rows in its overlay (an incremental build).
 */
export async function saveState(outDir: string, state: StateInput, rows?: readonly string[]): Promise<void> {
  let meta = state.rows;
  let overlay = state.overlay ?? {};
  if (rows) {
    // Rows are JSON (well-formed UTF-16: lone surrogates are escaped), so their byte lengths add up to the
    // joined string's, and the 12 MB of a 10,000-page site is encoded once instead of copied twice.
    const offsets = new Uint32Array(rows.length + 1);
    rows.forEach((r, i) => (offsets[i + 1] = offsets[i]! + Buffer.byteLength(r)));
    const file = path.join(outDir, STATE_ROWS_FILE);
    await writeFileAtomic(file, rows.join(''));
    const st = statSync(file);
    meta = { signature: statSignature({ bytes: st.size, mtimeMs: st.mtimeMs, ino: st.ino }), offsets };
    overlay = {};
  }
  if (!meta) throw new Error('saveState: no rows');
  await writeFileAtomic(
    path.join(outDir, STATE_FILE),
    v8.serialize({ ...state, version: STATE_VERSION, rows: meta, overlay }),
  );
}

/** Before a full build writes anything: a state that outlived its outputs must never be patched. */
export function dropState(outDir: string): void {
  rmSync(path.join(outDir, STATE_FILE), { force: true });
}
