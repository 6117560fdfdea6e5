import { describe, expect, it } from 'vitest';
import { HotObjectCache } from './hot-object-cache.js';

const entry = (n: number) => ({ body: Buffer.alloc(n), contentType: 'x', etag: '', lastModified: undefined });

describe('HotObjectCache', () => {
  it('stays within its byte bound, evicting the least recently used', () => {
    const cache = new HotObjectCache(100, 60);
    cache.set('a', entry(40));
    cache.set('b', entry(40));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('c', entry(40));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 80, evictions: 1 });
  });
  it('never holds an object above the per-object bound; replacing a key keeps the count right', () => {
    const cache = new HotObjectCache(100, 60);
    expect(cache.set('big', entry(61))).toBe(false);
    expect(cache.get('big')).toBeUndefined();
    cache.set('k', entry(10));
    cache.set('k', entry(30));
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 30 });
  });
});
