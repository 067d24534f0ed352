#!/usr/bin/env node
/**
 * node benchmarks/browser/spa-session.mjs [--fixtures gen-nextjs,…] [--styles hover,click,keyboard] [--dwell MS] [--out
 * NAME]
 *
 * What reaches the server after the first page load on sites with a client-side router (Next's <Link>,
 * VitePress, Docusaurus), where most "navigations" are router fetches after a pushState, not documents the
 * worker answers. For each fixture under fixtures/closure/: copy, `objpack build` the copy, serve it with
 * `objpack serve` (the library, packages/serve/dist) behind a request-recording proxy; the unbuilt copy is
 * served the same way (same server, same caching headers, no packages, no worker) as the plain peer. Real
 * Chromium (playwright-core, /usr/bin/chromium): the home page installs the worker, is loaded again answered
 * by it, then a session of client-side navigations by clicking real links, in one interaction style per
 * session (a new browser context each): `hover` (mouse on the link 150 ms, then click), `click` (mouse moved
 * onto it and clicked at once), `keyboard` (focus() and Enter, the mouse never moves); each session ends
 * with `back` steps (history.back(), as the browser's back button). Per step: every request that reached
 * the server, as packages, objects (in the target page's package closure / in some package / in none),
 * the router's data (fetch/XHR: Next's `?_rsc=` payloads), documents, objpack's own files, 304s.
 * Also: which prefetch hints the registration snippet sent (its postMessage to the worker, observed from
 * the page), whether links that appear only after a client navigation were hinted once visible, and a probe
 * of the snippet's hint cap (MAX_HINTS in packages/client-sw/src/register/register.ts).
 * Uses the packages' built dist (run `pnpm build` first). Writes results/NAME.json and .md.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { REPO } from '../lib/workspace.mjs';
import { INIT, hintedPaths, shown, shownExpr, VIEWPORT_LINKS } from './spa-page.mjs';
import { classify, recordingProxy } from './spa-requests.mjs';
import { render } from './spa-session-report.mjs';
import { CHROMIUM_ARGS } from '../lib/chromium-args.mjs';

const FIXTURE_DIR = join(REPO, 'fixtures/closure');
/**
 * Sessions: the links clicked, in order (each step's `href` is a link on the page shown then), and what
 * says the target is shown (`h1` contained in the first <h1>, or `title`). `client: false`: a site without
 * a client router (a control: every click is a document navigation).
 */
/** Both Next.js fixtures are the same app (Turbopack and webpack builds). */
const NEXT_APP = {
  build: { cleanUrls: true },
  client: true,
  home: { h1: 'Home' },
  steps: [
    { href: '/about', h1: 'About' },
    { href: '/posts/second', h1: 'Second post' },
    { href: '/posts/first', h1: 'First post' },
    { href: '/', h1: 'Home' },
  ],
};
const SITES = {
  'gen-nextjs': NEXT_APP,
  'gen-nextjs-webpack': NEXT_APP,
  'gen-vitepress': {
    build: {},
    client: true,
    home: { title: 'Widgets' },
    steps: [
      { href: '/guide/getting-started.html', title: 'Getting started | Widgets' },
      { href: '/guide/configuration.html', title: 'Configuration | Widgets' },
      { href: '/api.html', title: 'API | Widgets' },
      { href: '/', title: 'Widgets' },
    ],
  },
  'gen-docusaurus': {
    build: { bareDirUrls: true },
    client: true,
    home: { title: 'Hello from My Site | My Site' },
    steps: [
      { href: '/docs/intro', title: 'Tutorial Intro | My Site' },
      { href: '/docs/tutorial-basics/markdown-features', title: 'Markdown Features | My Site' },
      { href: '/blog', title: 'Blog | My Site' },
      { href: '/blog/welcome', title: 'Welcome | My Site' },
      { href: '/', title: 'Hello from My Site | My Site' },
    ],
  },
  // Astro 5 without <ClientRouter /> (no view transitions in the fixture): every click is a document.
  'gen-astro': {
    build: {},
    client: false,
    home: { title: 'Home' },
    steps: [
      { href: '/about/', title: 'About' },
      { href: '/blog/first-post/', title: 'First post' },
      { href: '/', title: 'Home' },
    ],
  },
};
const STYLES = ['hover', 'click', 'keyboard'];
const HELP = `Usage: node benchmarks/browser/spa-session.mjs [options]
  --fixtures LIST  ${Object.keys(SITES).join(',')} (default all)
  --styles LIST    ${STYLES.join(',')} (default all; every session ends with back steps)
  --back N         back steps at the end of each session (default 3)
  --dwell MS       time on each page before the next interaction, after the network is quiet 500 ms (default 1500)
  --rtt MS         delay every request by MS in the proxy before forwarding it (default 0: localhost)
  --trace          build with trace: true (objpack build --trace: each page loaded in Chromium, what it requested added)
  --out NAME       results/NAME.json and .md (default browser-spa-session)
  --render FILE    write FILE's .md again from the results JSON FILE (no run)
Needs the built packages (pnpm build) and Chromium (/usr/bin/chromium or $OBJPACK_CHROMIUM).
`;
const { values } = parseArgs({
  options: {
    fixtures: { type: 'string' },
    styles: { type: 'string' },
    back: { type: 'string' },
    dwell: { type: 'string' },
    out: { type: 'string' },
    trace: { type: 'boolean' },
    rtt: { type: 'string' },
    render: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const log = (m) => process.stderr.write(`${m}\n`);
const fixtures = (values.fixtures ?? Object.keys(SITES).join(',')).split(',');
const styles = (values.styles ?? STYLES.join(',')).split(',');
for (const f of fixtures)
  if (!SITES[f]) {
    log(`unknown fixture ${f}`);
    process.exit(2);
  }
for (const s of styles)
  if (!STYLES.includes(s)) {
    log(`unknown style ${s}`);
    process.exit(2);
  }
const backSteps = Number(values.back ?? 3);
const dwell = Number(values.dwell ?? 1500);
const rtt = Number(values.rtt ?? 0);
const out = values.out ?? 'browser-spa-session';
const chromiumPath = process.env.OBJPACK_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  log(`!!! ${chromiumPath} missing (node scripts/system-tools.mjs installs chromium)`);
  process.exit(2);
}
for (const f of [
  'packages/cli/dist/build.js',
  'packages/serve/dist/index.js',
  'packages/client-sw/dist/objpack-sw.js',
]) {
  if (!existsSync(join(REPO, f))) {
    log(`!!! ${f} missing: run pnpm build first`);
    process.exit(2);
  }
}
const { build } = await import(join(REPO, 'packages/cli/dist/build.js'));
const { serve } = await import(join(REPO, 'packages/serve/dist/index.js'));

/** One session: install (objpack) or first load (plain), home again, the steps in one style, then back steps. */
async function session(browser, origin, proxy, site, style, ctx) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(INIT);
  const page = await context.newPage();
  const steps = [];
  let hintsBefore = 0;
  let lastDoc;
  const record = async (name, extra) => {
    await proxy.quiet(500);
    await page.waitForTimeout(dwell);
    await proxy.quiet(500);
    const path = await page.evaluate('location.pathname');
    const docNow = await page.evaluate('window.__doc');
    if (docNow !== lastDoc) hintsBefore = 0; // a new document: a new snippet, new hints
    lastDoc = docNow;
    const hintList = await hintedPaths(page);
    const hinted = new Set(hintList);
    const hintedThisStep = hintList.slice(hintsBefore);
    hintsBefore = hintList.length;
    const links = await page.evaluate(VIEWPORT_LINKS);
    const fresh = links.filter((l) => !l.atLoad);
    const unique = (arr) => [...new Set(arr)];
    steps.push({
      name,
      path,
      ...extra,
      server: classify(proxy.take(), ctx, path),
      // The registration snippet's hints (none without a worker: the plain site has no snippet).
      hintedThisStep,
      hintsSoFar: hinted.size,
      // Links that appeared with this client navigation and are in the viewport: hinted by now or not.
      newVisibleLinks: unique(fresh.map((l) => l.path)),
      newVisibleNotHinted: ctx.objpack ? unique(fresh.filter((l) => !hinted.has(l.path)).map((l) => l.path)) : [],
    });
  };
  try {
    proxy.take();
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    if (ctx.objpack)
      await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 15_000 });
    await record(ctx.objpack ? 'install' : 'first load', { style: '-' });
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    await page.waitForFunction(shownExpr(site.home, '/'), undefined, { timeout: 15_000 });
    await record('home', {
      style: '-',
      controlled: await page.evaluate(
        'navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined',
      ),
    });
    const visited = ['/'];
    for (const step of site.steps) {
      const doc = await page.evaluate('window.__doc');
      const link = page.locator(`a[href="${step.href}"]`).filter({ visible: true }).first();
      const start = performance.now();
      if (style === 'hover') {
        await link.hover();
        await page.waitForTimeout(150);
        await link.click();
      } else if (style === 'click') {
        await link.click();
      } else {
        await link.focus();
        await page.keyboard.press('Enter');
      }
      const path = new URL(step.href, origin).pathname;
      await record(`→ ${step.href}`, { style, ...(await shown(page, step, path, doc, start)) });
      visited.push(path);
    }
    for (let i = 0; i < backSteps && visited.length > 1; i++) {
      visited.pop();
      const to = visited.at(-1);
      const step = to === '/' ? site.home : site.steps.find((s) => new URL(s.href, origin).pathname === to);
      const doc = await page.evaluate('window.__doc');
      const start = performance.now();
      await page.evaluate('history.back()');
      await record(`← ${to}`, { style: 'back', ...(await shown(page, step, to, doc, start)) });
    }
    const hints = await page.evaluate('window.__hints');
    let capProbe;
    if (ctx.objpack && ctx.probeCap) capProbe = await probeCap(page, proxy);
    return { style, steps, hints, capProbe };
  } finally {
    await context.close();
  }
}

/**
 * The snippet's cap: 40 same-origin links to paths no page has, each given a mouseover (the snippet listens
 * on the document), on the page the session ended on. How many of them were hinted, after how many before.
 */
async function probeCap(page, proxy) {
  const before = (await hintedPaths(page)).length;
  await page.evaluate(
    `(() => {
    const box = document.createElement('div');
    for (let i = 0; i < 40; i++) { const a = document.createElement('a'); a.href = '/__cap-probe/' + i; ` +
      `a.textContent = 'probe ' + i; box.append(a, ' '); }
    document.body.prepend(box);
    for (const a of box.querySelectorAll('a')) a.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
  })()`,
  );
  await page.waitForTimeout(300);
  await proxy.quiet(300);
  proxy.take();
  const after = await hintedPaths(page);
  return {
    hintedBefore: before,
    probeLinks: 40,
    probeHinted: after.filter((u) => u.startsWith('/__cap-probe/')).length,
    hintedTotal: after.length,
  };
}

if (values.render) {
  const data = JSON.parse(readFileSync(values.render, 'utf8'));
  const { md, totals, probes } = render(data);
  await writeFile(values.render, `${JSON.stringify({ ...data, totals, probes }, null, 2)}\n`);
  await writeFile(values.render.replace(/\.json$/, '.md'), `${md.join('\n')}\n`);
  process.exit(0);
}

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: [...CHROMIUM_ARGS],
});
const started = new Date();
const load = loadavg().map((l) => Math.round(l * 100) / 100);
log(`spa-session: ${fixtures.join(', ')}; styles ${styles.join(', ')}; load average ${load.join(' ')}`);
const results = [];
try {
  for (const fixture of fixtures) {
    const site = SITES[fixture];
    const dir = mkdtempSync(join(tmpdir(), 'objpack-spa-session-'));
    const stop = [];
    try {
      const packedRoot = join(dir, 'packed');
      const plainRoot = join(dir, 'plain');
      cpSync(join(FIXTURE_DIR, fixture, 'site'), packedRoot, { recursive: true });
      cpSync(join(FIXTURE_DIR, fixture, 'site'), plainRoot, { recursive: true });
      const built = await build({ ...site.build, root: packedRoot, cache: false, trace: values.trace === true });
      const closures = new Map(built.plan.pages.map((p) => [p.url, new Set(p.closure.map((o) => o.url))]));
      const packaged = new Set([...closures.values()].flatMap((s) => [...s]));
      const closureOf = (path) =>
        closures.get(path) ??
        closures.get(`${path}index.html`) ??
        closures.get(`${path}.html`) ??
        closures.get(`${path}/`) ??
        closures.get(`${path}/index.html`);
      const packedServer = await serve({ root: packedRoot, port: 0 });
      stop.push(() => packedServer.close({ timeoutMs: 100 }));
      const plainServer = await serve({ root: plainRoot, port: 0 });
      stop.push(() => plainServer.close({ timeoutMs: 100 }));
      const packedProxy = await recordingProxy(packedServer.port, rtt);
      stop.push(() => packedProxy.close());
      const plainProxy = await recordingProxy(plainServer.port, rtt);
      stop.push(() => plainProxy.close());
      const sessions = [];
      for (const [i, style] of styles.entries()) {
        for (const objpack of [true, false]) {
          const proxy = objpack ? packedProxy : plainProxy;
          log(`${fixture} ${objpack ? 'objpack' : 'plain'} ${style}`);
          const s = await session(browser, proxy.origin, proxy, site, style, {
            objpack,
            closureOf,
            packaged,
            probeCap: objpack && i === 0,
          });
          sessions.push({ variant: objpack ? 'objpack' : 'plain', ...s });
        }
      }
      results.push({
        fixture,
        clientRouter: site.client,
        build: { ...site.build, trace: values.trace === true },
        pages: built.plan.pages.length,
        sessions,
      });
    } finally {
      for (const f of stop.reverse()) await f().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
}
const finished = new Date();
const loadEnd = loadavg().map((l) => Math.round(l * 100) / 100);

const data = {
  started,
  finished,
  loadAverage: { start: load, end: loadEnd },
  dwellMs: dwell,
  rttMs: rtt,
  trace: values.trace === true,
  results,
};
const { md, totals, probes } = render(data);
await mkdir(join(REPO, 'benchmarks/results'), { recursive: true });
await writeFile(
  join(REPO, 'benchmarks/results', `${out}.json`),
  `${JSON.stringify({ ...data, totals, probes }, null, 2)}\n`,
);
await writeFile(join(REPO, 'benchmarks/results', `${out}.md`), `${md.join('\n')}\n`);
process.stdout.write(`${md.join('\n')}\n`);
log(`wrote benchmarks/results/${out}.json and .md (${Math.round((finished - started) / 1000)} s)`);
