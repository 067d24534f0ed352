/**
 * Parses each stylesheet and module once per build (memoized by path; parse results cached by content
 * hash across builds) and resolves its references relative to its own URL. Warnings about a shared
 * stylesheet are reported once, not once per page that uses it.
 */
import { extractClassic } from './classic-extract.js';
import type { ClassicExtract } from './classic-extract.js';
import { extractCss } from './css-extract.js';
import type { CssExtract } from './css-extract.js';
import { WarningCode, warn } from '../diagnostics/warnings.js';
import { extractJs } from './js-extract.js';
import type { JsExtract } from './js-extract.js';
import { EXTRACT_VERSION } from './page-extract.js';
import type { AssetKind, AssetResult } from '../pool/pool-jobs.js';
import { contentHash, decodeCss, readFailure, readSiteFile } from './read-site-file.js';
import { reportRef } from './report-ref.js';
import { statKey as statKeyOf } from './stat-key.js';
import type { UrlResolver } from './resolve-url.js';
import { encodePath } from './site-origin.js';
import type { PreloadCors } from '@objpack/format';
import type { Diagnostic, DiscoverCache, SiteFile } from './types.js';
import type { CodeRanges } from './unicode-range.js';

/** A resolved, existing local reference. */
export interface Dep {
  url: string;
  path: string;
  file: SiteFile;
  line: number;
  cond?: string;
  /** For @import: its media query list. */
  media?: string;
  /** The referring element's `crossorigin` state (HTML references only). */
  cors?: PreloadCors;
  /** For fonts: the @font-face's `unicode-range`. */
  range?: CodeRanges;
  /** For a dynamic import: it runs while the importing module loads (js-extract.ts `eager`). */
  eager?: true;
  /** For fonts: the face's family (lower-cased) and whether it is italic or oblique. */
  family?: string;
  slanted?: true;
}

export interface SheetInfo {
  imports: Dep[];
  fonts: Dep[];
  images: Dep[];
  cross: string[];
  /** Non-ASCII characters the sheet renders itself (see CssExtract.chars). */
  chars?: string;
  /** Selectors of rules that make text italic or oblique (see CssExtract.slanted). */
  slanted?: string[];
}

export interface ModuleInfo {
  imports: Dep[];
  dynamic: Dep[];
  /** Bare specifiers ('vue'), resolved per page through its import map. */
  bare: Array<{ spec: string; line: number; dynamic: boolean; eager?: true }>;
  cross: string[];
}

const EMPTY_SHEET: SheetInfo = { imports: [], fonts: [], images: [], cross: [] };
const EMPTY_MODULE: ModuleInfo = { imports: [], dynamic: [], bare: [], cross: [] };

export function isJavaScript(file: SiteFile): boolean {
  return /^(text|application)\/(javascript|ecmascript)/.test(file.contentType) || /\.(m?js)$/.test(file.rel);
}

export function isCss(file: SiteFile): boolean {
  return file.contentType.startsWith('text/css');
}

export class AssetAnalyzer {
  private readonly sheets = new Map<string, Promise<SheetInfo>>();
  private readonly modules = new Map<string, Promise<ModuleInfo>>();
  private readonly classics = new Map<string, Promise<ClassicExtract>>();
  /** Paths that could not be read: left out of every closure. */
  readonly gone = new Set<string>();

  /**
   * `remote` reads and parses on the build's thread pool: without a previous build's results, all ~7,000
   * stylesheets and modules of a big site would be read and parsed on the thread that assembles closures.
   */
  constructor(
    private readonly resolver: UrlResolver,
    private readonly diagnostics: Diagnostic[],
    private readonly cache: DiscoverCache | undefined,
    private readonly remote?: (file: string, as: AssetKind, hash: boolean) => Promise<AssetResult>,
  ) {}

  /** Whether this build parsed the file as a stylesheet, a module or a classic script. */
  parsedAs(path: string): 'sheet' | 'module' | 'classic' | undefined {
    if (this.sheets.has(path)) return 'sheet';
    if (this.modules.has(path)) return 'module';
    return this.classics.has(path) ? 'classic' : undefined;
  }

  sheet(file: SiteFile): Promise<SheetInfo> {
    let p = this.sheets.get(file.path);
    if (!p) this.sheets.set(file.path, (p = this.loadSheet(file)));
    return p;
  }

  module(file: SiteFile): Promise<ModuleInfo> {
    let p = this.modules.get(file.path);
    if (!p) this.modules.set(file.path, (p = this.loadModule(file)));
    return p;
  }

  /**
   * What a classic script says about webpack's chunk loading (classic-extract.ts). Optional reading: one that
   * cannot be read says nothing here and stays in its pages' closures, for the build to report.
   */
  classic(file: SiteFile): Promise<ClassicExtract> {
    let p = this.classics.get(file.path);
    if (!p) this.classics.set(file.path, (p = this.parsed(file, 'classic', extractClassic, true).then((c) => c ?? {})));
    return p;
  }

  /**
   * Reads and parses a file through the cache; undefined if it could not be read, which (unless `optional`) is
   * reported and leaves the file out of every closure.
   */
  private async parsed<T>(
    file: SiteFile,
    kind: AssetKind,
    parse: (text: string) => T,
    optional = false,
  ): Promise<T | undefined> {
    const statKey = statKeyOf(file.rel, file);
    const known = this.cache?.get(statKey);
    if (typeof known === 'string') {
      const hit = this.cache?.get(`${kind}${EXTRACT_VERSION}:${known}`);
      if (hit !== undefined) return hit as T;
    }
    if (this.remote && !this.cache?.warm) {
      const r = await this.remote(file.file, kind, this.cache !== undefined);
      if (r.error && optional) return undefined;
      if (r.error) {
        this.diagnostics.push(
          readFailure(
            file.rel,
            Object.assign(new Error(r.error.message), r.error.code !== undefined ? { code: r.error.code } : {}),
          ),
        );
        this.gone.add(file.path);
        return undefined;
      }
      if (this.cache) {
        this.cache.set(`${kind}${EXTRACT_VERSION}:${r.hash}`, r.extract);
        this.cache.set(statKey, r.hash);
      }
      return r.extract as T;
    }
    const bytes = await readSiteFile(file);
    if (!(bytes instanceof Uint8Array) && optional) return undefined;
    if (!(bytes instanceof Uint8Array)) {
      this.diagnostics.push(bytes);
      this.gone.add(file.path);
      return undefined;
    }
    const hash = this.cache ? contentHash(bytes) : '';
    const cached = this.cache?.get(`${kind}${EXTRACT_VERSION}:${hash}`);
    if (cached !== undefined) {
      this.cache?.set(statKey, hash);
      return cached as T;
    }
    const result = parse(kind === 'css' ? decodeCss(bytes) : bytes.toString('utf8'));
    if (this.cache) {
      this.cache.set(`${kind}${EXTRACT_VERSION}:${hash}`, result);
      this.cache.set(statKey, hash);
    }
    return result;
  }

  private async loadSheet(file: SiteFile): Promise<SheetInfo> {
    const css = await this.parsed<CssExtract>(file, 'css', (t) => extractCss(t));
    if (!css) return EMPTY_SHEET;
    return this.resolveSheet(css, this.resolver.absolute(encodePath(file.path)), file.rel, 0);
  }

  /** Resolves a parsed sheet's references; `lineOffset` places inline `<style>` lines in their page. */
  resolveSheet(css: CssExtract, base: URL, rel: string, lineOffset: number): SheetInfo {
    if (css.parseErrors > 0 && css.firstError) {
      const line = css.firstError.line + lineOffset;
      this.diagnostics.push(
        warn(
          WarningCode.MALFORMED_CSS,
          { at: `${rel}:${line}`, errors: css.parseErrors, first: css.firstError.message },
          { file: rel, line },
        ),
      );
    }
    const info: SheetInfo = { imports: [], fonts: [], images: [], cross: [] };
    if (css.chars !== undefined) info.chars = css.chars;
    if (css.slanted) info.slanted = css.slanted;
    for (const ref of css.refs) {
      const line = ref.line + lineOffset;
      const candidates = [ref.v, ...(ref.alts ?? [])];
      let found: Dep | undefined;
      for (const candidate of candidates) {
        const r = this.resolver.resolve(candidate, base);
        if (r.kind === 'local') {
          found = { url: r.url, path: r.path, file: r.file, line };
          break;
        }
        if (r.kind === 'cross') info.cross.push(r.host);
        if (candidate === ref.v && candidates.length === 1) reportRef(this.diagnostics, r, candidate, rel, line);
      }
      if (!found) {
        if (candidates.length > 1) reportRef(this.diagnostics, this.resolver.resolve(ref.v, base), ref.v, rel, line);
        continue;
      }
      if (ref.cond) found.cond = ref.cond;
      if (ref.media !== undefined) found.media = ref.media;
      if (ref.range) found.range = ref.range;
      if (ref.family !== undefined) found.family = ref.family;
      if (ref.slanted) found.slanted = true;
      (ref.k === 'import' ? info.imports : ref.k === 'font' ? info.fonts : info.images).push(found);
    }
    return info;
  }

  private async loadModule(file: SiteFile): Promise<ModuleInfo> {
    const js = await this.parsed<JsExtract>(file, 'js', (t) => extractJs(t));
    if (!js) return EMPTY_MODULE;
    return this.resolveModule(js, this.resolver.absolute(encodePath(file.path)), file.rel, 0);
  }

  resolveModule(js: JsExtract, base: URL, rel: string, lineOffset: number): ModuleInfo {
    if (js.error) {
      const line = js.error.line + lineOffset;
      this.diagnostics.push(
        warn(WarningCode.MALFORMED_JS, { at: `${rel}:${line}`, error: js.error.message }, { file: rel, line }),
      );
    }
    const info: ModuleInfo = { imports: [], dynamic: [], bare: [], cross: [] };
    for (const ref of js.refs) {
      const line = ref.line + lineOffset;
      if (isBare(ref.v)) {
        info.bare.push({ spec: ref.v, line, dynamic: ref.dynamic, ...(ref.eager ? { eager: true as const } : {}) });
        continue;
      }
      const r = this.resolver.resolve(ref.v, base);
      if (r.kind === 'local') {
        const dep: Dep = { url: r.url, path: r.path, file: r.file, line };
        if (ref.eager) dep.eager = true;
        (ref.dynamic ? info.dynamic : info.imports).push(dep);
      } else if (r.kind === 'cross') info.cross.push(r.host);
      else reportRef(this.diagnostics, r, ref.v, rel, line);
    }
    return info;
  }
}

/** A module specifier that is neither a URL nor a relative/absolute path: only an import map resolves it. */
export function isBare(spec: string): boolean {
  return !(
    spec.startsWith('/') ||
    spec.startsWith('./') ||
    spec.startsWith('../') ||
    /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(spec)
  );
}
