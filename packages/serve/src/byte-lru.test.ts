import { describe, expect, it } from 'vitest';
import { ByteLru } from './byte-lru.js';

describe('ByteLru', () => {
  it('evicts the least recently used to stay within its byte budget', () => {
    const lru = new ByteLru<Buffer>(10);
    lru.set('a', Buffer.alloc(4));
    lru.set('b', Buffer.alloc(4));
    lru.get('a');
    lru.set('c', Buffer.alloc(4));
    expect(lru.has('a')).toBe(true);
    expect(lru.has('b')).toBe(false);
    expect(lru.bytes).toBe(8);
    expect(lru.set('huge', Buffer.alloc(11))).toBe(false);
    lru.set('a', Buffer.alloc(1));
    expect(lru.bytes).toBe(5);
  });
});
