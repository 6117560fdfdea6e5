import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from './concurrency-limit.js';
import { KeyedShare } from './keyed-share.js';

describe('keyed share of a concurrency limit', () => {
  it('gives each key at most its share, the limit bounds them all, and both free their slots', async () => {
    const share = new KeyedShare(
      new ConcurrencyLimit(3, 1, () => new Error('full')),
      2,
      () => new Error('over share'),
    );
    const gates: (() => void)[] = [];
    const task = (key: string) =>
      share.run(key, () => new Promise<string>((resolve) => gates.push(() => resolve(key))));
    const a1 = task('a');
    const a2 = task('a');
    await expect(task('a')).rejects.toThrow('over share');
    const b1 = task('b');
    expect(share.counts).toEqual({ running: 3, waiting: 0 });
    // The limit's queue takes one more; past it, the limit's own refusal.
    const c1 = task('c');
    await expect(task('d')).rejects.toThrow('full');
    expect(share.counts).toEqual({ running: 3, waiting: 1 });
    gates.shift()!();
    expect(await a1).toBe('a');
    // a's slot went to c, which waited; a may queue one again, and the queue is full after it.
    const a3 = task('a');
    await expect(task('a')).rejects.toThrow('over share');
    await expect(task('e')).rejects.toThrow('full');
    expect(share.counts).toEqual({ running: 3, waiting: 1 });
    while (gates.length > 0) {
      gates.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all([a2, b1, c1, a3])).toEqual(['a', 'b', 'c', 'a']);
    expect(share.counts).toEqual({ running: 0, waiting: 0 });
    // A failing task gives its share back.
    await expect(share.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(share.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await share.run('a', () => Promise.resolve('free'))).toBe('free');
  });
});
