import { close, createReadStream, fstat, open } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import type { Context } from './context.js';
import { endWith, sendError, type Req, type Res } from './error-page.js';
import { ifRangeHolds, isNotModified, negotiateEncoding, parseRange } from './http-semantics.js';
import type { FileEntry } from './site-index.js';

export interface SendOptions {
  /** Status of a full response (404 for the site's own 404 page). */
  status?: number;
  /** Headers added to (or replacing) the entry's precomputed ones. */
  headers?: Record<string, string>;
}

const withSuffix = (etag: string, s: string) => `${etag.slice(0, -1)}-${s}"`;

/** Bytes of a disk-backed file for compression. */
const readWhole = (e: FileEntry) => (e.body ? Promise.resolve(e.body) : readFile(e.file));

/**
 * Answers GET/HEAD for one file: 304 on a matching validator, a single range as 206 (416 when outside the
 * file), a precompressed or cached compressed body when the client accepts one, else the identity body
 * from memory, the prefetch cache, or a disk stream.
 */
export function sendFile(ctx: Context, req: Req, res: Res, e: FileEntry, so: SendOptions = {}): void {
  const h = req.headers;
  const status = so.status ?? 200;
  const extra = so.headers;
  const base = extra ? { ...e.headers, ...extra } : e.headers;
  const onTheFly = ctx.o.compress && ctx.compress.eligible(e);

  if (status === 200) {
    const etags = [e.etag];
    if (e.compressible) {
      if (e.br) etags.push(e.br.etag);
      if (e.gzip) etags.push(e.gzip.etag);
      etags.push(withSuffix(e.etag, 'br'), withSuffix(e.etag, 'gz'));
    }
    const inm = h['if-none-match'];
    if (isNotModified(typeof inm === 'string' ? inm : undefined, typeof h['if-modified-since'] === 'string' ? h['if-modified-since'] : undefined, etags, e.mtimeMs)) {
      ctx.stats.notModified++;
      // The 304 carries the tag a 200 would have carried (RFC 9110 §15.4.5): the negotiated coding's.
      let etag = e.etag;
      if (e.compressible && h['accept-encoding']) {
        const coding = negotiateEncoding(h['accept-encoding'], { br: !!e.br || onTheFly, gzip: !!e.gzip || onTheFly });
        const sibling = coding === 'br' ? e.br : coding === 'gzip' ? e.gzip : undefined;
        if (sibling) etag = sibling.etag;
        else if (coding && ctx.compress.peek(e, coding)) etag = withSuffix(e.etag, coding === 'br' ? 'br' : 'gz');
      }
      const head: Record<string, string> = { etag, 'cache-control': base['cache-control'] ?? 'no-cache', 'last-modified': base['last-modified'] ?? '' };
      if (base.vary) head.vary = base.vary;
      if (base.link) head.link = base.link;
      res.writeHead(304, head);
      res.end();
      return;
    }

    const rangeHeader = h.range;
    if (rangeHeader !== undefined && ifRangeHolds(typeof h['if-range'] === 'string' ? h['if-range'] : undefined, e.etag, base['last-modified'] ?? '')) {
      const r = parseRange(rangeHeader, e.size);
      if (r === 'unsatisfiable') {
        sendError(req, res, 416, { 'content-range': `bytes */${e.size}` });
        return;
      }
      if (r) {
        const head = { ...base, 'content-length': String(r.end - r.start + 1), 'content-range': `bytes ${r.start}-${r.end}/${e.size}` };
        sendBody(ctx, req, res, e, 206, head, r.start, r.end);
        return;
      }
    }

    if (e.compressible && h['accept-encoding']) {
      const coding = negotiateEncoding(h['accept-encoding'], { br: !!e.br || onTheFly, gzip: !!e.gzip || onTheFly });
      if (coding) {
        const sibling = coding === 'br' ? e.br : e.gzip;
        if (sibling) {
          const head = { ...base, 'content-encoding': coding, 'content-length': String(sibling.size), etag: sibling.etag };
          sendBody(ctx, req, res, sibling, 200, head, 0, sibling.size - 1);
          return;
        }
        const ready = ctx.compress.peek(e, coding);
        const send = (buf: Buffer | null) => {
          if (!buf) return sendBody(ctx, req, res, e, 200, base, 0, e.size - 1);
          res.writeHead(200, { ...base, 'content-encoding': coding, 'content-length': String(buf.length), etag: withSuffix(e.etag, coding === 'br' ? 'br' : 'gz') });
          endWith(req, res, buf);
        };
        if (ready) return send(ready);
        ctx.compress.get(e, coding, () => readWhole(e)).then(send, () => send(null));
        return;
      }
    }
  }
  sendBody(ctx, req, res, e, status, base, 0, e.size - 1);
}

/** Writes `head` and bytes [start, end] of the file, from memory when possible. */
function sendBody(ctx: Context, req: Req, res: Res, e: FileEntry, status: number, head: Record<string, string>, start: number, end: number): void {
  if (req.method === 'HEAD') {
    res.writeHead(status, head);
    res.end();
    return;
  }
  const mem = e.body ?? ctx.prefetch.take(e);
  if (mem) {
    res.writeHead(status, head);
    res.end(start === 0 && end === mem.length - 1 ? mem : mem.subarray(start, end + 1));
    return;
  }
  if (e.size === 0) {
    res.writeHead(status, head);
    res.end();
    return;
  }
  // Open first, so a missing file or fd exhaustion becomes a clean status instead of a half response.
  open(e.file, 'r', (err, fd) => {
    if (err) {
      const code = err.code;
      if (code === 'EMFILE' || code === 'ENFILE') {
        ctx.o.onLog({ level: 'warn', code: 'SERVE_EMFILE', message: `out of file descriptors serving ${e.urlPath}`, path: e.urlPath, error: err });
        sendError(req, res, 503, { 'retry-after': '1' });
      } else {
        ctx.o.onLog({ level: 'warn', code: 'SERVE_READ', message: `cannot open ${e.urlPath}`, path: e.urlPath, error: err });
        sendError(req, res, code === 'ENOENT' ? 404 : 500);
      }
      return;
    }
    if (res.destroyed || res.writableEnded) {
      close(fd, () => {});
      return;
    }
    fstat(fd, (serr, st) => {
      if (serr) {
        close(fd, () => {});
        sendError(req, res, 500);
        return;
      }
      let [s, en, code, h] = [start, end, status, head];
      if (st.size !== e.size || st.mtimeMs !== e.mtimeMs) {
        // Changed since the index was built (a rebuild under --watch is on its way): send the bytes on
        // disk whole, with validators that describe them, never a Content-Length that lies.
        ctx.o.onLog({ level: 'debug', code: 'SERVE_READ', message: `${e.urlPath} changed since the index; call reload()`, path: e.urlPath });
        [s, en, code] = [0, st.size - 1, status === 206 ? 200 : status];
        h = { ...head, 'content-length': String(st.size), etag: `"${Math.floor(st.mtimeMs).toString(16)}-${st.size.toString(16)}"`, 'last-modified': new Date(st.mtimeMs).toUTCString() };
        delete h['content-range'];
      }
      res.writeHead(code, h);
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
