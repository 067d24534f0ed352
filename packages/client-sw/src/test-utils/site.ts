import { createHash } from 'node:crypto';
import {
  Decoder,
  encodePackageSync,
  type EncoderObject,
  type PackageIndex,
  type PreloadEntry,
  type RouteTable,
} from '@objpack/format';

/** One file of a test site, served at its URL path. */
export interface SiteFile {
  type: string;
  body: Buffer;
  headers?: Record<string, string>;
}

export interface SiteSpec {
  buildId: string;
  /** The route table says the host serves `/about.html` at `/about` too. */
  cleanUrls?: boolean;
  /** The route table's `bareDirUrls`: the host serves `/dir/`'s page at `/dir` too. */
  bareDirUrls?: boolean;
  /** The route table's `redirects`: URL paths the host answers before its files. */
  redirects?: Array<[string, string]>;
  /** URL path → file. Pages are stored under their URL path (`/`, `/about/`). */
  files: Record<string, SiteFile>;
  /** Page URL path → the page's own objects (after the HTML) and its shared groups. */
  pages: Record<string, { objects: string[]; shared: string[] }>;
  /** Shared group name → objects; each group becomes one content-hashed shared package. */
  shared: Record<string, string[]>;
  /** Object → prefix length carried in its package (a partial entry). */
  partial?: Record<string, number>;
  /**
   * Page URL path → the build id its package's index carries, when an incremental build kept the package
   * from an earlier build (the route table then lists it in `packageBuilds`).
   */
  pageBuilds?: Record<string, string>;
  /** Leave `htmlTypes` out of the route table (a table that does not tell pages' types, or gets one wrong). */
  omitHtmlTypes?: boolean;
  /** Page URL path → the objects the route table tells the worker to announce (`preload`). */
  preload?: Record<string, PreloadEntry[]>;
  /** The route table's `objectCache`: the host's `Cache-Control` rules for objects. */
  objectCache?: RouteTable['objectCache'];
}

export interface BuiltSite {
  files: Map<string, SiteFile>;
  routes: RouteTable;
  /** Page URL path → its page package path. */
  pagePackage: Record<string, string>;
  /** Shared group → its package path. */
  sharedPackage: Record<string, string>;
}

const OBJP = 'application/vnd.objpack';

/** A page file's own headers as the build carries them: lower-case names, sorted. */
const pageHeaders = (f: SiteFile): Array<[string, string]> =>
  Object.entries(f.headers ?? {})
    .map(([k, v]): [string, string] => [k.toLowerCase(), v])
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));

/** What `objpack build` would write for the spec: the files, one package per page, shared packages, routes. */
export function buildSite(spec: SiteSpec): BuiltSite {
  const files = new Map(Object.entries(spec.files));
  const object = (name: string): EncoderObject => {
    const f = spec.files[name];
    if (!f) throw new Error(`test site: no file ${name}`);
    const prefix = spec.partial?.[name];
    if (prefix !== undefined)
      return { name, contentType: f.type, body: f.body.subarray(0, prefix), totalSize: f.body.length };
    // As the build does: a page's host headers (from `_headers`) go into its HTML entry.
    const headers = Object.hasOwn(spec.pages, name) ? pageHeaders(f) : [];
    return { name, contentType: f.type, body: f.body, ...(headers.length > 0 ? { headers } : {}) };
  };
  const packages: string[] = [];
  const sharedPackage: Record<string, string> = {};
  for (const [group, names] of Object.entries(spec.shared)) {
    const bytes = encodePackageSync({ buildId: '', objects: names.map(object) });
    const path = `/_objpack/shared/${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.objp`;
    files.set(path, {
      type: OBJP,
      body: Buffer.from(bytes),
      headers: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    sharedPackage[group] = path;
    packages.push(path);
  }
  const pagePackage: Record<string, string> = {};
  const pages: Record<string, number[]> = {};
  const packageBuilds: Record<string, string> = {};
  for (const [page, p] of Object.entries(spec.pages)) {
    const sharedRefs = p.shared.map((g) => sharedPackage[g]!);
    const buildId = spec.pageBuilds?.[page] ?? spec.buildId;
    const bytes = encodePackageSync({ buildId, sharedRefs, objects: [page, ...p.objects].map(object) });
    const path = `/_objpack/pages${page.endsWith('/') ? `${page}index.html` : page}.objp`;
    files.set(path, { type: OBJP, body: Buffer.from(bytes), headers: { 'cache-control': 'no-cache' } });
    pagePackage[page] = path;
    packages.push(path);
    pages[page] = [packages.length - 1, ...sharedRefs.map((r) => packages.indexOf(r))];
    if (buildId !== spec.buildId) packageBuilds[String(packages.length - 1)] = buildId;
  }
  const routes: RouteTable = {
    version: 1,
    buildId: spec.buildId,
    packages,
    pages,
    ...(Object.keys(packageBuilds).length > 0 ? { packageBuilds } : {}),
    ...(spec.cleanUrls ? { cleanUrls: true as const } : {}),
    ...(spec.bareDirUrls ? { bareDirUrls: true as const } : {}),
    ...(spec.redirects ? { redirects: spec.redirects } : {}),
    ...(spec.objectCache ? { objectCache: spec.objectCache } : {}),
  };
  if (spec.preload) {
    const urls: PreloadEntry[] = [];
    const at = new Map<string, number>();
    const idx = (h: PreloadEntry) => at.get(h[0]) ?? (at.set(h[0], urls.push(h) - 1), urls.length - 1);
    routes.preload = {
      urls,
      pages: Object.fromEntries(Object.entries(spec.preload).map(([page, hints]) => [page, hints.map(idx)])),
    };
  }
  // As the build does: pages that are not UTF-8 HTML are named with their type.
  const htmlTypes = Object.fromEntries(
    Object.keys(spec.pages)
      .map((p) => [p, spec.files[p]!.type])
      .filter(([, t]) => t !== 'text/html; charset=utf-8'),
  );
  if (!spec.omitHtmlTypes && Object.keys(htmlTypes).length > 0) routes.htmlTypes = htmlTypes;
  const sets: Array<Array<[string, string]>> = [];
  const headerPages: Record<string, number> = {};
  for (const page of Object.keys(spec.pages)) {
    const h = pageHeaders(spec.files[page]!);
    if (h.length === 0) continue;
    let i = sets.findIndex((s) => JSON.stringify(s) === JSON.stringify(h));
    if (i < 0) i = sets.push(h) - 1;
    headerPages[page] = i;
  }
  if (sets.length > 0) routes.htmlHeaders = { sets, pages: headerPages };
  files.set('/_objpack/routes.json', {
    type: 'application/json',
    body: Buffer.from(JSON.stringify(routes)),
    headers: { 'cache-control': 'no-cache' },
  });
  return { files, routes, pagePackage, sharedPackage };
}

const html = (s: string) => ({ type: 'text/html; charset=utf-8', body: Buffer.from(s) });
const text = (type: string, s: string) => ({ type, body: Buffer.from(s) });

/** A small deterministic image-like payload (served as an SVG so the page can render it). */
export function svg(color: string, padTo = 0): SiteFile {
  let s =
    `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" ` +
    `fill="${color}"/></svg>`;
  if (padTo > s.length) s = s.replace('</svg>', `<!--${'x'.repeat(padTo - s.length - 7)}--></svg>`);
  return text('image/svg+xml', s);
}

/**
 * The test site: two pages sharing CSS (with an @import and a background image), a module script with an
 * import, a JSON object the page fetches, and a page-specific image. `v` changes visible content.
 */
export function testSite(
  register: Buffer,
  v = 1,
  extra: Partial<SiteSpec> & { prefetch?: boolean; more?: string; speculation?: string; warm?: 'off' } = {},
): SiteSpec {
  const page = (title: string, img: string, more = '') =>
    html(
      `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/site.css"><script type="module" src="/assets/app.js"></script>
<script src="/sw-register.js" data-sw="/sw-test.js" ` +
        (`data-prefetch="${extra.prefetch ? 'on' : 'off'}"` +
          `${extra.speculation ? ` data-speculation="${extra.speculation}"` : ''}` +
          `${extra.warm ? ` data-warm="${extra.warm}"` : ''}`) +
        ` defer></script></head>
<body><h1>${title} v${v}</h1><img id="img" src="${img}" width="40" height="40"><div class="bg">bg</div>
<p id="json"></p><p id="js"></p><a id="next" href="/about/">about</a> <a ` +
        `href="/">home</a>${more}${extra.more ?? ''}</body></html>`,
    );
  return {
    buildId: `build-${v}`,
    files: {
      '/': page('Home', '/img/home.svg'),
      '/about/': page('About', '/img/about.svg'),
      '/assets/site.css': text(
        'text/css',
        `@import url("/assets/base.css");\n` +
          `h1{color:rgb(${v * 40},0,0)}` +
          `.bg{background:url(/assets/bg.svg);width:40px;height:40px}`,
      ),
      '/assets/base.css': text('text/css', `body{font:16px sans-serif;margin:${v * 2}px}`),
      '/assets/app.js': text(
        'text/javascript',
        `import { label } from '/assets/dep.js';\ndocument.getElementById('js').textContent = ` +
          `label;\nfetch('/assets/data.json').then((r) => r.json()).then((d) => { ` +
          `document.getElementById('json').textContent = d.msg; document.documentElement.dataset.ready = '1'; });`,
      ),
      '/assets/dep.js': text('text/javascript', `export const label = 'module v${v}';`),
      '/assets/data.json': text('application/json', JSON.stringify({ msg: `data v${v}` })),
      '/assets/bg.svg': svg(v === 1 ? 'teal' : 'orange'),
      '/img/home.svg': svg('navy'),
      '/img/about.svg': svg(v === 1 ? 'olive' : 'purple'),
      '/sw-register.js': { type: 'text/javascript', body: register },
      ...extra.files,
    },
    pages: {
      '/': { objects: ['/img/home.svg'], shared: ['common'] },
      '/about/': { objects: ['/img/about.svg'], shared: ['common'] },
      ...extra.pages,
    },
    shared: {
      common: [
        '/assets/site.css',
        '/assets/base.css',
        '/assets/app.js',
        '/assets/dep.js',
        '/assets/data.json',
        '/assets/bg.svg',
        '/sw-register.js',
      ],
      ...extra.shared,
    },
    partial: extra.partial,
    ...(extra.preload ? { preload: extra.preload } : {}),
    ...(extra.objectCache ? { objectCache: extra.objectCache } : {}),
  };
}

/**
 * `testSite` with a classic `defer` script on both pages, in a shared package of its own and announced as
 * a script beside `preload`'s entries: it pushes the path of the document it runs in onto `top.ran`.
 */
export function classicScriptSite(
  register: Buffer,
  preload: Record<string, PreloadEntry[]>,
  objectCache: Array<[string, string, string]>,
): SiteSpec {
  const legacy: PreloadEntry = ['/assets/legacy.js', 'script'];
  const body = '(top.ran = top.ran || []).push(location.pathname);';
  return testSite(register, 1, {
    prefetch: true,
    preload: Object.fromEntries(Object.entries(preload).map(([page, list]) => [page, [...list, legacy]])),
    objectCache,
    more: '<script defer src="/assets/legacy.js"></script>',
    files: { '/assets/legacy.js': { type: 'text/javascript', body: Buffer.from(body) } },
    pages: {
      '/': { objects: ['/img/home.svg'], shared: ['common', 'legacy'] },
      '/about/': { objects: ['/img/about.svg'], shared: ['common', 'legacy'] },
    },
    shared: { legacy: ['/assets/legacy.js'] },
  });
}

/** Byte offset of an object's body inside a package file (for cutting or corrupting it in tests). */
export function bodyOffset(pkg: Buffer, name: string): { start: number; size: number; headerBytes: number } {
  let index: PackageIndex | undefined;
  const d = new Decoder({ onIndex: (i) => (index = i) });
  try {
    d.push(pkg);
  } catch {
    // only the index is wanted
  }
  const e = index?.entries.find((x) => x.name === name);
  if (!index || !e) throw new Error(`no ${name} in package`);
  return { start: index.headerBytes + e.offset, size: e.size, headerBytes: index.headerBytes };
}

/** A copy of `buf` with one byte inverted. */
export function flip(buf: Buffer, at: number): Buffer {
  const out = Buffer.from(buf);
  out[at] = out[at]! ^ 0xff;
  return out;
}
