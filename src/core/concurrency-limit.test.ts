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
});
