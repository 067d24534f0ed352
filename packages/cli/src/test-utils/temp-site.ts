import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A fresh temporary directory per test with an empty `site/` in it. */
export interface TempSite {
  readonly dir: string;
  readonly site: string;
  /** Writes a file of the site, creating its directories. */
  write(rel: string, content: string | Buffer): void;
}

/** Registers the per-test directory and its removal; call it at the top of a test file. */
export function tempSite(prefix: string): TempSite {
  const t = {
    dir: '',
    site: '',
    write(rel: string, content: string | Buffer) {
      const p = path.join(t.site, rel);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, content);
    },
  };
  beforeEach(() => {
    t.dir = mkdtempSync(path.join(tmpdir(), prefix));
    t.site = path.join(t.dir, 'site');
    mkdirSync(t.site);
  });
  afterEach(() => {
    rmSync(t.dir, { recursive: true, force: true });
  });
  return t;
}
