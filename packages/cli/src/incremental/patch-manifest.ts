/**
 * Edits the previous build's `objpack-manifest.json` text in place of parsing and re-serialising 15 MB for a
 * 10,000-page site. The file is `JSON.stringify(manifest, null, 2)` (emit.ts): strings never hold a raw
 * newline, so `\n` + indentation marks structure exactly — a package or object entry is the line
 * `\n    "<key>": {` up to the next `\n    }` inside its top-level section.
 */
import { packageFile } from '../emit/generation.js';

/**
 * What changes in one page package's entry; `buildId` undefined removes the field. `newUrl`: the package
 * was written under a new name (its generation's, emit/generation.ts); its page's `package` moves with it.
 */
export interface PackageEdit {
  url: string;
  newUrl?: string;
  bytes?: number;
  digest?: string;
  buildId: string | undefined;
}

/** What changes in one object's entry. */
export interface ObjectEdit {
  url: string;
  bytes: number;
  digest: string;
}

/** Where the entries a patch edits are in the manifest text (found once, applied after the writes). */
export interface ManifestSpans {
  text: Buffer;
  /** Offset and length of the old build id line. */
  idAt: number;
  idEnd: number;
  /** Per package edit, then per object edit, in that order: [start, end) of the entry's text. */
  spans: Array<[number, number]>;
  /** Per renamed package, in page order: [start, end) of its page's `"package"` line. */
  pageLines: Array<[number, number]>;
}

/**
 * Finds the entries of `packages` (page package URLs, in manifest order) and `objects` (object URLs, in
 * manifest order), or undefined if the text does not have the expected shape (the caller falls back to
 * a full build).
 */
export function locateManifest(
  text: Buffer,
  oldId: string,
  packages: readonly string[],
  objects: readonly string[],
  renamed: readonly string[] = [],
): ManifestSpans | undefined {
  const head = Buffer.from(`{\n  "version": `);
  const idLine = Buffer.from(`\n  "buildId": ${JSON.stringify(oldId)},\n`);
  // From the end: the pages section before them is most of the file (12 of 20 MB for 10,000 pages). Each
  // top-level key occurs once at this indentation (strings hold no raw newline).
  const objectsAt = text.lastIndexOf('\n  "objects": {\n');
  const packagesAt = objectsAt < 0 ? -1 : text.lastIndexOf('\n  "packages": {\n', objectsAt);
  const idAt = text.indexOf(idLine);
  if (text.subarray(0, head.length).compare(head) !== 0 || idAt < 0 || idAt > 64 || packagesAt < 0 || objectsAt < 0)
    return undefined;
  const spans: Array<[number, number]> = [];
  // The pages section comes before `packages`: each renamed package's page names it once, in plan order.
  const pageLines: Array<[number, number]> = [];
  let at = idAt + idLine.length;
  for (const url of renamed) {
    const line = `\n      "package": ${JSON.stringify(url)},`;
    const start = text.indexOf(line, at);
    if (start < 0 || start >= packagesAt) return undefined;
    pageLines.push([start, (at = start + Buffer.byteLength(line))]);
  }
  let cursor = idAt + idLine.length;
  const find = (from: number, to: number, key: string): boolean => {
    const start = text.indexOf(`\n    ${JSON.stringify(key)}: {\n`, from);
    if (start < 0 || start >= to) return false;
    const end = text.indexOf('\n    }', start + 1);
    if (end < 0 || end > to) return false;
    spans.push([start, end]);
    cursor = end;
    return true;
  };
  for (const url of packages) if (!find(cursor, objectsAt, url)) return undefined;
  for (const url of objects) if (!find(Math.max(cursor, objectsAt), text.length, url)) return undefined;
  return { text, idAt, idEnd: idAt + idLine.length, spans, pageLines };
}

/**
 * The patched manifest as the parts of its text (written as they are: no 18 MB copy), or undefined if an
 * entry does not have the expected fields. `edits` and `objects` are those `located` was found for, in order.
 */
export function patchManifest(
  located: ManifestSpans,
  newId: string,
  edits: readonly PackageEdit[],
  objects: readonly ObjectEdit[],
): Buffer[] | undefined {
  const { text, spans, pageLines } = located;
  const renamed = edits.filter((e) => e.newUrl !== undefined);
  if (spans.length !== edits.length + objects.length || pageLines.length !== renamed.length) return undefined;
  const parts: Buffer[] = [text.subarray(0, located.idAt), Buffer.from(`\n  "buildId": ${JSON.stringify(newId)},\n`)];
  let cursor = located.idEnd;
  for (const [i, e] of renamed.entries()) {
    parts.push(text.subarray(cursor, pageLines[i]![0]), Buffer.from(`\n      "package": ${JSON.stringify(e.newUrl)},`));
    cursor = pageLines[i]![1];
  }
  const edit = (span: [number, number], change: (entry: string) => string | undefined): boolean => {
    const entry = change(text.subarray(span[0], span[1]).toString('utf8'));
    if (entry === undefined) return false;
    parts.push(text.subarray(cursor, span[0]), Buffer.from(entry));
    cursor = span[1];
    return true;
  };
  // An entry whose only change is its build id (every kept page, on the first patch after a full build)
  // is edited as bytes: its last line is or is not the build id; one shared buffer carries the new one.
  const idLines = new Map<string, Buffer>();
  const idPrefix = Buffer.from('\n      "buildId": "');
  const setId = (span: [number, number], id: string | undefined) => {
    const last = text.lastIndexOf(10, span[1] - 1);
    const hasId = last > span[0] && text.subarray(last, last + idPrefix.length).equals(idPrefix);
    parts.push(text.subarray(cursor, hasId ? last - 1 : span[1]));
    if (id !== undefined) {
      let line = idLines.get(id);
      if (!line) idLines.set(id, (line = Buffer.from(`,\n      "buildId": ${JSON.stringify(id)}`)));
      parts.push(line);
    }
    cursor = span[1];
  };
  for (const [i, e] of edits.entries()) {
    if (e.bytes === undefined) {
      setId(spans[i]!, e.buildId);
      continue;
    }
    const ok = edit(spans[i]!, (entry) => {
      let out: string | undefined = entry.replace(/,\n {6}"buildId": "[^"]*"$/, '');
      if (e.newUrl !== undefined) out = rename(out, e.url, e.newUrl);
      if (e.bytes !== undefined) out = setFields(out, e.bytes, e.digest!);
      return out === undefined
        ? undefined
        : e.buildId === undefined
          ? out
          : `${out},\n      "buildId": ${JSON.stringify(e.buildId)}`;
    });
    if (!ok) return undefined;
  }
  for (const [i, o] of objects.entries()) {
    if (!edit(spans[edits.length + i]!, (entry) => setFields(entry, o.bytes, o.digest))) return undefined;
  }
  parts.push(text.subarray(cursor));
  return parts;
}

/** Renames a package entry: its key line and its `"file"` line (a site-relative path, as emit writes it). */
function rename(entry: string | undefined, from: string, to: string): string | undefined {
  const key = `\n    ${JSON.stringify(from)}: {`;
  const file = `\n      "file": ${JSON.stringify(packageFile(from))},`;
  if (entry === undefined || !entry.startsWith(key) || !entry.includes(file)) return undefined;
  return (
    `\n    ${JSON.stringify(to)}: ` +
    `{${entry.slice(key.length).replace(file, `\n      "file": ${JSON.stringify(packageFile(to))},`)}`
  );
}

/** Replaces the `"bytes"` and `"digest"` lines of an entry (they follow each other in every entry kind). */
function setFields(entry: string | undefined, bytes: number, digest: string): string | undefined {
  if (entry === undefined) return undefined;
  const re = /\n {6}"bytes": \d+,\n {6}"digest": "[^"]*"/;
  if (!re.test(entry)) return undefined;
  return entry.replace(re, `\n      "bytes": ${bytes},\n      "digest": ${JSON.stringify(digest)}`);
}

/**
 * The route table (`JSON.stringify(routeTable(manifest))`, one line) with a new build id and the build ids
 * of kept page packages, by index into `packages` — edited as text, as the manifest is: the table of a
 * 10,000-page site is 1.5 MB. Key order as `routeTable` writes it: version, buildId, packages, pages, then
 * packageBuilds (only values without braces), then anything else (preload, htmlTypes). Undefined if the text does not
 * look like that.
 */
export function patchRoutes(
  text: string,
  oldId: string,
  newId: string,
  packageCount: number,
  builds: ReadonlyMap<number, string>,
  renamed: ReadonlyMap<string, string> = new Map(),
): string | undefined {
  const head = `{"version":`;
  for (const [from, to] of renamed) {
    // Package URLs are JSON strings in the `packages` list, before `pages`; each is there once.
    const pagesAt = text.indexOf(',"pages":{');
    const at = text.indexOf(JSON.stringify(from));
    if (at < 0 || pagesAt < 0 || at > pagesAt) return undefined;
    text = `${text.slice(0, at)}${JSON.stringify(to)}${text.slice(at + JSON.stringify(from).length)}`;
  }
  const idField = `,"buildId":${JSON.stringify(oldId)},"packages":[`;
  const idAt = text.indexOf(idField);
  if (!text.startsWith(head) || idAt < 0 || idAt > 32) return undefined;
  const entries: string[] = [];
  for (let i = 0; i < packageCount; i++) {
    const id = builds.get(i);
    if (id !== undefined && id !== newId) entries.push(`"${i}":${JSON.stringify(id)}`);
  }
  const field = entries.length > 0 ? `,"packageBuilds":{${entries.join(',')}}` : '';
  let from = text.indexOf(',"packageBuilds":{');
  let to: number;
  if (from >= 0) {
    to = text.indexOf('}', from) + 1;
  } else {
    const after = [text.indexOf(',"preload":{'), text.indexOf(',"htmlTypes":{')].filter((i) => i >= 0);
    from = to = after.length > 0 ? Math.min(...after) : text.length - 1;
  }
  if (!text.endsWith('}') || to <= 0) return undefined;
  return (
    `${text.slice(0, idAt)},"buildId":${JSON.stringify(newId)},"packages":[` +
    `${text.slice(idAt + idField.length, from)}${field}${text.slice(to)}`
  );
}
