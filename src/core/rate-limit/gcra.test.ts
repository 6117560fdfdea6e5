import { describe, expect, it } from 'vitest';
import { gcra, gcraUpTo, retryAfterSeconds, type GcraLimit } from './gcra.js';
import { MemoryRateLimitStore } from './memory-store.js';

/** Replays nginx limit_req burst/nodelay: returns the admitted flags for request times. */
function replay(times: number[], limit: GcraLimit): boolean[] {
  let tat: number | undefined;
  return times.map((t) => {
    const d = gcra(tat, t, limit);
    if (d.allowed) tat = d.tat;
    return d.allowed;
  });
}

describe('GCRA with nginx burst/nodelay semantics', () => {
  const limit = { ratePerSecond: 10, burst: 3 }; // one request per 100 ms

  it('admits burst + 1 requests at once from an idle client, then rejects', () => {
    expect(replay([0, 0, 0, 0, 0], limit)).toEqual([true, true, true, true, false]);
  });

  it('admits one more request per emission interval after the burst', () => {
    expect(replay([0, 0, 0, 0, 99, 100, 100, 200], limit)).toEqual([
      true,
      true,
      true,
      true,
      false,
      true,
      false,
      true,
    ]);
  });

  it('does not charge rejected requests', () => {
    // Hammering while limited must not push the next admission further out.
    const times = [0, 0, 0, 0, ...Array.from({ length: 50 }, (_, i) => 1 + i), 100];
    const admitted = replay(times, limit);
    expect(admitted.at(-1)).toBe(true);
  });

  it('tells a rejected client how long to wait, rounded up to whole seconds for Retry-After', () => {
    let tat: number | undefined;
    for (let i = 0; i < 4; i++) tat = gcra(tat, 0, limit).tat;
    const d = gcra(tat, 0, limit);
    expect(d.allowed).toBe(false);
    expect(d.retryAfterMs).toBe(100);
    expect(retryAfterSeconds(d.retryAfterMs)).toBe(1);
    expect(retryAfterSeconds(1500)).toBe(2);
    const slow = { ratePerSecond: 5 / 60, burst: 3 }; // nginx 5r/m
    let t2: number | undefined;
    for (let i = 0; i < 4; i++) t2 = gcra(t2, 0, slow).tat;
    expect(retryAfterSeconds(gcra(t2, 0, slow).retryAfterMs)).toBe(12);
  });

  it('takes a cost of several requests at once, all or none', () => {
    const first = gcra(undefined, 0, limit, 3);
    expect(first).toMatchObject({ allowed: true, tat: 300 });
    // One more fits the burst of 3 + 1; two more do not, and the refusal charges nothing.
    const refused = gcra(first.tat, 0, limit, 2);
    expect(refused).toMatchObject({ allowed: false, tat: 300, retryAfterMs: 100 });
    expect(gcra(first.tat, 0, limit, 1).allowed).toBe(true);
    // A cost above burst + 1 is never admitted, not even by an idle client.
    expect(gcra(undefined, 0, limit, 5).allowed).toBe(false);
  });

  it('takes up to a number of requests: what the bucket holds now, then one per interval', () => {
    const first = gcraUpTo(undefined, 0, limit, 10);
    expect(first).toEqual({ granted: 4, tat: 400, retryAfterMs: 0 });
    const empty = gcraUpTo(first.tat, 0, limit, 10);
    expect(empty).toEqual({ granted: 0, tat: 400, retryAfterMs: 100 });
    // 250 ms later two and a half intervals have passed: two requests are due, not a group of four.
    expect(gcraUpTo(first.tat, 250, limit, 10)).toEqual({ granted: 2, tat: 600, retryAfterMs: 0 });
    expect(gcraUpTo(first.tat, 250, limit, 1)).toEqual({ granted: 1, tat: 500, retryAfterMs: 0 });
  });

  it('grants exactly the largest cost gcra would admit, from any state', () => {
    // Intervals that are not whole milliseconds (1000/7, 1000/3) and clock readings as large and
    // fractional as real ones, where the division rounds either way.
    const limits: GcraLimit[] = [
      limit,
      { ratePerSecond: 3, burst: 0 },
      { ratePerSecond: 3, burst: 2 },
      { ratePerSecond: 7, burst: 5 },
      { ratePerSecond: 1200 / 60, burst: 100 },
    ];
    for (const l of limits) {
      for (let i = 0; i < 2000; i++) {
        const now = 1.7e12 + i * 7.31 + (i % 3) * 0.5;
        const tat = i % 5 === 0 ? undefined : now - 2000 + ((i * 7919) % 6000) + (i % 7) / 7;
        const most = 1 + (i % 150);
        const { granted } = gcraUpTo(tat, now, l, most);
        if (granted > 0) expect(gcra(tat, now, l, granted).allowed).toBe(true);
        if (granted < most) expect(gcra(tat, now, l, granted + 1).allowed).toBe(false);
      }
    }
  });

  it('restores the full burst after an idle period', () => {
    expect(replay([0, 0, 0, 0, 0, 400, 400, 400, 400, 400], limit)).toEqual([
      true,
      true,
      true,
      true,
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('is what the in-memory store does, with an injected clock', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
    const got: boolean[] = [];
    for (let i = 0; i < 5; i++) got.push((await store.take('k', limit)).allowed);
    expect(got).toEqual([true, true, true, true, false]);
    expect((await store.take('other', limit)).allowed).toBe(true);
    now += 100;
    expect((await store.take('k', limit)).allowed).toBe(true);
    expect((await store.take('k', limit)).allowed).toBe(false);
    now += 250;
    expect(await store.takeUpTo('k', limit, 10)).toEqual({ granted: 2, retryAfterMs: 0 });
    expect((await store.takeUpTo('k', limit, 10)).granted).toBe(0);
  });
});
