// packages/cli/src/discover/assemble-closure.ts
import { parseSrcset } from "srcset";

// packages/cli/src/discover/css-extract.ts
import { generate, parse, walk } from "css-tree";
var FONT_FORMATS = /* @__PURE__ */ new Set(["woff2", "woff", "truetype", "opentype", "collection", "woff2-variations", "woff-variations", "truetype-variations", "opentype-variations"]);
var IMAGE_SET = /* @__PURE__ */ new Set(["image-set", "-webkit-image-set"]);
function extractCss(source, declarations = false) {
  const out = { refs: [], parseErrors: 0 };
  let ast;
  try {
    ast = parse(source, {
      context: declarations ? "declarationList" : "stylesheet",
      positions: true,
      parseRulePrelude: false,
      parseCustomProperty: false,
      onParseError(err) {
        out.parseErrors++;
        const e = err;
        out.firstError ??= { message: e.message, line: e.line ?? 1, column: e.column ?? 1 };
      }
    });
  } catch (err) {
    out.parseErrors++;
    out.firstError ??= { message: err.message, line: 1, column: 1 };
    return out;
  }
  const lineOf = (node) => node.loc?.start.line ?? 1;
  walk(ast, {
    enter(node) {
      if (node.type === "Atrule") {
        const name = node.name.toLowerCase();
        if (name === "namespace") return walk.skip;
        if (name === "import" && node.prelude && node.prelude.type === "AtrulePrelude") {
          const first = node.prelude.children.first;
          if (first && (first.type === "String" || first.type === "Url")) {
            const ref = { k: "import", v: first.value, line: lineOf(node) };
            node.prelude.children.forEach((c) => {
              if (c.type === "MediaQueryList") ref.media = generate(c);
            });
            out.refs.push(ref);
          }
          return walk.skip;
        }
        return void 0;
      }
      if (node.type === "Declaration") {
        if (this.atrule?.name.toLowerCase() === "font-face" && node.property.toLowerCase() === "src" && node.value.type === "Value") {
          fontSources(node.value.children, lineOf(node));
          return walk.skip;
        }
        return void 0;
      }
      if (node.type === "Url") {
        const inSet = this.function !== null && IMAGE_SET.has(this.function.name.toLowerCase());
        const cursor = this.declaration?.property.toLowerCase() === "cursor";
        const ref = { k: "image", v: node.value, line: lineOf(node) };
        if (inSet) ref.cond = "srcset-candidate";
        else if (cursor) ref.cond = "cursor";
        out.refs.push(ref);
        return void 0;
      }
      if (node.type === "String" && this.function !== null && IMAGE_SET.has(this.function.name.toLowerCase())) {
        out.refs.push({ k: "image", v: node.value, line: lineOf(node), cond: "srcset-candidate" });
      }
      return void 0;
    }
  });
  function fontSources(children, line) {
    const urls = [];
    let url;
    let supported = true;
    const flush = () => {
      if (url !== void 0 && supported) urls.push(url);
      url = void 0;
      supported = true;
    };
    children.forEach((child) => {
      if (child.type === "Operator" && child.value === ",") flush();
      else if (child.type === "Url") url = child.value;
      else if (child.type === "Function" && child.name.toLowerCase() === "format") supported = formatSupported(child);
    });
    flush();
    const [first, ...alts] = urls;
    if (first !== void 0) out.refs.push(alts.length > 0 ? { k: "font", v: first, line, alts } : { k: "font", v: first, line });
  }
  return out;
}
function formatSupported(fn) {
  let ok = false;
  fn.children.forEach((c) => {
    if (c.type === "String" || c.type === "Identifier") {
      const v = (c.type === "String" ? c.value : c.name).toLowerCase();
      if (FONT_FORMATS.has(v)) ok = true;
    }
  });
  return ok;
}

// packages/cli/src/discover/diagnostic-codes.ts
var DiscoverCodes = {
  /** A reference resolves to a same-origin URL with no file behind it. */
  MISSING_REF: "OBJPACK_W_MISSING_REF",
  /** A relative reference climbs above the site root, or decodes to a path separator (`%2F`, `..`). */
  REF_ESCAPES_ROOT: "OBJPACK_W_REF_ESCAPES_ROOT",
  /** A symlink inside the site points outside it: never followed, never read. */
  SYMLINK_ESCAPES_ROOT: "OBJPACK_W_SYMLINK_ESCAPES_ROOT",
  /** A reference is not a URL a browser can resolve (bad percent-encoding, bad host…). */
  INVALID_URL: "OBJPACK_W_INVALID_URL",
  /** A page references a dotfile (`.env`, `.git/…`): dotfiles are never packaged. */
  DOTFILE_REF: "OBJPACK_W_DOTFILE_REF",
  /** The HTML tokenizer reported parse errors; discovery continued with what a browser would build. */
  MALFORMED_HTML: "OBJPACK_W_MALFORMED_HTML",
  /** css-tree reported errors in a stylesheet or style attribute; the rest of the sheet was used. */
  MALFORMED_CSS: "OBJPACK_W_MALFORMED_CSS",
  /** es-module-lexer could not parse a module; its imports are unknown. */
  MALFORMED_JS: "OBJPACK_W_MALFORMED_JS",
  /** A file was listed but had gone when it was read (deleted mid-build). */
  FILE_VANISHED: "OBJPACK_W_FILE_VANISHED",
  /** A file exists but cannot be read (permissions, I/O error). */
  UNREADABLE: "OBJPACK_W_UNREADABLE",
  /** A file or directory name is not valid UTF-8, so it has no URL; skipped. */
  NON_UTF8_NAME: "OBJPACK_W_NON_UTF8_NAME",
  /** Not a regular file (FIFO, socket, device): skipped. */
  NOT_A_FILE: "OBJPACK_W_NOT_A_FILE",
  /** A module imports a bare specifier with no import map entry: the browser would fail too. */
  BARE_SPECIFIER: "OBJPACK_W_BARE_SPECIFIER",
  /** The site root does not exist. */
  ROOT_NOT_FOUND: "OBJPACK_E_ROOT_NOT_FOUND",
  /** The site root exists but is not a directory. */
  ROOT_NOT_DIRECTORY: "OBJPACK_E_ROOT_NOT_DIRECTORY",
  /** The site root holds no HTML page at all (empty dir, or a wrong path in the pipeline). */
  NO_PAGES: "OBJPACK_E_NO_PAGES",
  /** `--origin` is not an absolute http(s) URL. */
  BAD_ORIGIN: "OBJPACK_E_BAD_ORIGIN",
  /** `tracePages` needs Chromium and could not start it. */
  NO_BROWSER: "OBJPACK_E_NO_BROWSER"
};
var DiscoverError = class extends Error {
  code;
  constructor(code, message, options) {
    super(message, options);
    this.name = "DiscoverError";
    this.code = code;
  }
};
function warning(code, message, where = {}) {
  return { code, severity: "warning", message, ...where };
}
function error(code, message, where = {}) {
  return { code, severity: "error", message, ...where };
}

// packages/cli/src/discover/js-extract.ts
import { init, parse as parse2 } from "es-module-lexer";
var jsReady = init();
function extractJs(source) {
  const out = { refs: [] };
  let imports;
  try {
    [imports] = parse2(source);
  } catch (err) {
    const idx = err.idx ?? 0;
    out.error = { message: err.message, line: lineAt(source, idx) };
    return out;
  }
  let lastIdx = 0;
  let lastLine = 1;
  for (const imp of imports) {
    if (imp.type === "import-meta" || typeof imp.specifier !== "string") continue;
    if (imp.type !== "dynamic" && imp.typeOnly) continue;
    if (imp.importStart < lastIdx) {
      lastIdx = 0;
      lastLine = 1;
    }
    lastLine += countNewlines(source, lastIdx, imp.importStart);
    lastIdx = imp.importStart;
    out.refs.push({ v: imp.specifier, line: lastLine, dynamic: imp.type === "dynamic" });
  }
  return out;
}
function countNewlines(s, from, to) {
  let n = 0;
  for (let i = s.indexOf("\n", from); i !== -1 && i < to; i = s.indexOf("\n", i + 1)) n++;
  return n;
}
function lineAt(s, idx) {
  return 1 + countNewlines(s, 0, idx);
}

// packages/cli/src/discover/html-extract.ts
import { Tokenizer, TokenizerMode, foreignContent, html } from "parse5";
var $ = html.TAG_ID;
var NS = html.NS;
var CLASSIC_TYPES = /* @__PURE__ */ new Set(["", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript", "module"]);
var ICON_RELS = ["icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon"];
function attr(token, name) {
  for (const a of token.attrs) if (a.name === name) return a.value;
  return void 0;
}
function extractHtml(source) {
  const refs = [];
  const out = { refs, parseErrors: 0 };
  const nsStack = [NS.HTML];
  let inForeign = false;
  let templateDepth = 0;
  let pictureDepth = 0;
  let mediaParent;
  let base;
  let capture;
  const push = (ref) => {
    if (templateDepth > 0) return;
    if (base !== void 0) ref.base = base;
    refs.push(ref);
  };
  const enterNs = (ns) => {
    nsStack.unshift(ns);
    inForeign = ns !== NS.HTML;
    tokenizer.inForeignNode = inForeign;
  };
  const leaveNs = () => {
    nsStack.shift();
    inForeign = nsStack[0] !== NS.HTML;
    tokenizer.inForeignNode = inForeign;
  };
  const text = (token) => {
    if (capture) capture.text += token.chars;
  };
  const handler = {
    onComment() {
    },
    onDoctype() {
    },
    onEof() {
    },
    onCharacter: text,
    onWhitespaceCharacter: text,
    onNullCharacter: text,
    onParseError(err) {
      out.parseErrors++;
      out.firstError ??= { code: err.code, line: err.startLine, column: err.startCol };
    },
    onEndTag(token) {
      if (capture && token.tagName === capture.end) {
        if (capture.text.trim() !== "") {
          const ref = { k: capture.kind, v: capture.text, line: capture.line };
          if (capture.media !== void 0) ref.media = capture.media;
          push(ref);
        }
        capture = void 0;
      }
      let tn = token.tagID;
      if (!inForeign) {
        const previous = nsStack[1];
        if (previous === NS.SVG) {
          const adjusted = foreignContent.SVG_TAG_NAMES_ADJUSTMENT_MAP.get(token.tagName);
          if (adjusted) tn = html.getTagID(adjusted);
        }
        if (previous && foreignContent.isIntegrationPoint(tn, previous, token.attrs)) leaveNs();
        else if (tn === $.TEMPLATE) templateDepth = Math.max(0, templateDepth - 1);
        else if (token.tagName === "picture") pictureDepth = Math.max(0, pictureDepth - 1);
        else if (token.tagName === "video" || token.tagName === "audio") mediaParent = void 0;
      } else if (tn === $.SVG && nsStack[0] === NS.SVG || tn === $.MATH && nsStack[0] === NS.MATHML) {
        leaveNs();
      }
    },
    onStartTag(token) {
      const line = tokenizer.preprocessor.line;
      let tn = token.tagID;
      if (tn === $.SVG) enterNs(NS.SVG);
      else if (tn === $.MATH) enterNs(NS.MATHML);
      if (inForeign) {
        if (foreignContent.causesExit(token)) {
          leaveNs();
        } else {
          const ns = nsStack[0];
          if (ns === NS.MATHML) foreignContent.adjustTokenMathMLAttrs(token);
          else if (ns === NS.SVG) {
            foreignContent.adjustTokenSVGTagName(token);
            foreignContent.adjustTokenSVGAttrs(token);
          }
          foreignContent.adjustTokenXMLAttrs(token);
          tn = token.tagID;
          foreignStartTag(token, line);
          if (!token.selfClosing && foreignContent.isIntegrationPoint(tn, ns, token.attrs)) enterNs(NS.HTML);
          return;
        }
      }
      if (tn === $.IMAGE) tn = $.IMG;
      switch (tn) {
        case $.TEXTAREA:
        case $.TITLE:
          tokenizer.state = TokenizerMode.RCDATA;
          break;
        case $.PLAINTEXT:
          tokenizer.state = TokenizerMode.PLAINTEXT;
          break;
        case $.SCRIPT:
          tokenizer.state = TokenizerMode.SCRIPT_DATA;
          break;
        case $.STYLE:
        case $.IFRAME:
        case $.XMP:
        case $.NOEMBED:
        case $.NOFRAMES:
        case $.NOSCRIPT:
          tokenizer.state = TokenizerMode.RAWTEXT;
          break;
        default:
      }
      htmlStartTag(token, tn, line);
    }
  };
  const tokenizer = new Tokenizer({ sourceCodeLocationInfo: false }, handler);
  function styleAttr(token, line) {
    const style = attr(token, "style");
    if (style && /url\(|image-set\(/i.test(style)) push({ k: "style-attr", v: style, line });
  }
  function foreignStartTag(token, line) {
    styleAttr(token, line);
    if (nsStack[0] !== NS.SVG) return;
    const name = token.tagName;
    if (name === "image" || name === "feImage" || name === "use") {
      const plain = token.attrs.find((a) => a.name === "href" && !a.prefix);
      const xlink = token.attrs.find((a) => a.name === "href" && a.prefix === "xlink");
      const href = (plain ?? xlink)?.value;
      if (href !== void 0 && href.trim() !== "" && !href.trim().startsWith("#")) push({ k: name === "use" ? "svg-use" : "svg-image", v: href, line });
    } else if (name === "style") {
      capture = { kind: "style", line, text: "", end: "style" };
    }
  }
  function htmlStartTag(token, tn, line) {
    styleAttr(token, line);
    switch (tn) {
      case $.BASE: {
        const href = attr(token, "href");
        if (href !== void 0 && base === void 0 && templateDepth === 0) base = href;
        break;
      }
      case $.LINK:
        return linkTag(token, line);
      case $.STYLE:
        capture = { kind: "style", line, text: "", end: "style", media: attr(token, "media") };
        break;
      case $.SCRIPT:
        return scriptTag(token, line);
      case $.IMG: {
        const lazy = attr(token, "loading")?.toLowerCase() === "lazy" ? "lazy" : void 0;
        const srcset = attr(token, "srcset");
        const src = attr(token, "src");
        if (srcset !== void 0) push({ k: "srcset", v: srcset, line, cond: lazy ?? "srcset-candidate" });
        if (src !== void 0) push({ k: "img", v: src, line, cond: lazy ?? (srcset !== void 0 || pictureDepth > 0 ? "srcset-candidate" : void 0) });
        break;
      }
      case $.SOURCE: {
        if (pictureDepth > 0) {
          const srcset = attr(token, "srcset");
          if (srcset !== void 0) push({ k: "srcset", v: srcset, line, cond: "srcset-candidate", media: attr(token, "media") });
        } else if (mediaParent) {
          const src = attr(token, "src");
          if (src !== void 0) push({ k: mediaParent, v: src, line, cond: "media" });
        }
        break;
      }
      case $.UNKNOWN:
        if (token.tagName === "picture") pictureDepth++;
        else if (token.tagName === "video" || token.tagName === "audio") mediaTag(token, line);
        break;
      case $.TRACK: {
        const src = attr(token, "src");
        if (src !== void 0) push({ k: "track", v: src, line, cond: attr(token, "default") === void 0 ? "track" : void 0 });
        break;
      }
      case $.OBJECT: {
        const data = attr(token, "data");
        if (data !== void 0) push({ k: "object", v: data, line, as: attr(token, "type") });
        break;
      }
      case $.EMBED: {
        const src = attr(token, "src");
        if (src !== void 0) push({ k: "object", v: src, line, as: attr(token, "type") });
        break;
      }
      case $.INPUT: {
        const src = attr(token, "src");
        if (src !== void 0 && attr(token, "type")?.toLowerCase() === "image") push({ k: "img", v: src, line });
        break;
      }
      case $.IFRAME:
      case $.FRAME: {
        const src = attr(token, "src");
        if (src !== void 0) push({ k: "iframe", v: src, line });
        break;
      }
      case $.A:
      case $.AREA: {
        const href = attr(token, "href");
        if (href !== void 0) push({ k: "anchor", v: href, line });
        break;
      }
      case $.BODY:
      case $.TABLE:
      case $.TD:
      case $.TH: {
        const bg = attr(token, "background");
        if (bg !== void 0) push({ k: "background", v: bg, line });
        break;
      }
      case $.TEMPLATE:
        templateDepth++;
        break;
      default:
    }
  }
  function mediaTag(token, line) {
    mediaParent = token.tagName === "video" ? "video" : "audio";
    const poster = mediaParent === "video" ? attr(token, "poster") : void 0;
    if (poster !== void 0) push({ k: "poster", v: poster, line });
    const src = attr(token, "src");
    if (src !== void 0) push({ k: mediaParent, v: src, line, cond: "media" });
  }
  function linkTag(token, line) {
    const href = attr(token, "href");
    const rels = (attr(token, "rel") ?? "").toLowerCase().split(/[\t\n\f\r ]+/).filter(Boolean);
    if (rels.includes("preload") && attr(token, "as")?.toLowerCase() === "image") {
      const srcset = attr(token, "imagesrcset");
      if (srcset !== void 0) push({ k: "srcset", v: srcset, line, cond: "srcset-candidate" });
    }
    if (href === void 0) return;
    const media = attr(token, "media");
    if (rels.includes("stylesheet")) {
      if (attr(token, "disabled") !== void 0) return;
      push({ k: rels.includes("alternate") ? "stylesheet-alt" : "stylesheet", v: href, line, media });
    } else if (rels.includes("modulepreload")) push({ k: "modulepreload", v: href, line });
    else if (rels.includes("preload")) push({ k: "preload", v: href, line, as: attr(token, "as")?.toLowerCase() ?? "", media });
    else if (rels.includes("prefetch")) push({ k: "prefetch", v: href, line });
    else if (rels.includes("manifest")) push({ k: "manifest", v: href, line });
    else if (rels.some((r) => ICON_RELS.includes(r))) push({ k: "icon", v: href, line });
    else if (rels.includes("preconnect") || rels.includes("dns-prefetch")) push({ k: "preconnect", v: href, line });
  }
  function scriptTag(token, line) {
    const type = (attr(token, "type") ?? "").trim().toLowerCase();
    const src = attr(token, "src");
    if (type === "module") {
      if (src !== void 0) push({ k: attr(token, "async") !== void 0 ? "module-async" : "module", v: src, line });
      else capture = { kind: "module-inline", line, text: "", end: "script" };
      return;
    }
    if (type === "importmap") {
      capture = { kind: "importmap", line, text: "", end: "script" };
      return;
    }
    if (!CLASSIC_TYPES.has(type) && !type.includes("javascript")) return;
    if (src === void 0 || attr(token, "nomodule") !== void 0) return;
    const kind = attr(token, "async") !== void 0 ? "script-async" : attr(token, "defer") !== void 0 ? "script-defer" : "script";
    push({ k: kind, v: src, line });
  }
  tokenizer.write(source, true);
  return out;
}

// packages/cli/src/discover/page-extract.ts
var EXTRACT_VERSION = 1;
function extractPage(source) {
  const html2 = extractHtml(source);
  const inline = {};
  html2.refs.forEach((ref, i) => {
    if (ref.k === "style" || ref.k === "style-attr") inline[i] = { css: extractCss(ref.v, ref.k === "style-attr") };
    else if (ref.k === "module-inline") inline[i] = { js: extractJs(ref.v) };
    else if (ref.k === "importmap") inline[i] = { imports: parseImportMap(ref.v) };
    else return;
    ref.v = "";
  });
  return { ...html2, inline };
}
function parseImportMap(text) {
  try {
    const map = JSON.parse(text);
    const out = {};
    if (map.imports && typeof map.imports === "object") {
      for (const [k, v] of Object.entries(map.imports)) if (typeof v === "string") out[k] = v;
    }
    return out;
  } catch {
    return {};
  }
}

// packages/cli/src/discover/read-site-file.ts
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
function contentHash(bytes) {
  return createHash("sha1").update(bytes).digest("base64url");
}
async function readSiteFile(file) {
  try {
    return await readFile(file.file);
  } catch (err) {
    return readFailure(file.rel, err);
  }
}
function readFailure(rel, err) {
  const code = err.code;
  if (code === "ENOENT") return warning(DiscoverCodes.FILE_VANISHED, `${rel} disappeared during the build; left out`, { file: rel });
  return warning(DiscoverCodes.UNREADABLE, `Cannot read ${rel} (${code ?? err.message}); left out`, { file: rel });
}

// packages/cli/src/discover/report-ref.ts
function reportRef(diagnostics, r, ref, file, line) {
  const where = { file, ref, ...line !== void 0 ? { line } : {} };
  const at = line !== void 0 ? `${file}:${line}` : file;
  switch (r.kind) {
    case "missing":
      diagnostics.push(warning(DiscoverCodes.MISSING_REF, `${at}: "${ref}" \u2192 ${r.url} does not exist in the site`, where));
      break;
    case "escape":
      diagnostics.push(warning(DiscoverCodes.REF_ESCAPES_ROOT, `${at}: "${ref}" points outside the site root; not read`, where));
      break;
    case "dotfile":
      diagnostics.push(warning(DiscoverCodes.DOTFILE_REF, `${at}: "${ref}" is a dotfile; dotfiles are never packaged`, where));
      break;
    case "invalid":
      diagnostics.push(warning(DiscoverCodes.INVALID_URL, `${at}: "${ref}" is not a valid URL (${r.reason})`, where));
      break;
    default:
  }
}

// packages/cli/src/discover/site-origin.ts
var PLACEHOLDER_ORIGIN = "http://objpack.invalid";
function parseOrigin(origin2) {
  if (origin2 === void 0 || origin2 === "") return { origin: PLACEHOLDER_ORIGIN, basePath: "/" };
  let url;
  try {
    url = new URL(origin2);
  } catch {
    throw new DiscoverError(DiscoverCodes.BAD_ORIGIN, `--origin must be an absolute http(s) URL, got "${origin2}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new DiscoverError(DiscoverCodes.BAD_ORIGIN, `--origin must be an http(s) URL, got "${origin2}"`);
  }
  const basePath = safeDecode(url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`);
  return { origin: url.origin, basePath: basePath ?? "/" };
}
function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return void 0;
  }
}
function pageUrlPath(rel, basePath = "/") {
  const dirIndex = rel === "index.html" || rel.endsWith("/index.html");
  const urlRel = dirIndex ? rel.slice(0, -"index.html".length) : rel;
  return encodePath(basePath + urlRel);
}
function encodePath(path2) {
  return new URL(path2.split("/").map(encodeSegment).join("/"), PLACEHOLDER_ORIGIN).pathname;
}
function encodeSegment(segment) {
  return encodeURIComponent(segment).replace(/%(2[46BC]|3[ABD]|40)/g, (m) => decodeURIComponent(m));
}

// packages/cli/src/discover/asset-analyzer.ts
var EMPTY_SHEET = { imports: [], fonts: [], images: [], cross: [] };
var EMPTY_MODULE = { imports: [], dynamic: [], bare: [], cross: [] };
function isJavaScript(file) {
  return /^(text|application)\/(javascript|ecmascript)/.test(file.contentType) || /\.(m?js)$/.test(file.rel);
}
function isCss(file) {
  return file.contentType.startsWith("text/css");
}
var AssetAnalyzer = class {
  constructor(resolver, diagnostics, cache) {
    this.resolver = resolver;
    this.diagnostics = diagnostics;
    this.cache = cache;
  }
  resolver;
  diagnostics;
  cache;
  sheets = /* @__PURE__ */ new Map();
  modules = /* @__PURE__ */ new Map();
  /** Paths that could not be read: left out of every closure. */
  gone = /* @__PURE__ */ new Set();
  sheet(file) {
    let p = this.sheets.get(file.path);
    if (!p) this.sheets.set(file.path, p = this.loadSheet(file));
    return p;
  }
  module(file) {
    let p = this.modules.get(file.path);
    if (!p) this.modules.set(file.path, p = this.loadModule(file));
    return p;
  }
  /** Reads and parses a file through the cache; undefined if it could not be read. */
  async parsed(file, kind, parse3) {
    const statKey = `stat${EXTRACT_VERSION}:${file.rel}:${file.bytes}:${file.mtimeMs}`;
    const known = this.cache?.get(statKey);
    if (typeof known === "string") {
      const hit = this.cache?.get(`${kind}${EXTRACT_VERSION}:${known}`);
      if (hit !== void 0) return hit;
    }
    const bytes = await readSiteFile(file);
    if (!(bytes instanceof Uint8Array)) {
      this.diagnostics.push(bytes);
      this.gone.add(file.path);
      return void 0;
    }
    const hash = this.cache ? contentHash(bytes) : "";
    const cached = this.cache?.get(`${kind}${EXTRACT_VERSION}:${hash}`);
    if (cached !== void 0) {
      this.cache?.set(statKey, hash);
      return cached;
    }
    const result = parse3(bytes.toString("utf8"));
    if (this.cache) {
      this.cache.set(`${kind}${EXTRACT_VERSION}:${hash}`, result);
      this.cache.set(statKey, hash);
    }
    return result;
  }
  async loadSheet(file) {
    const css = await this.parsed(file, "css", (t) => extractCss(t));
    if (!css) return EMPTY_SHEET;
    return this.resolveSheet(css, this.resolver.absolute(encodePath(file.path)), file.rel, 0);
  }
  /** Resolves a parsed sheet's references; `lineOffset` places inline `<style>` lines in their page. */
  resolveSheet(css, base, rel, lineOffset) {
    if (css.parseErrors > 0 && css.firstError) {
      const line = css.firstError.line + lineOffset;
      this.diagnostics.push(
        warning(DiscoverCodes.MALFORMED_CSS, `${rel}:${line}: ${css.parseErrors} CSS parse error(s), first: ${css.firstError.message}; the rest of the sheet was used`, { file: rel, line })
      );
    }
    const info = { imports: [], fonts: [], images: [], cross: [] };
    for (const ref of css.refs) {
      const line = ref.line + lineOffset;
      const candidates = [ref.v, ...ref.alts ?? []];
      let found;
      for (const candidate of candidates) {
        const r = this.resolver.resolve(candidate, base);
        if (r.kind === "local") {
          found = { url: r.url, path: r.path, file: r.file, line };
          break;
        }
        if (r.kind === "cross") info.cross.push(r.host);
        if (candidate === ref.v && candidates.length === 1) reportRef(this.diagnostics, r, candidate, rel, line);
      }
      if (!found) {
        if (candidates.length > 1) reportRef(this.diagnostics, this.resolver.resolve(ref.v, base), ref.v, rel, line);
        continue;
      }
      if (ref.cond) found.cond = ref.cond;
      if (ref.media !== void 0) found.media = ref.media;
      (ref.k === "import" ? info.imports : ref.k === "font" ? info.fonts : info.images).push(found);
    }
    return info;
  }
  async loadModule(file) {
    const js = await this.parsed(file, "js", (t) => extractJs(t));
    if (!js) return EMPTY_MODULE;
    return this.resolveModule(js, this.resolver.absolute(encodePath(file.path)), file.rel, 0);
  }
  resolveModule(js, base, rel, lineOffset) {
    if (js.error) {
      const line = js.error.line + lineOffset;
      this.diagnostics.push(warning(DiscoverCodes.MALFORMED_JS, `${rel}:${line}: cannot parse module (${js.error.message}); its imports are unknown`, { file: rel, line }));
    }
    const info = { imports: [], dynamic: [], bare: [], cross: [] };
    for (const ref of js.refs) {
      const line = ref.line + lineOffset;
      if (isBare(ref.v)) {
        info.bare.push({ spec: ref.v, line, dynamic: ref.dynamic });
        continue;
      }
      const r = this.resolver.resolve(ref.v, base);
      if (r.kind === "local") (ref.dynamic ? info.dynamic : info.imports).push({ url: r.url, path: r.path, file: r.file, line });
      else if (r.kind === "cross") info.cross.push(r.host);
      else reportRef(this.diagnostics, r, ref.v, rel, line);
    }
    return info;
  }
};
function isBare(spec) {
  return !(spec.startsWith("/") || spec.startsWith("./") || spec.startsWith("../") || /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(spec));
}

// packages/cli/src/discover/assemble-closure.ts
var BUCKETS = ["css", "sync", "fonts", "early", "images", "cssImages", "rest"];
var PRELOAD_AS = /* @__PURE__ */ new Set(["document", "style", "script", "font", "image", "fetch", "audio", "video", "track"]);
function mediaBlocksRender(media) {
  const m = (media ?? "").trim().toLowerCase();
  return m === "" || m === "all" || m === "screen";
}
function asFor(file) {
  const t = file.contentType;
  if (t.startsWith("text/html")) return "document";
  if (t.startsWith("text/css")) return "style";
  if (isJavaScript(file)) return "script";
  if (t.startsWith("image/")) return "image";
  if (t.startsWith("font/") || /\.(woff2?|ttf|otf)$/.test(file.rel)) return "font";
  if (t.startsWith("video/")) return "video";
  if (t.startsWith("audio/")) return "audio";
  if (t.startsWith("text/vtt")) return "track";
  return "fetch";
}
async function assemblePage(ctx, page, extract) {
  const { resolver, analyzer, diagnostics } = ctx;
  const pageUrl = pageUrlPath(page.rel, resolver.site.basePath);
  const docUrl = resolver.absolute(pageUrl);
  const buckets = { css: [], sync: [], fonts: [], early: [], images: [], cssImages: [], rest: [] };
  const visited = /* @__PURE__ */ new Set();
  const cross = /* @__PURE__ */ new Set();
  const iframes = [];
  const links = [];
  const prefetch = [];
  let importMap = {};
  const add = (bucket, dep, as, critical, from, cond) => {
    const item = { url: dep.url, path: dep.path, as, critical, from, line: dep.line };
    const c = cond ?? dep.cond;
    if (c !== void 0) item.conditional = c;
    buckets[bucket].push(item);
  };
  function firstVisit(dep, bucket) {
    const itemKey = `${bucket}|${dep.url}`;
    const fileKey = `${bucket}|file:${dep.path}`;
    const item = !visited.has(itemKey);
    const expand = !visited.has(fileKey);
    visited.add(itemKey);
    visited.add(fileKey);
    return { item, expand };
  }
  async function visitSheet(dep, bucket, critical, from, cond) {
    const first = firstVisit(dep, bucket);
    if (first.item) add(bucket, dep, "style", critical, from, cond);
    if (first.expand) await useSheet(await analyzer.sheet(dep.file), dep.url, bucket, critical);
  }
  async function useSheet(info, from, bucket, critical) {
    info.cross.forEach((h) => cross.add(h));
    for (const imp of info.imports) {
      if (critical && !mediaBlocksRender(imp.media)) await visitSheet(imp, "rest", false, from, "media-query");
      else await visitSheet(imp, bucket, critical, from);
    }
    for (const font of info.fonts) add(critical ? "fonts" : "rest", font, "font", critical, from);
    for (const img of info.images) add(critical ? "cssImages" : "rest", img, "image", false, from);
  }
  async function visitModule(dep, bucket, from, cond) {
    if (isCss(dep.file)) return visitSheet(dep, bucket, false, from, cond);
    const first = firstVisit(dep, bucket);
    if (first.item) add(bucket, dep, isJavaScript(dep.file) ? "script" : "fetch", false, from, cond);
    if (first.expand && isJavaScript(dep.file)) await useModule(await analyzer.module(dep.file), dep.url, dep.file.rel, bucket, cond);
  }
  async function useModule(info, from, rel, bucket, cond) {
    info.cross.forEach((h) => cross.add(h));
    for (const imp of info.imports) await visitModule(imp, bucket, from, cond);
    for (const b of info.bare) {
      const dep = mapBare(b.spec, b.line, rel);
      if (dep) await visitModule(dep, b.dynamic ? "rest" : bucket, from, b.dynamic ? "dynamic-import" : cond);
    }
    for (const dyn of info.dynamic) await visitModule(dyn, "rest", from, "dynamic-import");
  }
  function mapBare(spec, line, rel) {
    let target = importMap[spec];
    if (target === void 0) {
      const prefix = Object.keys(importMap).filter((k) => k.endsWith("/") && spec.startsWith(k)).sort((a, b) => b.length - a.length)[0];
      if (prefix !== void 0) target = importMap[prefix] + spec.slice(prefix.length);
    }
    if (target === void 0) {
      const key = `${rel}|${spec}`;
      if (!ctx.reported.has(key)) {
        ctx.reported.add(key);
        diagnostics.push(warning(DiscoverCodes.BARE_SPECIFIER, `${rel}:${line}: bare import "${spec}" has no import map entry; a browser cannot load it`, { file: rel, line, ref: spec }));
      }
      return void 0;
    }
    const r = resolver.resolve(target, docUrl);
    if (r.kind === "local") return { url: r.url, path: r.path, file: r.file, line };
    if (r.kind === "cross") cross.add(r.host);
    else reportRef(diagnostics, r, target, rel, line);
    return void 0;
  }
  const local = (raw, ref, pageMode = false) => {
    const r = resolver.resolve(raw, resolver.baseFor(docUrl, ref.base), pageMode);
    if (r.kind === "local") return { url: r.url, path: r.path, file: r.file, line: ref.line };
    if (r.kind === "cross") cross.add(r.host);
    else reportRef(diagnostics, r, raw, page.rel, ref.line);
    return void 0;
  };
  if (extract.parseErrors > 0 && extract.firstError) {
    const e = extract.firstError;
    diagnostics.push(
      warning(DiscoverCodes.MALFORMED_HTML, `${page.rel}:${e.line}: ${extract.parseErrors} HTML parse error(s), first: ${e.code}; read as a browser would`, {
        file: page.rel,
        line: e.line,
        column: e.column
      })
    );
  }
  for (const [i, ref] of extract.refs.entries()) {
    const inline = extract.inline[i];
    switch (ref.k) {
      case "stylesheet":
      case "stylesheet-alt": {
        const dep = local(ref.v, ref);
        if (!dep) break;
        const critical = ref.k === "stylesheet" && mediaBlocksRender(ref.media);
        const cond = ref.k === "stylesheet-alt" ? "alternate-stylesheet" : critical ? void 0 : "media-query";
        await visitSheet(dep, critical ? "css" : "rest", critical, pageUrl, cond);
        break;
      }
      case "style":
      case "style-attr": {
        if (!inline?.css) break;
        const base = resolver.baseFor(docUrl, ref.base);
        const info = analyzer.resolveSheet(inline.css, base, page.rel, ref.line - 1);
        if (ref.k === "style") await useSheet(info, pageUrl, "css", mediaBlocksRender(ref.media));
        else for (const img of info.images) add("images", img, "image", false, pageUrl);
        break;
      }
      case "script":
      case "script-defer":
      case "script-async": {
        const dep = local(ref.v, ref);
        if (dep) add(ref.k === "script" ? "sync" : ref.k === "script-defer" ? "early" : "rest", dep, "script", ref.k === "script", pageUrl);
        break;
      }
      case "module":
      case "module-async":
      case "modulepreload": {
        const dep = local(ref.v, ref);
        if (dep) await visitModule(dep, ref.k === "module-async" ? "rest" : "early", pageUrl);
        break;
      }
      case "module-inline":
        if (inline?.js) {
          const info = analyzer.resolveModule(inline.js, resolver.baseFor(docUrl, ref.base), page.rel, ref.line - 1);
          await useModule(info, pageUrl, page.rel, "early");
        }
        break;
      case "importmap":
        if (inline?.imports && Object.keys(importMap).length === 0) importMap = inline.imports;
        break;
      case "preload": {
        const dep = local(ref.v, ref);
        if (!dep) break;
        const as = PRELOAD_AS.has(ref.as ?? "") ? ref.as : asFor(dep.file);
        const bucket = as === "font" ? "fonts" : as === "image" ? "images" : as === "style" || as === "script" ? "early" : "rest";
        add(bucket, dep, as, false, pageUrl);
        break;
      }
      case "prefetch": {
        const dep = local(ref.v, ref);
        if (dep && !prefetch.includes(dep.url)) prefetch.push(dep.url);
        break;
      }
      case "icon":
      case "manifest": {
        const dep = local(ref.v, ref);
        if (dep) add("rest", dep, ref.k === "icon" ? "image" : "fetch", false, pageUrl, ref.k);
        break;
      }
      case "preconnect": {
        const r = resolver.resolve(ref.v, docUrl);
        if (r.kind === "cross") cross.add(r.host);
        break;
      }
      case "srcset": {
        for (const candidate of srcsetUrls(ref, page.rel, diagnostics)) {
          const dep = local(candidate, ref);
          if (dep) add("images", dep, "image", false, pageUrl, ref.cond);
        }
        break;
      }
      case "img":
      case "poster":
      case "svg-image":
      case "svg-use":
      case "background": {
        const dep = local(ref.v, ref);
        if (dep) add("images", dep, "image", false, pageUrl, ref.cond);
        break;
      }
      case "video":
      case "audio":
      case "track": {
        const dep = local(ref.v, ref);
        if (dep) add("rest", dep, ref.k, false, pageUrl, ref.cond);
        break;
      }
      case "object": {
        const dep = local(ref.v, ref);
        if (dep) {
          const as = asFor(dep.file);
          add(as === "image" ? "images" : "rest", dep, as, false, pageUrl);
        }
        break;
      }
      case "iframe":
      case "anchor": {
        const r = resolver.resolve(ref.v, resolver.baseFor(docUrl, ref.base), true);
        if (r.kind === "cross") {
          if (ref.k === "iframe") cross.add(r.host);
        } else if (r.kind === "local") {
          if (!/\.html?$/i.test(r.file.rel)) break;
          const target = pageUrlPath(r.file.rel, resolver.site.basePath);
          const list = ref.k === "iframe" ? iframes : links;
          if (!list.includes(target)) list.push(target);
        } else if (ref.k === "iframe") reportRef(diagnostics, r, ref.v, page.rel, ref.line);
        break;
      }
      default:
    }
  }
  const items = [{ url: pageUrl, path: page.path, as: "document", critical: true, from: pageUrl }];
  const index = /* @__PURE__ */ new Map([[pageUrl, items[0]]]);
  for (const bucket of BUCKETS) {
    for (const item of buckets[bucket]) {
      if (analyzer.gone.has(item.path)) continue;
      const first = index.get(item.url);
      if (!first) {
        index.set(item.url, item);
        items.push(item);
        continue;
      }
      if (item.critical) first.critical = true;
      if (item.conditional === void 0) delete first.conditional;
    }
  }
  return { url: pageUrl, file: page.rel, items, iframes, links, crossOrigin: [...cross].sort(), prefetch };
}
function srcsetUrls(ref, rel, diagnostics) {
  try {
    return parseSrcset(ref.v).map((c) => c.url);
  } catch (err) {
    diagnostics.push(warning(DiscoverCodes.INVALID_URL, `${rel}:${ref.line}: invalid srcset (${err.message})`, { file: rel, line: ref.line, ref: ref.v }));
    return [];
  }
}

// packages/cli/src/discover/page-parser.ts
import { existsSync } from "node:fs";
import { readFile as readFile2 } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
var PageParser = class _PageParser {
  workers = [];
  pending = /* @__PURE__ */ new Map();
  nextId = 0;
  turn = 0;
  constructor(workers) {
    const url = new URL("./page-worker.js", import.meta.url);
    if (workers > 1 && existsSync(fileURLToPath(url))) {
      for (let i = 0; i < workers; i++) {
        const w = new Worker(url);
        w.on("message", (r) => {
          const done = this.pending.get(r.id);
          this.pending.delete(r.id);
          done?.(r);
        });
        w.on("error", (err) => this.failAll(err));
        w.unref();
        this.workers.push(w);
      }
    }
  }
  static async create(concurrency) {
    await jsReady;
    const n = Math.max(1, Math.min(concurrency ?? Math.min(availableParallelism(), 4), 16));
    return new _PageParser(n);
  }
  /** Parallelism worth keeping in flight. */
  get width() {
    return Math.max(1, this.workers.length) * 4;
  }
  parse(file, hash) {
    const id = this.nextId++;
    if (this.workers.length === 0) return parseHere(id, file, hash);
    const worker = this.workers[this.turn++ % this.workers.length];
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ id, file, hash });
    });
  }
  async close() {
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
  }
  failAll(err) {
    for (const [id, done] of this.pending) done({ id, error: { message: `page parser thread failed: ${err.message}` } });
    this.pending.clear();
  }
};
async function parseHere(id, file, hash) {
  let bytes;
  try {
    bytes = await readFile2(file);
  } catch (err) {
    const e = err;
    return { id, error: { ...e.code !== void 0 ? { code: e.code } : {}, message: e.message } };
  }
  return { id, hash: hash ? contentHash(bytes) : "", extract: extractPage(bytes.toString("utf8")) };
}

// packages/cli/src/discover/resolve-url.ts
var SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
var DOT_DOT = /* @__PURE__ */ new Set(["..", ".%2e", "%2e.", "%2e%2e"]);
var UrlResolver = class {
  constructor(files, site) {
    this.files = files;
    this.site = site;
  }
  files;
  site;
  /** The absolute URL of a URL path on this site. */
  absolute(urlPath) {
    return new URL(urlPath, this.site.origin);
  }
  /** The base URL for references in a document at `docUrl`, given its `<base href>` (if any). */
  baseFor(docUrl, baseHref) {
    if (baseHref === void 0) return docUrl;
    try {
      return new URL(baseHref, docUrl);
    } catch {
      return docUrl;
    }
  }
  /**
   * Resolves `raw` against `base`. `page` mode (links, iframes) also accepts the clean URLs static hosts
   * serve: '/about' → 'about.html' or 'about/index.html'.
   */
  resolve(raw, base, page = false) {
    const ref = raw.trim();
    if (ref === "" || ref.startsWith("#")) return { kind: "skip" };
    let url;
    try {
      url = new URL(ref, base);
    } catch {
      return { kind: "invalid", reason: "not a valid URL" };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return { kind: "skip" };
    if (url.origin !== this.site.origin) return { kind: "cross", host: url.host };
    if (climbsAboveRoot(ref, base, this.site.basePath)) return { kind: "escape" };
    const path2 = decodePath(url.pathname);
    if (path2 === void 0) return { kind: "invalid", reason: "bad percent-encoding in the path" };
    if (path2 === null) return { kind: "escape" };
    const requested = url.pathname + url.search;
    if (path2.split("/").some((s) => s.startsWith(".") && s !== "")) return { kind: "dotfile", url: requested };
    const file = this.lookup(path2, page);
    if (file) return { kind: "local", url: requested, path: file.path, file };
    return { kind: "missing", url: requested, path: path2 };
  }
  lookup(path2, page) {
    const exact = this.files.get(path2);
    if (exact) return exact;
    if (path2.endsWith("/")) return this.files.get(`${path2}index.html`);
    if (!page) return void 0;
    return this.files.get(`${path2}.html`) ?? this.files.get(`${path2}/index.html`);
  }
};
function decodePath(pathname) {
  if (!pathname.includes("%")) return pathname;
  const out = [];
  for (const seg of pathname.split("/")) {
    let d;
    try {
      d = decodeURIComponent(seg);
    } catch {
      return void 0;
    }
    if (d.includes("/") || d.includes("\\") || d.includes("\0") || d === ".." || d === ".") return null;
    out.push(d);
  }
  return out.join("/");
}
function climbsAboveRoot(ref, base, basePath) {
  if (SCHEME.test(ref) || ref.startsWith("//") || ref.startsWith("\\\\")) return false;
  const p = ref.replace(/\\/g, "/").split(/[?#]/, 1)[0] ?? "";
  if (!p.includes("..") && !p.toLowerCase().includes("%2e")) return false;
  const stack = p.startsWith("/") ? [] : base.pathname.split("/").slice(1, -1);
  const floor = basePath.split("/").length - 2;
  if (stack.length < floor) return false;
  for (const seg of p.split("/")) {
    const s = seg.toLowerCase();
    if (s === "" || s === "." || s === "%2e") continue;
    if (DOT_DOT.has(s)) {
      if (stack.length <= floor) return true;
      stack.pop();
    } else stack.push(seg);
  }
  return false;
}

// packages/cli/src/discover/walk.ts
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import mime from "mime";
var utf8 = new TextDecoder("utf-8", { fatal: true });
function contentTypeOf(rel) {
  const type = mime.getType(rel) ?? "application/octet-stream";
  return type.startsWith("text/") || type === "application/javascript" || type === "application/json" || type === "image/svg+xml" ? `${type}; charset=utf-8` : type;
}
function isHidden(name) {
  return name.startsWith(".");
}
async function resolveRoot(root) {
  const abs = path.resolve(root);
  let real;
  try {
    real = await realpath(abs);
  } catch (cause) {
    throw new DiscoverError(DiscoverCodes.ROOT_NOT_FOUND, `Site directory not found: ${abs}`, { cause });
  }
  const st = await stat(real);
  if (!st.isDirectory()) throw new DiscoverError(DiscoverCodes.ROOT_NOT_DIRECTORY, `Not a directory: ${abs}`);
  return real;
}
async function walkFiles(root, options, diagnostics) {
  const realRoot = await resolveRoot(root);
  const { basePath } = parseOrigin(options.origin);
  const exclude = new Set((options.exclude ?? []).map((e) => e.replace(/\\/g, "/").replace(/^\.?\/+|\/+$/g, "")).filter(Boolean));
  const files = /* @__PURE__ */ new Map();
  const seenDirs = /* @__PURE__ */ new Set([realRoot]);
  const insideRoot = (p) => p === realRoot || p.startsWith(realRoot + path.sep);
  async function visit(dirAbs, dirRel) {
    let entries;
    try {
      entries = await readdir(dirAbs, { withFileTypes: true, encoding: "buffer" });
    } catch (err) {
      diagnostics.push(warning(DiscoverCodes.UNREADABLE, `Cannot read directory: ${err.message}`, { file: dirRel || "." }));
      return;
    }
    const subdirs = [];
    const stats = [];
    for (const entry of entries) {
      let name;
      try {
        name = utf8.decode(entry.name);
      } catch {
        diagnostics.push(warning(DiscoverCodes.NON_UTF8_NAME, `Skipped a name that is not valid UTF-8 in ${dirRel || "."}: ${entry.name.toString("latin1")}`, { file: dirRel || "." }));
        continue;
      }
      if (isHidden(name)) continue;
      const rel = dirRel ? `${dirRel}/${name}` : name;
      if (exclude.has(rel)) continue;
      const abs = path.join(dirAbs, name);
      if (entry.isDirectory()) {
        subdirs.push(visit(abs, rel));
      } else if (entry.isFile()) {
        stats.push(addFile(abs, rel));
      } else if (entry.isSymbolicLink()) {
        stats.push(followLink(abs, rel));
      } else {
        diagnostics.push(warning(DiscoverCodes.NOT_A_FILE, `Skipped ${rel}: not a regular file`, { file: rel }));
      }
    }
    await Promise.all(stats);
    await Promise.all(subdirs);
  }
  async function addFile(abs, rel) {
    try {
      const st = await stat(abs);
      if (!st.isFile()) return;
      const urlPath = basePath + rel;
      files.set(urlPath, { path: urlPath, file: abs, rel, bytes: st.size, mtimeMs: st.mtimeMs, contentType: contentTypeOf(rel) });
    } catch (err) {
      const code = err.code === "ENOENT" ? DiscoverCodes.FILE_VANISHED : DiscoverCodes.UNREADABLE;
      diagnostics.push(warning(code, `Cannot stat ${rel}: ${err.message}`, { file: rel }));
    }
  }
  async function followLink(abs, rel) {
    let target;
    try {
      target = await realpath(abs);
    } catch {
      diagnostics.push(warning(DiscoverCodes.MISSING_REF, `Broken symlink: ${rel}`, { file: rel }));
      return;
    }
    if (!insideRoot(target)) {
      diagnostics.push(warning(DiscoverCodes.SYMLINK_ESCAPES_ROOT, `Symlink ${rel} points outside the site root; not followed`, { file: rel }));
      return;
    }
    const st = await lstat(target).catch(() => void 0);
    if (st?.isDirectory()) {
      if (seenDirs.has(target)) return;
      seenDirs.add(target);
      await visit(target, rel);
    } else if (st?.isFile()) {
      await addFile(target, rel);
    }
  }
  await visit(realRoot, "");
  const sorted = new Map([...files.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
  return { root: realRoot, files: sorted };
}

// packages/cli/src/discover/discover-site.ts
function isPage(file) {
  return /\.html?$/i.test(file.rel);
}
async function discoverSite(root, options = {}) {
  const diagnostics = [];
  const site = parseOrigin(options.origin);
  const walked = await walkFiles(root, options, diagnostics);
  const files = walked.files;
  const pages = [...files.values()].filter(isPage);
  const graph = { root: walked.root, files, pages: [], diagnostics };
  if (pages.length === 0) {
    diagnostics.push(error(DiscoverCodes.NO_PAGES, `No HTML pages in ${walked.root}: is this the built site's directory?`));
    return graph;
  }
  const resolver = new UrlResolver(files, site);
  const analyzer = new AssetAnalyzer(resolver, diagnostics, options.cache);
  const ctx = { resolver, analyzer, diagnostics, reported: /* @__PURE__ */ new Set() };
  const parser = await PageParser.create(options.concurrency);
  const cache = options.cache;
  const results = new Array(pages.length);
  let next = 0;
  let done = 0;
  options.onProgress?.(0, pages.length);
  async function extractOf(page) {
    const statKey = `stat${EXTRACT_VERSION}:${page.rel}:${page.bytes}:${page.mtimeMs}`;
    const known = cache?.get(statKey);
    if (typeof known === "string") {
      const hit = cache?.get(`html${EXTRACT_VERSION}:${known}`);
      if (hit !== void 0) return hit;
    }
    const r = await parser.parse(page.file, cache !== void 0);
    if (r.error) {
      diagnostics.push(readFailure(page.rel, Object.assign(new Error(r.error.message), { code: r.error.code })));
      analyzer.gone.add(page.path);
      return void 0;
    }
    if (cache) {
      cache.set(`html${EXTRACT_VERSION}:${r.hash}`, r.extract);
      cache.set(statKey, r.hash);
    }
    return r.extract;
  }
  async function lane() {
    while (next < pages.length) {
      const i = next++;
      const page = pages[i];
      const extract = await extractOf(page);
      if (extract) results[i] = await assemblePage(ctx, page, extract);
      options.onProgress?.(++done, pages.length);
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(parser.width, pages.length) }, lane));
  } finally {
    await parser.close();
  }
  for (const path2 of analyzer.gone) files.delete(path2);
  graph.pages = results.filter((p) => p !== void 0);
  diagnostics.sort(compareDiagnostics);
  return graph;
}
function compareDiagnostics(a, b) {
  const fa = a.file ?? "";
  const fb = b.file ?? "";
  if (fa !== fb) return fa < fb ? -1 : 1;
  if ((a.line ?? 0) !== (b.line ?? 0)) return (a.line ?? 0) - (b.line ?? 0);
  return a.code < b.code ? -1 : a.code > b.code ? 1 : a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}

// ../../tmp/dpx/dump.ts
var dir = process.argv[2];
var origin = process.argv[3];
var g = await discoverSite(dir, origin ? { origin } : {});
for (const p of g.pages) {
  console.log("PAGE", p.url, p.file, "links", p.links, "iframes", p.iframes, "cross", p.crossOrigin, "prefetch", p.prefetch);
  for (const i of p.items) console.log("  ", i.url, i.as, i.critical ? "CRIT" : "", i.conditional ?? "", "from", i.from, i.line);
}
for (const d of g.diagnostics) console.log("DIAG", d.code, d.file, d.line, d.message);
