import { readFile } from 'node:fs/promises';
import { ServeError, ServeErrorCode } from './errors.js';
import type { ResolvedOptions } from './options.js';

export interface TlsMaterial {
  cert: string | Buffer;
  key: string | Buffer;
  /** True when generated on the fly (browsers will warn; fine for local use). */
  selfSigned: boolean;
}

/** Certificate and key from options, files, or a fresh self-signed pair for localhost. */
export async function loadTls(o: ResolvedOptions): Promise<TlsMaterial | null> {
  if (!o.https) return null;
  if (typeof o.https === 'object') {
    const pem = (v: string | Uint8Array) => (typeof v === 'string' ? v : Buffer.from(v));
    return { cert: pem(o.https.cert), key: pem(o.https.key), selfSigned: false };
  }
  if (o.cert && o.key) {
    try {
      const [cert, key] = await Promise.all([readFile(o.cert), readFile(o.key)]);
      return { cert, key, selfSigned: false };
    } catch (cause) {
      throw new ServeError(ServeErrorCode.TLS, `cannot read certificate ${o.cert} or key ${o.key}`, { cause });
    }
  }
  try {
    // Loaded only when needed: its X.509 stack costs ~100 ms of start-up that plain HTTP never uses.
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 30 * 24 * 3600 * 1000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    });
    return { cert: pems.cert, key: pems.private, selfSigned: true };
  } catch (cause) {
    throw new ServeError(ServeErrorCode.TLS, 'cannot generate a self-signed certificate', { cause });
  }
}
