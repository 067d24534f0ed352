import { close, createReadStream, fstat, open } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { Context } from './context.js';
import { endWith, sendError, type Req, type Res } from './error-page.js';
import { ifRangeHolds, isNotModified, negotiateEncoding, parseRange } from './http-semantics.js';
import { headFor, type FileEntry } from './site-index.js';
import { ServeErrorCode } from './errors.js';

export interface SendOptions {
  /** Status of a full response (404 for the site's own 404 page). */
  status?: number;
  /**
   * Headers added to (or replacing) the entry's precomputed ones. Must be a long-lived constant: the merged
   * head is cached on the entry under this object's identity (see `headFor`).
   */
  headers?: Readonly<Record<string, string>>;
}

type Head = Readonly<Record<string, string>>;
type Header = string | string[] | undefined;
const one = (v: Header) => (typeof v === 'string' ? v : undefined);
const withSuffix = (etag: string, s: string) => `${etag.slice(0, -1)}-${s}"`;

/** Bytes of a disk-backed file for compression. */
const readWhole = (e: FileEntry) => (e.body ? Promise.resolve(e.body) : readFile(e.file));

/**
 * Answers GET/HEAD for one file: 304 on a matching validator, a single range as 206 (416 when outside the
 * file), a precompressed or cached compressed body when the client accepts one, else the identity body
 * from memory, the prefetch cache, or a disk stream. The common case (no validator, range or coding to
 * negotiate) writes a head built once at start-up and a body already in memory: no per-request objects.
 */
export function sendFile(ctx: Context, req: Req, res: Res, e: FileEntry, so: SendOptions = {}): void {
  const status = so.status ?? 200;
  const head = headFor(e, so.headers ?? null);
  if (status === 200) {
    const h = req.headers;
    const ae = e.compressible ? one(h['accept-encoding']) : undefined;
    const inm = h['if-none-match'];
    const ims = h['if-modified-since'];
    if (inm !== undefined || ims !== undefined) {
      if (notModified(ctx, res, e, head.obj, so.headers, one(inm), one(ims), ae)) return;
    }
    const rangeHeader = h.range;
    if (rangeHeader !== undefined && ifRangeHolds(one(h['if-range']), e.etag, head.obj['last-modified'] ?? '')) {
      const r = parseRange(rangeHeader, e.size);
      if (r === 'unsatisfiable') {
        sendError(req, res, 416, { 'content-range': `bytes */${e.size}` });
        return;
      }
      if (r) {
        const partial = {
          ...head.obj,
          'content-length': String(r.end - r.start + 1),
          'content-range': `bytes ${r.start}-${r.end}/${e.size}`,
        };
        sendBody(ctx, req, res, e, 206, partial, r.start, r.end);
        return;
      }
    }
    if (ae && sendEncoded(ctx, req, res, e, head.obj, ae)) return;
  }
  sendBody(ctx, req, res, e, status, head.obj, 0, e.size - 1, head.flat);
}

/** `writeHead` with a flat `[name, value, …]` array, which both HTTP/1 and the HTTP/2 compat API accept. */
function writeHeadFast(res: Res, status: number, head: Head | readonly string[]): void {
  (res as ServerResponse).writeHead(status, head as string[]);
}

/** Answers 304 when a validator matches; false when the full response must be sent. */
function notModified(
  ctx: Context,
  res: Res,
  e: FileEntry,
  base: Head,
  extra: SendOptions['headers'],
  inm: string | undefined,
  ims: string | undefined,
  ae: string | undefined,
): boolean {
  const onTheFly = ctx.o.compress && ctx.compress.eligible(e);
  const etags = [e.etag];
  if (e.compressible) {
    if (e.br) etags.push(e.br.etag);
    if (e.gzip) etags.push(e.gzip.etag);
    etags.push(withSuffix(e.etag, 'br'), withSuffix(e.etag, 'gz'));
  }
  if (!isNotModified(inm, ims, etags, e.mtimeMs)) return false;
  ctx.stats.notModified++;
  // The 304 carries the tag a 200 would have carried (RFC 9110 §15.4.5): the negotiated coding's.
  let etag = e.etag;
  if (ae) {
    const coding = negotiateEncoding(ae, { br: !!e.br || onTheFly, gzip: !!e.gzip || onTheFly });
    const sibling = coding === 'br' ? e.br : coding === 'gzip' ? e.gzip : undefined;
    if (sibling) etag = sibling.etag;
    else if (coding && ctx.compress.peek(e, coding)) etag = withSuffix(e.etag, coding === 'br' ? 'br' : 'gz');
  }
  // The caller's extras too (a page's Vary, Link and host headers such as its CSP): a cache updates its
  // stored headers from a 304 (RFC 9111 §4.3.4), so a changed `_headers` reaches revalidating clients.
  const head: Record<string, string> = {
    ...extra,
    etag,
    'cache-control': base['cache-control'] ?? 'no-cache',
    'last-modified': base['last-modified'] ?? '',
  };
  if (base.vary) head.vary = base.vary;
  res.writeHead(304, head);
  res.end();
  return true;
}

/** Sends a precompressed sibling or a (cached) on-the-fly compression; false when identity it is. */
function sendEncoded(ctx: Context, req: Req, res: Res, e: FileEntry, base: Head, ae: string): boolean {
  const onTheFly = ctx.o.compress && ctx.compress.eligible(e);
  const coding = negotiateEncoding(ae, { br: !!e.br || onTheFly, gzip: !!e.gzip || onTheFly });
  if (!coding) return false;
  const sibling = coding === 'br' ? e.br : e.gzip;
  if (sibling) {
    const head = { ...base, 'content-encoding': coding, 'content-length': String(sibling.size), etag: sibling.etag };
    sendBody(ctx, req, res, sibling, 200, head, 0, sibling.size - 1);
    return true;
  }
  const send = (buf: Buffer | null) => {
    if (!buf) return sendBody(ctx, req, res, e, 200, base, 0, e.size - 1);
    res.writeHead(200, {
      ...base,
      'content-encoding': coding,
      'content-length': String(buf.length),
      etag: withSuffix(e.etag, coding === 'br' ? 'br' : 'gz'),
    });
    endWith(req, res, buf);
  };
  const ready = ctx.compress.peek(e, coding);
  if (ready) send(ready);
  else ctx.compress.get(e, coding, () => readWhole(e)).then(send, () => send(null));
  return true;
}

/**
 * Writes `head` (or its precomputed `flat` form, which `writeHead` takes without building an object) and
 * bytes [start, end] of the file, from memory when possible.
 */
function sendBody(
  ctx: Context,
  req: Req,
  res: Res,
  e: FileEntry,
  status: number,
  head: Head,
  start: number,
  end: number,
  flat?: readonly string[],
): void {
  const quick = flat ?? head;
  if (req.method === 'HEAD') {
    writeHeadFast(res, status, quick);
    res.end();
    return;
  }
  const mem = e.body ?? ctx.prefetch.take(e);
  if (mem) {
    writeHeadFast(res, status, quick);
    res.end(start === 0 && end === mem.length - 1 ? mem : mem.subarray(start, end + 1));
    return;
  }
  if (e.size === 0) {
    writeHeadFast(res, status, quick);
    res.end();
    return;
  }
  whenAttached(res, () => streamFile(ctx, req, res, e, status, head, start, end, flat));
}

/**
 * Runs `then` once the response owns its connection. A response to a pipelined HTTP/1.1 request waits
 * behind the one before it, and when the connection dies meanwhile it never emits 'close'
 * (https://github.com/nodejs/node/pull/62534): a file stream opened for it would hold its descriptor for
 * the life of the process. Opening only once the socket is assigned means a queued response holds none.
 */
function whenAttached(res: Res, then: () => void): void {
  if (res.socket) {
    then();
    return;
  }
  (res as ServerResponse).once('socket', (socket) => {
    if (!socket.destroyed) then();
  });
}

/** Opens the file and streams bytes [start, end]; a missing file or fd exhaustion gets a clean status. */
function streamFile(
  ctx: Context,
  req: Req,
  res: Res,
  e: FileEntry,
  status: number,
  head: Head,
  start: number,
  end: number,
  flat?: readonly string[],
): void {
  // The client may leave while the file opens. An HTTP/2 response has no `destroyed` flag, and a stream
  // piped into a response that already closed waits for a 'close' that came before it: listen from here.
  let gone = false;
  const onClose = () => (gone = true);
  res.once('close', onClose);
  open(e.file, 'r', (err, fd) => {
    if (err) {
      res.off('close', onClose);
      const code = err.code;
      if (code === 'EMFILE' || code === 'ENFILE') {
        ctx.o.onLog({
          level: 'warn',
          code: ServeErrorCode.EMFILE,
          message: `out of file descriptors serving ${e.urlPath}`,
          path: e.urlPath,
          error: err,
        });
        sendError(req, res, 503, { 'retry-after': '1' });
      } else {
        ctx.o.onLog({
          level: 'warn',
          code: ServeErrorCode.READ,
          message: `cannot open ${e.urlPath}`,
          path: e.urlPath,
          error: err,
        });
        sendError(req, res, code === 'ENOENT' ? 404 : 500);
      }
      return;
    }
    fstat(fd, (serr, st) => {
      res.off('close', onClose);
      if (serr || gone || res.writableEnded) {
        close(fd, () => {});
        if (serr) sendError(req, res, 500);
        return;
      }
      let [s, en, code, h] = [start, end, status, head];
      if (st.size !== e.size || st.mtimeMs !== e.mtimeMs) {
        // Changed since the index was built (a rebuild under --watch is on its way): send the bytes on
        // disk whole, with validators that describe them, never a Content-Length that lies.
        ctx.o.onLog({
          level: 'debug',
          code: ServeErrorCode.READ,
          message: `${e.urlPath} changed since the index; call reload()`,
          path: e.urlPath,
        });
        [s, en, code] = [0, st.size - 1, status === 206 ? 200 : status];
        const fresh: Record<string, string> = {
          ...head,
          'content-length': String(st.size),
          etag: `"${Math.floor(st.mtimeMs).toString(16)}-${st.size.toString(16)}"`,
          'last-modified': new Date(st.mtimeMs).toUTCString(),
        };
        delete fresh['content-range'];
        h = fresh;
      }
      writeHeadFast(res, code, h === head && flat ? flat : h);
      if (st.size === 0) {
        close(fd, () => {});
        res.end();
        return;
      }
      const stream = createReadStream(e.file, { fd, start: s, end: en, autoClose: true, highWaterMark: 64 * 1024 });
      // pipeline destroys the read stream (closing the fd) when the client aborts mid-response.
      pipeline(stream, res as NodeJS.WritableStream, (perr) => {
        if (perr && !res.destroyed) res.destroy();
      });
    });
  });
}
