/**
 * What a pool thread does with a job — parse a page, a stylesheet or a module, hash a file, encode a package —
 * and the messages it exchanges with the calling thread. The calling thread runs the same code when it
 * has no worker threads.
 */
import { readFileSync } from 'node:fs';
import { extractClassic } from '../discover/classic-extract.js';
import type { ClassicExtract } from '../discover/classic-extract.js';
import { extractCss } from '../discover/css-extract.js';
import type { CssExtract } from '../discover/css-extract.js';
import { digestFile } from '../discover/file-digest.js';
import type { FileDigest } from '../discover/file-digest.js';
import { extractJs } from '../discover/js-extract.js';
import type { JsExtract } from '../discover/js-extract.js';
import { extractPage } from '../discover/page-extract.js';
import type { InlineParsers, PageExtract } from '../discover/page-extract.js';
import { contentHash, decodeCss, decodeHtml, pageHash } from '../discover/read-site-file.js';
import type { PageFinal } from '../discover/types.js';
import { finalHtml } from '../inject/inject.js';
import { encodeJob, toWriteFailure } from '../emit/write-job.js';
import type { Encoded, WriteFailure, WriteJob } from '../emit/write-job.js';

export type PageJob =
  | {
      id: number;
      kind: 'page';
      file: string;
      hash: boolean;
      ignore?: string;
      final?: 'inject' | 'plain';
      /** The base path whose registration tag `inject` adds. */
      base?: string;
    }
  | { id: number; kind: 'asset'; file: string; as: AssetKind; hash: boolean }
  | {
      id: number;
      kind: 'digest';
      file: string;
      sendBytes: number;
      stat: { size: number; mtimeMs: number; ino?: number };
    }
  | { id: number; kind: 'write'; job: WriteJob };

/** A stylesheet, a module, or a classic script (read for a webpack runtime or route table). */
export type AssetKind = 'css' | 'js' | 'classic';

export type PageResult =
  | { id: number; hash: string; extract: PageExtract; final?: PageFinal; error?: undefined }
  | { id: number; error: { code?: string; message: string } };

export type AssetResult =
  | { id: number; hash: string; extract: CssExtract | JsExtract | ClassicExtract; error?: undefined }
  | { id: number; error: { code?: string; message: string } };

export type DigestResult =
  { id: number; digest: FileDigest; error?: undefined } | { id: number; error: { code?: string; message: string } };

/** `done`, or `failure` (the job threw), or `error` (the pool could not run it). */
export type WriteResult = {
  id: number;
  done?: Encoded;
  failure?: WriteFailure;
  error?: { code?: string; message: string };
};

/** A parser thread loads every parser up front (pages' inline CSS and module scripts). */
export const INLINE_PARSERS: InlineParsers = { css: extractCss, js: extractJs };

export type AnyResult = PageResult | AssetResult | DigestResult | WriteResult;

/** Runs a job on the calling thread (also what the worker runs). */
export async function runHere(job: PageJob): Promise<AnyResult> {
  const { id } = job;
  try {
    if (job.kind === 'digest') return { id, digest: await digestFile(job.file, job.sendBytes, job.stat) };
    if (job.kind === 'write')
      return await encodeJob(job.job).then(
        (done) => ({ id, done }),
        (err: unknown) => ({ id, failure: toWriteFailure(err) }),
      );
    // Synchronous: on a parser thread nothing else waits, and readFile's four thread-pool round trips per
    // file (open, fstat, read, close) are a large share of each thread's time in discovery.
    const bytes = readFileSync(job.file);
    if (job.kind === 'asset') {
      return {
        id,
        hash: job.hash ? contentHash(bytes) : '',
        extract:
          job.as === 'css'
            ? extractCss(decodeCss(bytes))
            : job.as === 'js'
              ? extractJs(bytes.toString('utf8'))
              : extractClassic(bytes.toString('utf8')),
      };
    }
    const r: PageResult = {
      id,
      hash: job.hash ? pageHash(bytes, job.ignore) : '',
      extract: extractPage(decodeHtml(bytes), INLINE_PARSERS),
    };
    if (job.final !== undefined) {
      const f = finalHtml(bytes, job.final === 'inject', job.base);
      r.final = {
        sha256: f.sha256,
        bytes: f.body.length,
        source: bytes.length,
        changed: f.changed,
        type: f.contentType,
      };
    }
    return r;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { id, error: { ...(e.code !== undefined ? { code: e.code } : {}), message: e.message } };
  }
}

/** Buffers a worker hands over instead of copying (an encoded package, in its own ArrayBuffer). */
export function transferList(r: PageResult | AssetResult | DigestResult | WriteResult): ArrayBuffer[] {
  const buffer = 'done' in r && r.done && 'data' in r.done ? r.done.data?.buffer : undefined;
  return buffer instanceof ArrayBuffer ? [buffer] : [];
}
