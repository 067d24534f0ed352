import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { encodePackageSync, sriToDigest, toBase64, type EncoderObject } from '@objpack/format';
import { ServeError, ServeErrorCode } from './errors.js';
import type { PageInfo, SiteManifest } from './site-manifest.js';
import type { FileEntry, Route } from './site-index.js';
import { namePath, stripQuery } from './url-path.js';

/** Digests a client says it holds: full base64 SHA-256 (optionally `sha256-…`) or prefixes of ≥ 8 chars. */
export type HaveSet = readonly string[];

const MAX_HAVE = 2000;

/** Parses `X-Objpack-Have`; malformed items are ignored (a delta is an optimisation, never a failure). */
export function parseHave(header: string | undefined): HaveSet | null {
  if (header === undefined) return null;
  const out: string[] = [];
  for (const raw of header.split(',')) {
    let t = raw.trim();
    if (t.startsWith('sha256-')) t = t.slice(7);
    t = t.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
    if (t.length >= 8 && t.length <= 43 && /^[A-Za-z0-9+/]+$/.test(t)) out.push(t);
    if (out.length >= MAX_HAVE) break;
  }
  return out;
}

/** Membership test for a have-list: full digests by hash lookup, prefixes by scan (usually few). */
function heldTest(have: HaveSet): (digestB64: string) => boolean {
  const full = new Set(have.filter((h) => h.length === 43));
  const prefixes = have.filter((h) => h.length < 43);
  return (b64) => full.has(b64.slice(0, 43)) || prefixes.some((h) => b64.startsWith(h));
}

/** SHA-256 of a file entry, computed once per index generation. */
export async function entryDigest(e: FileEntry): Promise<Uint8Array> {
  if (!e.digest) {
    const bytes = e.body ?? (await readFile(e.file));
    e.digest = new Uint8Array(createHash('sha256').update(bytes).digest());
  }
  return e.digest;
}

/**
 * Pages whose package no longer matches the files on disk (a file missing, resized, or newer than the
 * package with a different digest). Only files newer than the package are hashed, so an untouched site
 * costs one comparison per object.
 */
export async function findStalePages(site: SiteManifest, routes: Map<string, Route>): Promise<Set<PageInfo>> {
  const stale = new Set<PageInfo>();
  const seen = new Set<PageInfo>();
  for (const info of site.pages.values()) {
    if (seen.has(info)) continue;
    seen.add(info);
    const pkg = routes.get(info.packagePath);
    if (!pkg || !('entry' in pkg)) {
      stale.add(info);
      continue;
    }
    for (const name of info.packageObjects) {
      const r = routes.get(namePath(name));
      const rec = site.manifest.objects[stripQuery(name)];
      if (!r || !('entry' in r)) {
        stale.add(info);
        break;
      }
      if (!rec) continue;
      if (rec.bytes !== r.entry.size) {
        stale.add(info);
        break;
      }
      if (r.entry.mtimeMs > pkg.entry.mtimeMs) {
        const want = sriToDigest(rec.digest);
        const got = await entryDigest(r.entry);
        if (!want || toBase64(want) !== toBase64(got)) {
          stale.add(info);
          break;
        }
      }
    }
  }
  return stale;
}

/** An assembled package and the validator that names its exact bytes. */
export interface AssembledPackage {
  bytes: Uint8Array;
  etag: string;
  /** Object names it carries. */
  objects: string[];
}

/**
 * Assembles the page's package from the current files, leaving out objects whose digest the client holds.
 * Bodies come from memory when the index has them; others are read now. `maxBytes` bounds the result.
 */
export async function assemblePackage(
  info: PageInfo,
  site: SiteManifest,
  routes: Map<string, Route>,
  have: HaveSet | null,
  maxBytes: number,
  bodyOf: (e: FileEntry) => Promise<Uint8Array> = async (e) => e.body ?? (await readFile(e.file)),
): Promise<AssembledPackage> {
  const objects: EncoderObject[] = [];
  const names: string[] = [];
  const tag = createHash('sha256');
  let total = 0;
  const held = have ? heldTest(have) : () => false;
  for (const name of info.packageObjects) {
    const r = routes.get(namePath(name));
    if (!r || !('entry' in r)) continue; // vanished since the build: the page still loads it over the network
    const digest = await entryDigest(r.entry);
    const b64 = toBase64(digest);
    const rec = site.manifest.objects[stripQuery(name)];
    const headers = rec?.headers && rec.headers.length > 0 ? rec.headers : undefined;
    // An entry with its own headers (a page's CSP, COOP/COEP) is always sent: the client's held copy has
    // the headers of the build it came from, which may differ with the same bytes.
    if (held(b64) && !headers) continue;
    total += r.entry.size;
    if (total > maxBytes)
      throw new ServeError(ServeErrorCode.DYNAMIC, `package for ${info.url} would exceed ${maxBytes} bytes`, {
        path: info.url,
      });
    const body = await bodyOf(r.entry);
    if (body.length !== r.entry.size)
      throw new ServeError(ServeErrorCode.DYNAMIC, `${name} changed while being packaged`, { path: name });
    objects.push({
      name,
      contentType: rec?.contentType ?? r.entry.contentType,
      ...(headers ? { headers } : {}),
      body,
      digest,
    });
    names.push(name);
    tag.update(`${name}\0${b64}\0${headers ? JSON.stringify(headers) : ''}\0`);
  }
  // The package's index names the build: a validator of another build's package must not match.
  tag.update(site.manifest.buildId);
  const bytes = encodePackageSync({ buildId: site.manifest.buildId, sharedRefs: info.page.shared, objects });
  return { bytes, etag: `"d-${tag.digest('base64url').slice(0, 27)}"`, objects: names };
}
