import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';

export type Req = IncomingMessage | Http2ServerRequest;
export type Res = ServerResponse | Http2ServerResponse;

const TEXT: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  416: 'Range Not Satisfiable',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A small self-contained HTML error page (no reflected input: nothing from the request is echoed). */
export function errorBody(status: number): Buffer {
  const t = TEXT[status] ?? 'Error';
  return Buffer.from(
    `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      (`<title>${status} ${t}</title><style>body{font:16px system-ui,sans-serif;margin:15vh ` +
        `auto;max-width:32rem;color:#333}`) +
      `h1{font-weight:500}</style><h1>${status} ${t}</h1><p>objpack serve</p></html>\n`,
  );
}

/** Sends an error response; `extra` adds headers (Allow, Retry-After, Connection). */
export function sendError(req: Req, res: Res, status: number, extra: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = errorBody(status);
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(body.length),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...extra,
  });
  endWith(req, res, body);
}

/** Ends the response with `body`, or with no body for HEAD. */
export function endWith(req: Req, res: Res, body: Uint8Array): void {
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}
