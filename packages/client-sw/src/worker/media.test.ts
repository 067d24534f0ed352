import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { cacheContents, installWorker, pageDone, reference, serveSite, snapshot } from '../test-utils/browser.js';
import { describeEngines, useEngineSuite } from '../test-utils/engine-suite.js';
import type { LoggedRequest } from '../test-utils/server.js';
import { svg, testSite } from '../test-utils/site.js';

/** 4 s of VP8 in WebM, 50 KB, a key frame every 0.53 s (fixtures/media/README.md). */
const clip = {
  type: 'video/webm',
  body: readFileSync(new URL('../../../../fixtures/media/clip.webm', import.meta.url)),
};

/** A page of the test site around `body`, with its module and JSON, so pageDone knows when it is done. */
const mediaPage = (body: string) => ({
  type: 'text/html',
  body: Buffer.from(`<!doctype html><html><head><link rel="icon" href="data:,">
<script type="module" src="/assets/app.js"></script></head>
<body>${body}<p id="js"></p><p id="json"></p></body></html>`),
});

/** In the page: plays the muted `<video>` past 0.5 s, seeks it to 3 s, and says how that went. */
const playAndSeek = async () => {
  const v = document.querySelector('video')!;
  const within = <T>(p: Promise<T>, what: string) =>
    Promise.race([p, new Promise<never>((_, no) => setTimeout(() => no(new Error(`${what}: timed out`)), 10_000))]);
  await within(v.play(), 'play');
  await within(
    new Promise<void>((ok) => {
      const tick = () => (v.currentTime > 0.5 ? ok() : setTimeout(tick, 20));
      tick();
    }),
    'playing past 0.5 s',
  );
  v.pause();
  const seeked = new Promise((ok) => v.addEventListener('seeked', ok, { once: true }));
  v.currentTime = 3;
  await within(seeked, 'seek');
  await within(
    new Promise<void>((ok) => {
      const ready = () => (v.readyState >= 2 ? ok() : setTimeout(ready, 20));
      ready();
    }),
    'a frame at 3 s',
  );
  return { at: Math.round(v.currentTime * 10) / 10, error: v.error?.code ?? null, width: v.videoWidth };
};

/** The requests for `path` from the worker's origin (not the reference's, test-utils/browser.ts reference). */
const asked = (log: LoggedRequest[], path: string) =>
  log.filter((r) => r.path === path && r.headers.host?.startsWith('127.0.0.1:'));

describeEngines('media', (engine) => {
  const suite = useEngineSuite(engine);

  it('large media: the prefix comes from the package, the rest by Range; no 206 is cached', async () => {
    serveSite(
      suite.server,
      suite.b,
      testSite(suite.b.register, 1, {
        files: {
          '/media/': mediaPage('<img id="big" src="/img/big.svg" width="40" height="40">'),
          '/img/big.svg': svg('crimson', 300_000),
        },
        pages: { '/media/': { objects: ['/img/big.svg'], shared: ['common'] } },
        partial: { '/img/big.svg': 65_536 },
      }),
    );
    const ref = await reference(suite.engine, `${suite.server.origin}/media/`);
    const page = await installWorker(suite.context, suite.server);
    await page.goto(`${suite.server.origin}/media/`);
    await pageDone(page);
    expect(asked(suite.server.log, '/img/big.svg').map((r) => r.headers.range)).toEqual(['bytes=65536-']);
    const got = await snapshot(page);
    expect(got.dom).toBe(ref.dom);
    expect(got.shot.equals(ref.shot)).toBe(true);
    expect(await page.evaluate(() => (document.getElementById('big') as HTMLImageElement).naturalWidth)).toBe(40);
    for (const paths of Object.values(await cacheContents(page))) expect(paths).not.toContain('/img/big.svg');
  });

  it('a <video> whose start is in the package plays and seeks as without objpack, by Range from the host', async () => {
    const video = '<video src="/media/clip.webm" muted playsinline preload="auto" width="160" height="120"></video>';
    serveSite(
      suite.server,
      suite.b,
      testSite(suite.b.register, 1, {
        files: { '/video/': mediaPage(video), '/media/clip.webm': clip },
        pages: { '/video/': { objects: ['/media/clip.webm'], shared: ['common'] } },
        partial: { '/media/clip.webm': 16_384 },
      }),
    );
    // Without objpack first (another origin, no worker): what the engine does with the host alone.
    const plain = await suite.engine.newContext();
    try {
      const page = await plain.newPage();
      await page.goto(`${suite.server.origin.replace('127.0.0.1', 'localhost')}/video/`);
      expect(await page.evaluate(playAndSeek)).toEqual({ at: 3, error: null, width: 160 });
    } finally {
      await plain.close();
    }
    const page = await installWorker(suite.context, suite.server);
    suite.server.log.length = 0;
    await page.goto(`${suite.server.origin}/video/`);
    await pageDone(page);
    expect(await page.evaluate(playAndSeek)).toEqual({ at: 3, error: null, width: 160 });
    // Chromium and Firefox ask for media by Range (Safari first for bytes=0-1, which must get a 206): the
    // worker leaves those to the host, whose 206s they play from. WebKitGTK's GStreamer asks without one:
    // the worker answers with the package's prefix and continues by Range from the host.
    const ranges = asked(suite.server.log, '/media/clip.webm').map((r) => r.headers.range);
    expect(ranges).toEqual([engine === 'webkit' ? 'bytes=16384-' : 'bytes=0-']);
    // The page's other objects came from its packages.
    expect(suite.server.take().filter((p) => !p.startsWith('/_objpack/') && p !== '/media/clip.webm')).toEqual([]);
  });
});
