import { readFileSync } from 'node:fs';
import { extractPageLazily } from '../discover/page-extract.js';
import { decodeHtml } from '../discover/read-site-file.js';
import type { SiteFile } from '../discover/types.js';
import { finalHtml } from '../inject/inject.js';
import { contentKey } from '../plan/plan-packages.js';
import type { PlanObject } from '../plan/types.js';
import {
  extractSignature,
  planObjectOf,
  type BuildState,
  type ObjectRow,
  type PageRecord,
  type StateRows,
} from './build-state.js';

/** A changed page the patch handles. */
export interface Changed {
  index: number;
  file: SiteFile;
  record: PageRecord;
  html: ObjectRow;
  body: Buffer;
  /** The page lacked the registration tag: the build writes it back with the tag. */
  rewrite: boolean;
  objects: PlanObject[];
  key: string;
}

/** A changed page, or undefined if its parse result differs (its closure may have changed) or it is embedded. */
export async function examine(
  state: BuildState,
  rows: StateRows,
  f: SiteFile,
  inject: boolean,
  base = '/',
): Promise<Changed | undefined> {
  const index = state.pageFiles.indexOf(f.rel);
  if (index < 0) return undefined;
  const record = rows.page(index);
  if (record.embedded) return undefined;
  let source: Buffer;
  try {
    source = readFileSync(f.file);
  } catch {
    return undefined;
  }
  const extract = await extractPageLazily(decodeHtml(source));
  const signature = extractSignature(extract, record.lines, record.fontsByChars, base);
  if (signature !== record.extract) return undefined;
  // The same HTML object the pipeline makes (build.ts htmlFor): the page with the tag, hashed.
  const { body, sha256: sum, changed, contentType } = finalHtml(source, inject, base);
  const html = rows.object(record.own[0]!);
  // The page changed encoding: its manifest entry changes too, which the pipeline handles.
  if (contentType !== html[5]) return undefined;
  const htmlObject: PlanObject = {
    ...planObjectOf(html),
    bytes: body.length,
    sendBytes: body.length,
    digest: Buffer.from(sum, 'base64'),
    sri: `sha256-${sum}`,
    load: async () => body,
    ...(record.headers ? { headers: record.headers } : {}),
  };
  const objects = [htmlObject, ...record.own.slice(1).map((k) => planObjectOf(rows.object(k)))];
  const key = contentKey(objects, `${record.packageUrl}\n${record.shared.join('\n')}\n`);
  return { index, file: f, record, html, body, rewrite: changed, objects, key };
}
