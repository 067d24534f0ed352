/**
 * Edits the previous build's `objpack-manifest.json` text in place of parsing and re-serialising 15 MB for a
 * 10,000-page site. The file is `JSON.stringify(manifest, null, 2)` (emit.ts): strings never hold a raw
 * newline, so `\n` + indentation marks structure exactly — a package or object entry is the line
 * `\n    "<key>": {` up to the next `\n    }` inside its top-level section.
 */
/** What changes in one page package's entry; `buildId` undefined removes the field. */
export interface PackageEdit {
  url: string;
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

/**
 * The patched manifest, or undefined if the text does not have the expected shape (the caller falls back to
 * a full build). `edits` must be in manifest order (the plan's page order).
 */
export function patchManifest(text: Buffer, oldId: string, newId: string, edits: readonly PackageEdit[], objects: readonly ObjectEdit[]): Buffer | undefined {
  const head = Buffer.from(`{\n  "version": `);
  const idLine = Buffer.from(`\n  "buildId": ${JSON.stringify(oldId)},\n`);
  const packagesAt = text.indexOf('\n  "packages": {\n');
  const objectsAt = text.indexOf('\n  "objects": {\n', packagesAt);
  const idAt = text.indexOf(idLine);
  if (text.subarray(0, head.length).compare(head) !== 0 || idAt < 0 || idAt > 64 || packagesAt < 0 || objectsAt < 0) return undefined;
  const parts: Buffer[] = [text.subarray(0, idAt), Buffer.from(`\n  "buildId": ${JSON.stringify(newId)},\n`)];
  let cursor = idAt + idLine.length;
  const edit = (from: number, to: number, key: string, change: (entry: string) => string | undefined): boolean => {
    const start = text.indexOf(`\n    ${JSON.stringify(key)}: {\n`, from);
    if (start < 0 || start >= to) return false;
    const end = text.indexOf('\n    }', start + 1);
    if (end < 0 || end > to) return false;
    const entry = change(text.subarray(start, end).toString('utf8'));
    if (entry === undefined) return false;
    parts.push(text.subarray(cursor, start), Buffer.from(entry));
    cursor = end;
    return true;
  };
  for (const e of edits) {
    const ok = edit(cursor, objectsAt, e.url, (entry) => {
      let out: string | undefined = entry.replace(/,\n {6}"buildId": "[^"]*"$/, '');
      if (e.bytes !== undefined) out = setFields(out, e.bytes, e.digest!);
      return out === undefined ? undefined : e.buildId === undefined ? out : `${out},\n      "buildId": ${JSON.stringify(e.buildId)}`;
    });
    if (!ok) return undefined;
  }
  for (const o of objects) {
    if (!edit(Math.max(cursor, objectsAt), text.length, o.url, (entry) => setFields(entry, o.bytes, o.digest))) return undefined;
  }
  parts.push(text.subarray(cursor));
  return Buffer.concat(parts);
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
 * packageBuilds (only values without braces), then anything else (preload). Undefined if the text does not
 * look like that.
 */
export function patchRoutes(text: string, oldId: string, newId: string, packageCount: number, builds: ReadonlyMap<number, string>): string | undefined {
  const head = `{"version":`;
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
    const preload = text.indexOf(',"preload":{');
    from = to = preload >= 0 ? preload : text.length - 1;
  }
  if (!text.endsWith('}') || to <= 0) return undefined;
  return `${text.slice(0, idAt)},"buildId":${JSON.stringify(newId)},"packages":[${text.slice(idAt + idField.length, from)}${field}${text.slice(to)}`;
}
