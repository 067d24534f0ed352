import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { MANIFEST_FILE, ROUTES_FILE, type BuildManifest } from '@objpack/format';
import type { SiteFile } from '../discover/types.js';
import type { PackagePlan } from '../plan/types.js';
import { tempPathFor, writeFileAtomic } from './atomic-write.js';
import type { BuildCache } from '../cache/build-cache.js';
import { removeStale, removeTempFiles } from './cleanup.js';
import { generationUrl, packageFile, publishedPackages } from './generation.js';
import { readCopied, removeUncopied, writeCopied } from './copied-files.js';
import { headerRules } from '../hosts/header-rules.js';
import type { HostWarning, LinkRules } from '../hosts/host.js';
import { hostOutputs, writeHostOutputs } from '../hosts/outputs.js';
import type { HostProfile } from '../hosts/profile.js';
import { REGISTER_PATH, WORKER_PATH } from '../inject/inject.js';
import { buildManifest, manifestText, routeTable } from './manifest.js';
import { mapLimit } from '../pool/map-limit.js';
import type { WorkerAssets } from './sw-assets.js';
import { NGINX_FILE, PUSH_MANIFEST_FILE, REPORT_FILE } from './output-files.js';
import { pushManifest } from './push-manifest.js';
import { localWriter, type PackageWriter, type WriteJob } from './write-job.js';
import { insideDir, removeOldReport, writeReport } from '../report/report-file.js';

export { NGINX_FILE, PUSH_MANIFEST_FILE, REPORT_FILE };

export interface EmitInput {
  root: string;
  outDir: string;
  plan: PackagePlan;
  /** Site files to copy when writing a full copy (`--out`); omitted for in-place builds. */
  copy?: readonly SiteFile[];
  /**
   * Pages whose HTML must be written: in place, those that gained the registration tag; with `--out`,
   * every page. `key` is the final HTML's digest (a page already written with it is skipped).
   */
  html: ReadonlyArray<{ rel: string; key: string; load(): Promise<Uint8Array> }>;
  worker?: { assets: WorkerAssets; unregister: boolean };
  /** The URL path the host serves the site root at (`/repo/`). Default `/`. */
  base?: string;
  /** What the build learnt of the site's host: for the manifest, the route table and the host files. */
  host: HostProfile;
  cache: BuildCache;
  /** The report (an absolute path) and how to render it from the finished manifest and the host configs. */
  report?: { file: string; render(manifest: BuildManifest, hosts: { linkRules?: LinkRules }): string };
  concurrency?: number;
  /** Where packages are encoded and written (worker threads); default this thread. */
  writer?: PackageWriter;
  /** Called after each file is complete; a throw aborts the build (the previous output stays valid). */
  onFile?(rel: string, done: number, total: number): void;
}

export type { LinkRules };

export interface EmitResult {
  manifest: BuildManifest;
  /** Site-relative files written by this build, in write order. */
  written: string[];
  /** Packages kept byte-for-byte from the previous build. */
  reused: number;
  removed: string[];
  /** Package files of the generation this build replaced that it does not name: the next build removes them. */
  superseded: string[];
  linkTruncated: Array<{ page: string; dropped: number }>;
  /** `--target cloudflare`: pages with a Link rule in `_headers`, of those with preloads. */
  linkRules?: LinkRules;
  /**
   * Host config limits passed (Vercel's rules, `_headers` on Cloudflare Pages), configs left untouched and pages
   * left without a `_headers` rule for a path its hosts read as a pattern.
   */
  hostWarnings: HostWarning[];
}

/**
 * Writes a build's output in an order that keeps every published reference valid: copied site files and
 * the worker first, then shared packages (new content-hashed names), page packages, pages' HTML, host
 * configs, the report, `_objpack/routes.json`, and `objpack-manifest.json` LAST. Each file is written to a
 * temporary name and renamed, so a build killed at any moment leaves only complete files; stale packages
 * are removed only after the new manifest is in place. The caller saves the cache (after noting what was rewritten).
 */
export async function emit(input: EmitInput): Promise<EmitResult> {
  const { outDir, plan, cache } = input;
  const limit = input.concurrency ?? 16;
  const written: string[] = [];
  const total = (input.copy?.length ?? 0) + plan.shared.length + plan.pages.length + input.html.length + 6;
  const done = (rel: string) => {
    written.push(rel);
    input.onFile?.(rel, written.length, total);
  };
  const abs = (rel: string) => path.join(outDir, rel);
  // Unchanged text files are left alone, so a rebuild of an unchanged site touches nothing but the cache.
  const writeText = async (rel: string, text: string, options?: { fsync?: boolean }) => {
    // Read the old file only when its size matches: the manifest of a 10,000-page site is ~15 MB.
    if (
      sizeOf(abs(rel)) === Buffer.byteLength(text) &&
      (await readFile(abs(rel), 'utf8').catch(() => undefined)) === text
    )
      return;
    await writeFileAtomic(abs(rel), text, options);
    done(rel);
  };

  // `--out`: what this build puts there from the site, and what the last one did (recorded with this build's
  // before anything is copied, so a build killed midway still leaves every copied file on the record).
  const copied = input.copy && new Set([...input.copy.map((f) => f.rel), ...input.html.map((h) => h.rel)]);
  const copiedBefore = copied && (await readCopied(outDir));
  if (copied && copiedBefore) await writeCopied(outDir, [...copiedBefore, ...copied]);
  if (input.copy) {
    const pageFiles = new Set(input.html.map((h) => h.rel));
    const files = input.copy.filter((f) => !pageFiles.has(f.rel));
    await mapLimit(files, limit, async (f) => {
      if (await copyIfChanged(f, abs(f.rel))) done(f.rel);
    });
  }
  if (input.worker) {
    const { assets, unregister } = input.worker;
    await writeText(
      WORKER_PATH.slice(1),
      await readFile(unregister ? assets.unregisterWorkerFile : assets.workerFile, 'utf8'),
    );
    await writeText(REGISTER_PATH.slice(1), await readFile(assets.registerFile, 'utf8'));
  }

  // Keys first: the build id is a hash of every package's content, so it is known before any page is encoded.
  const sharedKeys = plan.shared.map((s) => s.key);
  const pageKeys = plan.pages.map((p) => p.key);
  const buildId = createHash('sha256')
    .update([...sharedKeys, ...pageKeys].join('\n'))
    .digest('hex')
    .slice(0, 16);

  // The generation now published: its files stay until the one after this build replaces it.
  const published = publishedPackages(outDir);
  /** By plan URL; `url` is the file's URL where it differs (a page package's generation name). */
  const packages = new Map<string, { bytes: number; digest: string; buildId: string; url: string }>();
  let reused = 0;
  /**
   * `id` is the build id a fresh encoding embeds; a kept package keeps the one it was written with. A page
   * package's file is named for that id (`fileUrl`), a shared package's for its content already.
   */
  const put = async (
    url: string,
    key: string,
    id: string,
    fileUrl: (id: string) => string,
    encode: (target: string) => Promise<{ bytes: number; digest: string }>,
  ) => {
    const prev = cache.package(url);
    if (
      prev &&
      prev.key === key &&
      (prev.buildId !== undefined || id === '') &&
      sizeOf(abs(packageFile(fileUrl(prev.buildId ?? id)))) === prev.bytes
    ) {
      packages.set(url, {
        bytes: prev.bytes,
        digest: prev.digest,
        buildId: prev.buildId ?? id,
        url: fileUrl(prev.buildId ?? id),
      });
      cache.setPackage(url, prev);
      reused++;
      return;
    }
    const rel = packageFile(fileUrl(id));
    const w = await encode(abs(rel));
    packages.set(url, { ...w, buildId: id, url: fileUrl(id) });
    cache.setPackage(url, { key, ...w, buildId: id });
    done(rel);
  };
  const sameUrl = (url: string) => () => url;
  // Plan objects from the pipeline carry no `load` closure (only the patch path's HTML does, and it writes
  // its packages itself), so every job can cross to a worker thread.
  const write = (job: WriteJob) => (input.writer ?? localWriter).write(job);
  const htmlCurrent = (h: EmitInput['html'][number]) => {
    const prev = cache.package(`file:${h.rel}`);
    return prev && prev.key === h.key && sizeOf(abs(h.rel)) === prev.bytes ? prev : undefined;
  };
  const htmlByRel = new Map(input.html.map((h) => [h.rel, h]));
  /** Pages their package's job read, injected and staged in a temporary file (renamed after every package). */
  const staged = new Map<string, { tmp: string; bytes: number; key: string }>();
  await mapLimit(plan.shared, limit, (s) =>
    put(s.url, s.key, '', sameUrl(s.url), (target) =>
      write({ target, buildId: '', sharedRefs: [], objects: s.objects }),
    ),
  );
  let renamed: Promise<unknown> | undefined;
  let texts: ReturnType<typeof outputTexts>;
  // Read before the report is made, which says what `_headers` holds (the copy, if any, is done).
  const existingHeaders = await readFile(abs('_headers'), 'utf8').catch(() => '');
  try {
    await mapLimit(plan.pages, limit, (p, i) =>
      put(
        p.packageUrl,
        pageKeys[i]!,
        buildId,
        (id) => generationUrl(p.packageUrl, id),
        async (target) => {
          const h = htmlByRel.get(p.file);
          const withHtml =
            h && p.objects[0]?.sri === h.key && p.objects[0].rel === h.rel && !htmlCurrent(h) ? h : undefined;
          const w = await write({
            target,
            buildId,
            sharedRefs: p.shared,
            objects: p.objects,
            ...(withHtml ? { html: abs(withHtml.rel) } : {}),
          });
          if (withHtml && w.htmlTemp !== undefined)
            staged.set(withHtml.rel, { tmp: w.htmlTemp, bytes: w.htmlBytes ?? 0, key: withHtml.key });
          return { bytes: w.bytes, digest: w.digest };
        },
      ),
    );
    renamed = mapLimit([...staged], limit, async ([rel, s]) => {
      await rename(s.tmp, abs(rel));
      cache.setPackage(`file:${rel}`, { key: s.key, bytes: s.bytes, digest: s.key });
      done(rel);
    });
    // Made while the pages are renamed: a rename over an old page waits for the disk to free its blocks
    // (0.3 ms each on this VM's ext4, 3 s for 10,000 pages), this thread meanwhile had nothing to do. Only
    // the files' contents are made here; they are written after the pages, manifest last, as before.
    texts = outputTexts(
      buildManifest(plan, buildId, packages, { base: input.base, ...input.host }),
      input,
      existingHeaders,
    );
    await renamed;
  } catch (err) {
    await renamed?.catch(() => undefined);
    await Promise.all([...staged.values()].map((s) => rm(s.tmp, { force: true })));
    throw err;
  }
  await mapLimit(input.html, limit, async (h) => {
    if (staged.has(h.rel)) return;
    const prev = htmlCurrent(h);
    if (prev) return void cache.setPackage(`file:${h.rel}`, prev);
    const body = await h.load();
    await writeFileAtomic(abs(h.rel), body);
    cache.setPackage(`file:${h.rel}`, { key: h.key, bytes: body.length, digest: h.key });
    done(h.rel);
  });

  const { manifest, hosts } = texts;
  const linkRules = hosts.find((o) => o.linkRules)?.linkRules;
  const hostWarnings = await writeHostOutputs(outDir, hosts, writeText, () =>
    writeText(PUSH_MANIFEST_FILE, texts.pushManifest),
  );
  if (input.report && texts.report !== undefined) {
    await writeReport(input.report.file, texts.report);
    const rel = insideDir(outDir, input.report.file);
    if (rel !== undefined) done(rel);
  }
  await writeText(ROUTES_FILE, texts.routes);
  await writeText(MANIFEST_FILE, texts.manifestText, { fsync: true });

  // The generation before last goes; the one just replaced stays for workers still holding its table.
  const named = new Set(Object.values(manifest.packages).map((p) => p.file));
  const removed = [
    ...(await removeStale(outDir, new Set([...named, ...published]))),
    ...(await removeOldReport(outDir, input.report?.file)),
  ];
  const superseded = [...published].filter((f) => !named.has(f));
  if (copied && copiedBefore) {
    removed.push(...(await removeUncopied(outDir, copiedBefore, copied)));
    await writeCopied(outDir, copied);
  }
  await removeTempFiles(outDir, new Set(['.', ...input.html.map((h) => path.posix.dirname(h.rel))]));
  return {
    manifest,
    written,
    reused,
    removed,
    superseded,
    linkTruncated: hosts.find((o) => o.truncated)?.truncated ?? texts.truncated,
    hostWarnings,
    ...(linkRules ? { linkRules } : {}),
  };
}

/** The manifest and the contents of the files made from it (host configs that merge with the site's aside). */
function outputTexts(manifest: BuildManifest, input: EmitInput, existingHeaders: string) {
  const headers = headerRules(manifest);
  const { targets, netlify } = input.host;
  const hosts = hostOutputs({ manifest, headers, existingHeaders, targets, netlify });
  const linkRules = hosts.find((o) => o.linkRules)?.linkRules;
  return {
    manifest,
    hosts,
    truncated: headers.truncated,
    pushManifest: `${JSON.stringify(pushManifest(manifest), null, 2)}\n`,
    report: input.report?.render(manifest, linkRules ? { linkRules } : {}),
    routes: JSON.stringify(routeTable(manifest)),
    manifestText: manifestText(manifest),
  };
}

/** Synchronous: one stat per kept package, and through the thread pool each would cost more than the call. */
function sizeOf(file: string): number | undefined {
  return statSync(file, { throwIfNoEntry: false })?.size;
}

/** Copies a site file unless the copy already has its size and mtime; the copy keeps the source mtime. */
async function copyIfChanged(f: SiteFile, target: string): Promise<boolean> {
  try {
    const st = await stat(target);
    if (st.size === f.bytes && Math.abs(st.mtimeMs - f.mtimeMs) < 1) return false;
  } catch {
    // Not copied yet.
  }
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = tempPathFor(target);
  try {
    await copyFile(f.file, tmp);
    await utimes(tmp, new Date(), new Date(f.mtimeMs));
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return true;
}
