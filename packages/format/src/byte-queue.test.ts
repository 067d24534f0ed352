import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteQueue } from './byte-queue.js';
import { fcRuns } from './test-utils/arbitraries.js';

describe('ByteQueue', () => {
  it('hands out (and peeks at) the pushed bytes in order, whatever the pushes and takes', () => {
    const op = fc.oneof(
      fc.record({ push: fc.uint8Array({ maxLength: 9 }) }),
      fc.record({ take: fc.nat({ max: 20 }) }),
      fc.record({ some: fc.nat({ max: 20 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const q = new ByteQueue();
        const model: number[] = [];
        for (const o of ops) {
          if ('push' in o) {
            q.push(o.push);
            model.push(...o.push);
          } else if ('take' in o) {
            const got = q.take(o.take);
            if (o.take > model.length) expect(got).toBeNull();
            else expect([...got!]).toEqual(model.splice(0, o.take));
          } else {
            const got = q.takeSome(o.some);
            if (o.some === 0 || model.length === 0) expect(got).toBeNull();
            else {
              expect(got!.length).toBeGreaterThan(0);
              expect(got!.length).toBeLessThanOrEqual(o.some);
              expect([...got!]).toEqual(model.splice(0, got!.length));
            }
          }
          expect(q.length).toBe(model.length);
          for (const i of [0, 1, 2, 3, model.length - 1, model.length]) {
            if (i >= 0) expect(q.peek(i), `peek(${i})`).toBe(model[i]);
          }
        }
      }),
      { numRuns: fcRuns(0.2) },
    );
  });

  it('returns zero-copy views inside one chunk and copies only across chunks', () => {
    const q = new ByteQueue();
    const a = new Uint8Array([1, 2, 3, 4]);
    q.push(a);
    q.push(new Uint8Array([5, 6]));
    expect(q.take(2)!.buffer).toBe(a.buffer);
    const straddle = q.take(3)!;
    expect(straddle.buffer).not.toBe(a.buffer);
    expect([...straddle]).toEqual([3, 4, 5]);
  });

  it('keeps working across many consumed chunks (batched compaction)', () => {
    const q = new ByteQueue();
    for (let i = 0; i < 5000; i++) q.push(new Uint8Array([i & 0xff]));
    for (let i = 0; i < 3000; i++) expect(q.takeSome(1)![0]).toBe(i & 0xff);
    const rest = q.take(2000)!;
    expect(rest.length).toBe(2000);
    expect(rest[0]).toBe(3000 & 0xff);
    expect(q.length).toBe(0);
    expect(q.takeSome(1)).toBeNull();
  });
});
