import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MANIFEST_FILE, type BuildManifest } from '@objpack/format';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, get, startServeCli, unpack, until, type Cli } from '../../test-utils/serve-cli.js';
import { watchTree } from './watch-tree.js';

// Rollup's rule: CLI tests run the built binary, exactly as users do (signals included).
const built = existsSync(fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url)));
if (!built)
  console.warn(
    'SKIPPED objpack serve process tests: packages/cli/dist is missing (run `pnpm --filter objpack run build`)',
  );

const running: Cli[] = [];
const startCli = async (args: string[], cwd: string, under: string[] = []) => {
  const cli = await startServeCli(args, cwd, under);
  running.push(cli);
  return cli;
};
const temps: string[] = [];
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') for (const c of running) console.error(`objpack serve stderr:\n${c.stderr()}`);
  for (const c of running.splice(0))
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  for (const d of temps.splice(0)) await rm(d, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'objpack-serve-cli-'));
  temps.push(d);
  return d;
}

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Replaces a file the way editors' atomic save does: write a sibling, rename it over the original. */
async function atomicWrite(file: string, text: string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.swp`);
  await writeFile(tmp, text);
  await rename(tmp, file);
}

describe.skipIf(!built || !existsSync('/usr/bin/prlimit'))('objpack serve: the connection cap', () => {
  test('says the cap it derived from the open-file limit, or the one --max-connections set', async () => {
    const root = await tempDir();
    await writeFile(path.join(root, 'index.html'), '<!doctype html><title>x</title>');
    const derived = await startCli([root, '--port', '0'], root, ['/usr/bin/prlimit', '--nofile=1000']);
    // 1000 descriptors: 100 kept in reserve, a third of the rest.
    await until(async () =>
      /at most 300 connections \(from the open-file limit, 1000;/.test(derived.stderr()) ? true : undefined,
    );
    const given = await startCli([root, '--port', '0', '--max-connections', '7'], root);
    await until(async () => (/at most 7 connections \(--max-connections\)/.test(given.stderr()) ? true : undefined));
  });
});

describe.skipIf(!built)('objpack serve: graceful shutdown of the real process', () => {
  const BIG = 24 * 1024 * 1024; // larger than loopback socket buffers: a paused client keeps it in flight

  async function bigSite(): Promise<string> {
    const root = await tempDir();
    const big = Buffer.alloc(BIG);
    for (let i = 0; i < BIG; i++) big[i] = i % 251;
    await writeFile(path.join(root, 'big.bin'), big);
    await writeFile(path.join(root, 'small.txt'), 'small');
    return root;
  }

  test('SIGTERM: stops accepting, closes idle sockets at once, finishes the in-flight response, exits 0', async () => {
    const root = await bigSite();
    const cli = await startCli([root, '--port', '0'], root);

    // An idle keep-alive connection: one request answered, socket parked in the agent.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const idleSocket = await new Promise<Socket>((resolve, reject) => {
      http
        .get(`${cli.url}/small.txt`, { agent }, (res) => {
          const socket = res.socket; // the agent takes it back (and clears res.socket) once the body ends
          res.resume();
          res.on('end', () => resolve(socket));
        })
        .on('error', reject);
    });
    const idleClosed = new Promise<void>((resolve) => idleSocket.once('close', () => resolve()));

    // A slow in-flight response: headers received, body held back by a paused client.
    let received = 0;
    const slow = deferred<http.IncomingMessage>();
    const bodyDone = new Promise<number>((resolve, reject) => {
      http
        .get(`${cli.url}/big.bin`, { agent: false }, (res) => {
          res.pause();
          res.on('data', (c: Buffer) => {
            for (let i = 0; i < c.length; i++)
              if (c[i] !== (received + i) % 251) reject(new Error(`corrupt byte at ${received + i}`));
            received += c.length;
          });
          res.on('end', () => resolve(received));
          res.on('aborted', () => reject(new Error(`aborted after ${received} bytes`)));
          slow.resolve(res);
        })
        .on('error', reject);
    });
    const res = await slow.promise;

    cli.child.kill('SIGTERM');
    await idleClosed;
    expect(received).toBe(0); // the idle socket closed while the big response was still held back
    // The listening socket is closed: new connections are refused.
    // (Polled: on a loaded machine the idle socket can close by its holding time before the signal lands.)
    const tryConnect = () =>
      new Promise<string>((resolve) => {
        const s = connect(Number(new URL(cli.url).port), '127.0.0.1', () => {
          s.destroy();
          resolve('connected');
        });
        s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
    let refused = await tryConnect();
    for (let i = 0; i < 50 && refused === 'connected'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      refused = await tryConnect();
    }
    expect(refused).toBe('ECONNREFUSED');
    expect(cli.child.exitCode).toBeNull(); // still draining

    res.resume();
    expect(await bodyDone).toBe(BIG);
    expect(await cli.exit).toEqual({ code: 0, signal: null });
    expect(cli.stderr()).toContain('SIGTERM');
    agent.destroy();
  }, 120_000); // a real process and a 24 MiB body: slow on a loaded 2-core machine, never a timing assertion

  test(
    'SIGINT with a client that never reads: the response ' + 'is cut at --shutdown-timeout and the process exits 0',
    async () => {
      const root = await bigSite();
      const cli = await startCli([root, '--port', '0', '--shutdown-timeout', '300'], root);
      let received = 0;
      const started = deferred<http.IncomingMessage>();
      const ended = new Promise<string>((resolve) => {
        http
          .get(`${cli.url}/big.bin`, { agent: false }, (res) => {
            res.pause();
            res.on('data', (c: Buffer) => void (received += c.length));
            res.on('end', () => resolve('complete'));
            res.on('error', () => resolve('cut'));
            started.resolve(res);
          })
          .on('error', () => resolve('cut'));
      });
      const res = await started.promise;
      cli.child.kill('SIGINT');
      expect(await cli.exit).toEqual({ code: 0, signal: null });
      res.resume(); // read what the kernel buffered, then the server's close
      expect(await ended).toBe('cut');
      expect(received).toBeLessThan(BIG);
    },
    120_000,
  ); // a real process: slow on a loaded 2-core machine (no timing assertion)
});

describe.skipIf(!built)('objpack serve --watch', () => {
  test('an edited CSS file and page are rebuilt and served, with a fresh package, without a restart', async () => {
    const root = await tempDir();
    await mkdir(path.join(root, 'css'));
    await writeFile(path.join(root, 'css', 'site.css'), 'body { color: blue; }\n');
    await writeFile(
      path.join(root, 'index.html'),
      '<!doctype html><title>v1</title><link rel="stylesheet" href="/css/site.css"><h1>Hello</h1>\n',
    );
    await writeFile(
      path.join(root, 'about.html'),
      '<!doctype html><title>about</title><link rel="stylesheet" href="/css/site.css">\n',
    );
    const cli = await startCli([root, '--port', '0', '--watch'], root);
    await until(async () => (/watching/.test(cli.stderr()) ? true : undefined));

    const manifest = async () =>
      JSON.parse((await get(`${cli.url}/${MANIFEST_FILE}`)).body.toString()) as BuildManifest;
    // Each build names the page's new package for its build id: the server says which one it sends.
    const pagePackage = async () => {
      const r = await get(`${cli.url}/`, { 'x-objpack': 'package' });
      expect(r.status).toBe(200);
      expect(r.headers['content-location']).toMatch(/^\/_objpack\/pages\/index\.html\.[0-9a-f]{16}\.objp$/);
      return { etag: r.headers.etag, objects: unpack(r.body) };
    };
    const digestOf = async () => {
      const m = await manifest();
      return m.packages[m.pages['/']!.package]!.digest;
    };
    const before = await pagePackage();
    const digest1 = await digestOf();
    expect(before.objects.get('/css/site.css')).toContain('color: blue');

    // 1. CSS, replaced by rename (an editor's atomic save) twice: a per-file watch would miss the second.
    for (const color of ['red', 'green']) {
      await atomicWrite(path.join(root, 'css', 'site.css'), `body { color: ${color}; }\n`);
      await until(async () =>
        (await get(`${cli.url}/css/site.css`)).body.toString().includes(color) ? true : undefined,
      );
      const now = await until(async () => {
        const p = await pagePackage();
        return p.objects.get('/css/site.css')?.includes(color) ? p : undefined;
      });
      expect(now.etag).not.toBe(before.etag);
    }
    const digest2 = await digestOf();
    expect(digest2).not.toBe(digest1);

    // 2. The page itself, written in place.
    const html = (await readFile(path.join(root, 'index.html'), 'utf8')).replace(
      '<title>v1</title>',
      '<title>v2</title>',
    );
    await writeFile(path.join(root, 'index.html'), html);
    await until(async () =>
      (await get(`${cli.url}/`)).body.toString().includes('<title>v2</title>') ? true : undefined,
    );
    const after = await until(async () => {
      const p = await pagePackage();
      return p.objects.get('/')?.includes('<title>v2</title>') ? p : undefined;
    });
    expect(after.objects.get('/css/site.css')).toContain('color: green');
    expect(await digestOf()).not.toBe(digest2);

    // Same process throughout; it shuts down cleanly.
    expect(cli.child.exitCode).toBeNull();
    expect(cli.stderr()).toMatch(/rebuilt in \d+ ms/);
    cli.child.kill('SIGTERM');
    expect((await cli.exit).code).toBe(0);
  }, 120_000); // real processes and rebuilds: slow on a loaded 2-core machine (no timing assertion)
});

describe.skipIf(!built)('objpack serve --watch and temporary files', () => {
  test(
    'a save through a temporary file (sed -i) is one edit of the file: reported by its name, rebuilt once; a ' +
      'deleted page too',
    async () => {
      const root = await tempDir();
      await writeFile(path.join(root, 'site.css'), 'body { color: blue; }\n');
      await writeFile(
        path.join(root, 'index.html'),
        '<!doctype html><title>t</title><link rel="stylesheet" href="/site.css">\n',
      );
      await writeFile(
        path.join(root, 'about.html'),
        '<!doctype html><title>a</title><link rel="stylesheet" href="/site.css">\n',
      );
      const cli = await startCli([root, '--port', '0', '--watch'], root);
      await until(async () => (/watching/.test(cli.stderr()) ? true : undefined));
      // What GNU sed -i does: a sedXXXXXX file beside the edited one, written, then renamed over it.
      const tmp = path.join(root, 'sedAb12Cd');
      await writeFile(tmp, 'body { color: red; }\n');
      await rename(tmp, path.join(root, 'site.css'));
      await until(async () => (/changed: rebuilt/.test(cli.stderr()) ? true : undefined));
      await new Promise((r) => setTimeout(r, 1000));
      expect(cli.stderr()).toMatch(/^site\.css changed: rebuilt in \d+ ms/m);
      expect(cli.stderr().match(/rebuilt in/g)).toHaveLength(1);
      // A temporary file that comes and goes alone is no change at all.
      await writeFile(tmp, 'x');
      await rm(tmp);
      await new Promise((r) => setTimeout(r, 1000));
      expect(cli.stderr().match(/rebuilt in/g)).toHaveLength(1);
      // A deleted page is one rebuild too: the build's rewrite of its own block in _headers (one Link rule
      // fewer) reaches the watcher while it runs, and is no edit of the user's.
      await rm(path.join(root, 'about.html'));
      await until(async () => (cli.stderr().match(/rebuilt in/g)?.length === 2 ? true : undefined));
      await new Promise((r) => setTimeout(r, 1500));
      expect(cli.stderr()).toMatch(/^about\.html changed: rebuilt/m);
      expect(cli.stderr().match(/rebuilt in/g)).toHaveLength(2);
      cli.child.kill('SIGTERM');
      expect((await cli.exit).code).toBe(0);
    },
    120_000,
  ); // real processes and rebuilds: slow on a loaded 2-core machine (no timing assertion)
});

describe.skipIf(!built)('objpack serve --watch diagnostics', () => {
  test('a reference an edit breaks is warned about once, as build warns; rebuilds do not repeat it', async () => {
    const root = await tempDir();
    await writeFile(path.join(root, 'index.html'), '<!doctype html><title>v1</title><img src="/gone.png">\n');
    await writeFile(path.join(root, 'about.html'), '<!doctype html><title>about</title>\n');
    const cli = await startCli([root, '--port', '0', '--watch'], root);
    await until(async () => (/watching/.test(cli.stderr()) ? true : undefined));
    // The first build's warning, as `objpack build` prints it.
    expect(cli.stderr()).toMatch(/index\.html:1 OBJPACK_W_MISSING_REF .*gone\.png/);

    await writeFile(path.join(root, 'about.html'), '<!doctype html><title>about</title><img src="/lost.png">\n');
    await until(async () => (/about\.html:1 OBJPACK_W_MISSING_REF .*lost\.png/.test(cli.stderr()) ? true : undefined));
    await writeFile(path.join(root, 'about.html'), '<!doctype html><title>about 2</title><img src="/lost.png">\n');
    await until(async () => ((cli.stderr().match(/rebuilt in/g) ?? []).length >= 2 ? true : undefined));
    expect(cli.stderr().match(/MISSING_REF .*gone\.png/g)).toHaveLength(1);
    expect(cli.stderr().match(/MISSING_REF .*lost\.png/g)).toHaveLength(1);
    cli.child.kill('SIGTERM');
    expect((await cli.exit).code).toBe(0);
  }, 120_000); // real processes and rebuilds: slow on a loaded 2-core machine (no timing assertion)
});

describe.skipIf(!built)('objpack serve of a site no build has packaged', () => {
  test('says so and how to build it; serves the files all the same', async () => {
    const root = await tempDir();
    await writeFile(path.join(root, 'index.html'), '<!doctype html><title>home</title>\n');
    const cli = await startCli([root, '--port', '0'], root);
    expect(cli.stderr()).toMatch(/objpack-manifest\.json not found .*run `objpack build /);
    expect((await get(`${cli.url}/`)).status).toBe(200);
    cli.child.kill('SIGTERM');
    expect((await cli.exit).code).toBe(0);
    // Built, it says nothing of the kind.
    const build = spawn(process.execPath, [BIN, 'build', root, '--quiet'], { stdio: 'ignore' });
    expect(await new Promise((r) => build.once('exit', r))).toBe(0);
    const again = await startCli([root, '--port', '0'], root);
    expect(again.stderr()).not.toContain('not found');
    again.child.kill('SIGTERM');
    expect((await again.exit).code).toBe(0);
  }, 120_000); // real processes: slow on a loaded 2-core machine (no timing assertion)
});

describe.skipIf(!built)('objpack serve --watch and the host config', () => {
  test(
    "an edit to the user's rules in _headers rebuilds and " + "is served; the build's own rewrite of it does not loop",
    async () => {
      const root = await tempDir();
      await writeFile(path.join(root, 'index.html'), '<!doctype html><title>home</title>\n');
      await writeFile(path.join(root, 'about.html'), '<!doctype html><title>about</title>\n');
      await writeFile(path.join(root, '_headers'), '/about.html\n  X-Mine: 1\n');
      const cli = await startCli([root, '--port', '0', '--watch'], root);
      await until(async () => (/watching/.test(cli.stderr()) ? true : undefined));
      expect((await get(`${cli.url}/about.html`)).headers['x-mine']).toBe('1');

      const text = await readFile(path.join(root, '_headers'), 'utf8');
      await writeFile(path.join(root, '_headers'), text.replace('X-Mine: 1', 'X-Mine: 2'));
      await until(async () => ((await get(`${cli.url}/about.html`)).headers['x-mine'] === '2' ? true : undefined));
      // The rebuild rewrote objpack's block in _headers: that is no edit of the user's, so rebuilds stop.
      const rebuilds = async () => {
        await new Promise((r) => setTimeout(r, 1000));
        return cli.stderr().match(/rebuilt in/g)?.length;
      };
      const settled = await rebuilds();
      expect(await rebuilds()).toBe(settled);
      cli.child.kill('SIGTERM');
      expect((await cli.exit).code).toBe(0);
    },
    120_000,
  ); // real processes and rebuilds: slow on a loaded 2-core machine (no timing assertion)
});

describe('watchTree', () => {
  test('reports every replacement of a file and changes in directories created later', async () => {
    const root = await tempDir();
    await mkdir(path.join(root, 'a'));
    await writeFile(path.join(root, 'a', 'x.css'), '0');
    const seen: string[] = [];
    const w = watchTree(
      root,
      (p) => seen.push(p),
      (d) => d === 'skipped',
    );
    await w.ready;
    try {
      const saw = (p: string) => until(async () => (seen.includes(p) ? true : undefined));
      for (let i = 1; i <= 3; i++) {
        seen.length = 0;
        await atomicWrite(path.join(root, 'a', 'x.css'), String(i));
        await saw(path.join('a', 'x.css'));
      }
      await mkdir(path.join(root, 'new', 'deep'), { recursive: true });
      await until(async () => (w.size >= 4 ? true : undefined)); // root, a, new, new/deep
      seen.length = 0;
      await writeFile(path.join(root, 'new', 'deep', 'y.js'), 'y');
      await saw(path.join('new', 'deep', 'y.js'));
      await mkdir(path.join(root, 'skipped'));
      await writeFile(path.join(root, 'skipped', 'z'), 'z');
      await rm(path.join(root, 'new'), { recursive: true });
      await until(async () => (w.size === 2 ? true : undefined)); // removed directories are dropped
      expect(seen).not.toContain(path.join('skipped', 'z'));
    } finally {
      w.close();
    }
  });
});
