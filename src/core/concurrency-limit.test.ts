import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from './concurrency-limit.js';

describe('concurrency limit', () => {
  it('runs at most max tasks at once, the rest in order, and refuses beyond the queue', async () => {
    const limit = new ConcurrencyLimit(2, 2, () => new Error('full'));
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const gates: (() => void)[] = [];
    const task = (n: number) =>
      limit.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(n);
        await new Promise<void>((resolve) => gates.push(resolve));
        running--;
        return n;
      });
    const tasks = [1, 2, 3, 4].map(task);
    await expect(task(5)).rejects.toThrow('full');
    expect(order).toEqual([1, 2]);
    while (gates.length > 0 || order.length < 4) {
      const gate = gates.shift();
      if (gate) gate();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(tasks)).toEqual([1, 2, 3, 4]);
    expect(order).toEqual([1, 2, 3, 4]);
    expect(most).toBe(2);
    // A failing task frees its slot too.
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limit.run(() => Promise.resolve('free'))).toBe('free');
  });

  it('holds one key to perKey.most tasks running or waiting, refusing its next at once, others unaffected', async () => {
    const limit = new ConcurrencyLimit(1, 4, () => new Error('full'), {
      most: 1,
      full: () => new Error('yours is running'),
    });
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = limit.run(() => gate.then(() => 'a1'), 'a');
    await expect(limit.run(() => Promise.resolve('a2'), 'a')).rejects.toThrow('yours is running');
    // Another key waits its turn behind the global bound instead.
    const other = limit.run(() => Promise.resolve('b1'), 'b');
    release();
    expect(await Promise.all([first, other])).toEqual(['a1', 'b1']);
    // Done, the key may run again; a failing task frees its key too.
    await expect(limit.run(() => Promise.reject(new Error('boom')), 'a')).rejects.toThrow('boom');
    expect(await limit.run(() => Promise.resolve('a3'), 'a')).toBe('a3');
    // A task refused by the global queue frees its key as well.
    const tight = new ConcurrencyLimit(1, 0, () => new Error('full'), {
      most: 1,
      full: () => new Error('mine'),
    });
    let open = (): void => undefined;
    const busy = tight.run(() => new Promise<void>((resolve) => (open = resolve)), 'x');
    await expect(tight.run(() => Promise.resolve(), 'y')).rejects.toThrow('full');
    open();
    await busy;
    await expect(tight.run(() => Promise.resolve('y'), 'y')).resolves.toBe('y');
  });
});
