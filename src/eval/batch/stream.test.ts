import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BatchStream, type BatchUnit } from './stream.js';

/** Units of `size` lines whose text names their lines, finishing in reverse order of dispatch. */
function reversedUnits(size: number): {
  dispatch: (from: number, most: number) => BatchUnit;
  starts: number[];
} {
  const starts: number[] = [];
  let delay = 40;
  return {
    starts,
    dispatch: (from, most) => {
      const lines = Math.min(size, most);
      starts.push(from);
      const text = Array.from({ length: lines }, (_, i) => `${from + i}\n`).join('');
      delay = Math.max(0, delay - 10);
      return { lines, text: new Promise((resolve) => setTimeout(() => resolve(text), delay)) };
    },
  };
}

async function readAll(stream: BatchStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

describe('BatchStream', () => {
  it('answers in input order whatever order the units finish in, in units of several lines', async () => {
    const units = reversedUnits(3);
    const text = await readAll(new BatchStream({ count: 10, concurrency: 4, dispatch: units.dispatch }));
    expect(text).toBe(Array.from({ length: 10 }, (_, i) => `${i}\n`).join(''));
    expect(units.starts).toEqual([0, 3, 6, 9]);
  });

  it('never asks for more lines than were admitted', async () => {
    const units = reversedUnits(100);
    const grants: number[] = [];
    const stream = new BatchStream({
      count: 7,
      concurrency: 2,
      dispatch: units.dispatch,
      admitAtOnce: 256,
      credit: 1,
      admit: (cost) => {
        grants.push(Math.min(cost, 2));
        return Promise.resolve(Math.min(cost, 2));
      },
    });
    expect(await readAll(stream)).toBe('0\n1\n2\n3\n4\n5\n6\n');
    // Units never span more lines than the credit at hand: 1, then grants of 2.
    expect(units.starts).toEqual([0, 1, 3, 5]);
    expect(grants).toEqual([2, 2, 2]);
  });

  it('ends the answer with the error when a unit rejects, and dispatches nothing more', async () => {
    let dispatched = 0;
    const stream = new BatchStream({
      count: 100,
      concurrency: 1,
      dispatch: (from) => {
        dispatched++;
        return {
          lines: 1,
          text: from === 2 ? Promise.reject(new Error('unit failed')) : Promise.resolve(`${from}\n`),
        };
      },
    });
    stream.resume();
    const [err] = (await once(stream, 'error')) as [Error];
    expect(err.message).toBe('unit failed');
    expect(dispatched).toBe(3);
  });

  it('lets the event loop serve other work while units settle at once (problem lines)', async () => {
    // 2,000 units that each cost ~0.1 ms of synchronous work and settle at once, read by a
    // consumer that never pushes back: without yielding, the whole batch is one macrotask.
    const stream = new BatchStream({
      count: 2000,
      concurrency: 4,
      dispatch: (from) => {
        const until = performance.now() + 0.1;
        while (performance.now() < until);
        return { lines: 1, text: Promise.resolve(`${from}\n`) };
      },
    });
    let turns = 0;
    let done = false;
    const tick = (): void => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    let lines = 0;
    stream.on('data', (chunk: Buffer) => (lines += String(chunk).split('\n').length - 1));
    await once(stream, 'end');
    done = true;
    expect(lines).toBe(2000);
    expect(turns).toBeGreaterThan(10);
  });
});
