import { isUtf8 } from 'node:buffer';
import { describe, expect, test } from 'vitest';
import { Utf8Check } from './utf8-check.js';

const check = (chunks: Uint8Array[]) => {
  const c = new Utf8Check();
  for (const chunk of chunks) c.push(chunk);
  return c.end();
};

const SAMPLES: Array<[string, Buffer]> = [
  ['ascii', Buffer.from('body { color: red }')],
  ['2, 3 and 4-byte sequences', Buffer.from('é € 𝄞 naïve café 日本語 🎉')],
  ['empty', Buffer.alloc(0)],
  ['latin-1 é', Buffer.from('caf\xe9 au lait', 'latin1')],
  ['lone continuation byte', Buffer.from([0x61, 0x80, 0x62])],
  ['truncated at the end', Buffer.concat([Buffer.from('abc'), Buffer.from('€').subarray(0, 2)])],
  ['truncated in the middle', Buffer.concat([Buffer.from('€').subarray(0, 2), Buffer.from('abc')])],
  ['overlong /', Buffer.from([0xc0, 0xaf])],
  ['surrogate half', Buffer.from([0xed, 0xa0, 0x80])],
  ['beyond U+10FFFF', Buffer.from([0xf4, 0x90, 0x80, 0x80])],
  ['F8 lead', Buffer.from([0x61, 0xf8, 0x88, 0x80, 0x80, 0x80])],
  ['too many continuations', Buffer.from([0xc3, 0xa9, 0xa9])],
];

describe('Utf8Check: the same verdict as isUtf8 on the whole file, at every chunk boundary', () => {
  test.each(SAMPLES)('%s', (_name, bytes) => {
    const whole = isUtf8(bytes);
    expect(check([bytes])).toBe(whole);
    for (let i = 0; i <= bytes.length; i++)
      expect(check([bytes.subarray(0, i), bytes.subarray(i)]), `split at ${i}`).toBe(whole);
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j++)
        expect(check([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]), `split at ${i}, ${j}`).toBe(
          whole,
        );
    }
    expect(check([...bytes].map((b) => Uint8Array.of(b))), 'byte by byte').toBe(whole);
  });

  test('random text, valid and broken, split at random points', () => {
    // A fixed xorshift sequence: the same 3,000 cases on every run.
    let x = 0x9e3779b9;
    const rand = (n: number) => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % n;
    };
    const pieces = ['a', 'é', '€', '𝄞', '日', '\n'].map((t) => Buffer.from(t));
    for (let c = 0; c < 3000; c++) {
      const parts = Array.from({ length: 1 + rand(12) }, () => pieces[rand(pieces.length)]!);
      const bytes = Buffer.concat(parts);
      if (rand(2) === 0 && bytes.length > 0) bytes[rand(bytes.length)] = rand(256); // maybe break it
      const cuts = Array.from({ length: rand(4) }, () => rand(bytes.length + 1)).sort((a, b) => a - b);
      const chunks = [0, ...cuts].map((from, i) => bytes.subarray(from, [...cuts, bytes.length][i]));
      expect(check(chunks), `${bytes.toString('hex')} at ${cuts.join(',')}`).toBe(isUtf8(bytes));
    }
  });

  test('a multi-byte character across 1 MB read chunks', () => {
    const text = Buffer.from(`${'a'.repeat((1 << 20) - 1)}€${'b'.repeat(100)}`);
    expect(check([text.subarray(0, 1 << 20), text.subarray(1 << 20)])).toBe(true);
    const bad = Buffer.from(text);
    bad[(1 << 20) + 1] = 0x41; // the euro sign's last byte
    expect(check([bad.subarray(0, 1 << 20), bad.subarray(1 << 20)])).toBe(false);
  });
});
