import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import type { BuildManifest } from '@objpack/format';
import { WORKER_SCRIPTS } from './server.js';
import type { BuiltSite, SiteFile, SiteSpec } from './site.js';

const sri = (b: Uint8Array) => `sha256-${createHash('sha256').update(b).digest('base64')}`;
const fileOf = (url: string) => (url.endsWith('/') ? `${url}index.html` : url).slice(1);

/** `objpack-manifest.json` for a test site, as `objpack build` writes it (the part the server reads). */
export function manifestFor(spec: SiteSpec, site: BuiltSite): BuildManifest {
  const objects: BuildManifest['objects'] = {};
  const object = (name: string) => {
    const f = site.files.get(name)!;
    objects[name] = { file: fileOf(name), bytes: f.body.length, digest: sri(f.body), contentType: f.type, as: 'fetch' };
    return name;
  };
  const packages: BuildManifest['packages'] = {};
  const record = (url: string, kind: 'page' | 'shared', names: string[]) => {
    const body = site.files.get(url)!.body;
    packages[url] = { kind, file: url.slice(1), bytes: body.length, digest: sri(body), objects: names.map(object) };
  };
  for (const [group, names] of Object.entries(spec.shared)) record(site.sharedPackage[group]!, 'shared', names);
  const pages: BuildManifest['pages'] = {};
  for (const [url, p] of Object.entries(spec.pages)) {
    record(site.pagePackage[url]!, 'page', [url, ...p.objects]);
    const kept = spec.pageBuilds?.[url];
    if (kept !== undefined && kept !== spec.buildId) packages[site.pagePackage[url]!]!.buildId = kept;
    const shared = p.shared.map((g) => site.sharedPackage[g]!);
    pages[url] = {
      file: fileOf(url),
      package: site.pagePackage[url]!,
      shared,
      closure: [url, ...p.objects, ...p.shared.flatMap((g) => spec.shared[g]!)],
      critical: [],
      preconnect: [],
    };
  }
  return { version: 1, buildId: spec.buildId, pages, packages, objects };
}

/** `objpack serve`'s complete delta listing for the site (what `/_objpack/listing` answers for a small site). */
export function listingFor(
  spec: SiteSpec,
  site: BuiltSite,
): { buildId: string; complete: true; packages: Record<string, Array<[string, string, string]>> } {
  const m = manifestFor(spec, site);
  const packages: Record<string, Array<[string, string, string]>> = {};
  for (const [url, p] of Object.entries(m.packages)) {
    if (p.kind === 'page') packages[url] = p.objects.map((n) => [n, m.objects[n]!.digest, m.objects[n]!.contentType]);
  }
  return { buildId: m.buildId, complete: true, packages };
}

/**
 * Writes a built site (plus extra files) into `root` the way `objpack build` leaves it: files, packages
 * (written after the files, so the server does not take them for stale), routes and the manifest.
 */
export async function writeSite(
  root: string,
  spec: SiteSpec,
  site: BuiltSite,
  extra: Map<string, SiteFile>,
): Promise<void> {
  const put = async (url: string, body: Uint8Array) => {
    const file = join(root, fileOf(url));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, body);
  };
  const all = [...site.files, ...extra];
  for (const [url, f] of all) if (!url.startsWith('/_objpack/')) await put(url, f.body);
  // A file newer than its package makes objpack serve rebuild that package: keep packages the newest.
  await new Promise((r) => setTimeout(r, 20));
  for (const [url, f] of all) if (url.startsWith('/_objpack/')) await put(url, f.body);
  await put('/objpack-manifest.json', Buffer.from(JSON.stringify(manifestFor(spec, site))));
}

/** A TCP proxy in front of a server that counts the bytes the server sends and logs request lines. */
export interface CountingProxy {
  origin: string;
  /** Bytes from the server since the last reset, but those of the worker scripts' update checks. */
  bytes: () => number;
  /**
   * Answered requests since the last reset but the worker scripts' update checks: path, and whether it carried
   * `X-Objpack-Have`.
   */
  requests: () => Array<{ path: string; have: boolean }>;
  reset: () => void;
  close: () => Promise<void>;
}

export async function countingProxy(targetPort: number): Promise<CountingProxy> {
  let requests: Array<{ path: string; have: boolean; answered: boolean; bytes: number }> = [];
  /** Response bytes before any request was seen on their connection (none expected). */
  let stray = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let head = '';
    // Requests on this connection not answered yet. A request that meets a keep-alive connection the server
    // is closing (objpack serve shortens the hold once a page is complete) gets no answer, and Chromium sends
    // it again on a new connection: only answered requests count, so that retry is not counted twice.
    let pending: Array<(typeof requests)[number]> = [];
    // The request the bytes coming back belong to: the connection's latest (responses come in order).
    let current: (typeof requests)[number] | undefined;
    client.on('data', (c: Buffer) => {
      // Requests are small GETs without bodies: split the stream at the blank line after each head.
      head += c.toString('latin1');
      let end: number;
      while ((end = head.indexOf('\r\n\r\n')) !== -1) {
        const h = head.slice(0, end);
        head = head.slice(end + 4);
        const path = /^[A-Z]+ (\S+)/.exec(h)?.[1] ?? '?';
        const r = {
          path: decodeURIComponent(path.split('?')[0]!),
          have: /\r\nx-objpack-have:/i.test(h),
          answered: false,
          bytes: 0,
        };
        requests.push(r);
        pending.push(r);
        current = r;
      }
      upstream.write(c);
    });
    upstream.on('data', (c: Buffer) => {
      if (current) current.bytes += c.length;
      else stray += c.length;
      // Chromium does not pipeline: a response starting answers what this connection asked.
      for (const r of pending) r.answered = true;
      pending = [];
      client.write(c);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => stray + requests.reduce((n, r) => n + (WORKER_SCRIPTS.has(r.path) ? 0 : r.bytes), 0),
    // The worker's own scripts are the browser's update checks (timed by Chromium, not by objpack).
    requests: () =>
      requests.filter((r) => r.answered && !WORKER_SCRIPTS.has(r.path)).map(({ path, have }) => ({ path, have })),
    reset: () => {
      stray = 0;
      requests = [];
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
