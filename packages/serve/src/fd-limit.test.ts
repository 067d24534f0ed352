import { describe, expect, it } from 'vitest';
import { acceptLimit, ASSUMED_FILE_LIMIT, defaultMaxConnections, fileLimit } from './fd-limit.js';

const limits = (soft: string, hard: string) =>
  `Limit                     Soft Limit           Hard Limit           Units     \n` +
  `Max processes             95403                95403                processes \n` +
  `Max open files            ${soft.padEnd(20)} ${hard.padEnd(20)} files     \n`;

describe('fileLimit', () => {
  it('reads the soft RLIMIT_NOFILE from /proc/self/limits', () => {
    expect(fileLimit(() => limits('1024', '524288'))).toEqual({ files: 1024, source: 'rlimit' });
    expect(fileLimit(() => limits('unlimited', 'unlimited'))).toEqual({ files: Infinity, source: 'rlimit' });
  });

  it('assumes a common limit where the file cannot be read or says nothing of it', () => {
    const missing = () => {
      throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    };
    expect(fileLimit(missing)).toEqual({ files: ASSUMED_FILE_LIMIT, source: 'assumed' });
    expect(fileLimit(() => 'Limit Soft Hard\n')).toEqual({ files: ASSUMED_FILE_LIMIT, source: 'assumed' });
  });
});

describe('defaultMaxConnections', () => {
  it('keeps admitted sockets, their files, refused sockets and a reserve within the limit', () => {
    for (const files of [100, 256, 1024, 4096, 20_000, 1_048_576]) {
      const cap = defaultMaxConnections(files);
      expect(cap).toBeGreaterThanOrEqual(1);
      if (files >= 256) expect(2 * cap + (acceptLimit(cap) - cap) + 64).toBeLessThanOrEqual(files);
    }
    expect(defaultMaxConnections(1024)).toBe(307);
    expect(defaultMaxConnections(20_000)).toBe(6325);
    expect(defaultMaxConnections(Infinity)).toBe(Infinity);
  });
});
