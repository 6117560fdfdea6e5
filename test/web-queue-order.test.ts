/**
 * The player queue's order (web/player/src/queue-order.ts): shuffle keeps the current track and
 * those before it, shuffles what is left, and off restores the order before it, with tracks
 * added, moved and removed meanwhile; next, previous and the end of a track under repeat.
 */
import { describe, expect, it } from 'vitest';
import {
  endedIndex,
  insertItems,
  limitItems,
  moveItem,
  nextIndex,
  nextRepeat,
  previousIndex,
  removeItem,
  shuffleOff,
  shuffleOn,
  type Order,
} from '../web/player/src/queue-order.js';

const list = (n: number): string[] => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));
const at = (items: string[], index: number): Order<string> => ({ items, index, ranks: null });

/** A seeded generator (mulberry32): the same "random" order on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('shuffle', () => {
  it('keeps the current track and those before it; the rest is the same tracks in another order', () => {
    const o = shuffleOn(at(list(10), 3), seeded(1));
    expect(o.index).toBe(3);
    expect(o.items.slice(0, 4)).toEqual(['a', 'b', 'c', 'd']);
    expect([...o.items.slice(4)].sort()).toEqual(['e', 'f', 'g', 'h', 'i', 'j']);
    expect(o.items.slice(4)).not.toEqual(['e', 'f', 'g', 'h', 'i', 'j']);
    expect(o.ranks).not.toBeNull();
  });

  it('is a fresh order each time: every order of what is left comes up, about equally often', () => {
    const counts = new Map<string, number>();
    const random = seeded(7);
    for (let i = 0; i < 6000; i++) {
      const key = shuffleOn(at(list(4), 0), random).items.join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    // 3! orders of b, c, d after a; each expected 1000 times.
    expect(counts.size).toBe(6);
    for (const [key, n] of counts) {
      expect(key.startsWith('a'), key).toBe(true);
      expect(n, key).toBeGreaterThan(850);
      expect(n, key).toBeLessThan(1150);
    }
  });

  it('off restores the original order; the current track stays current', () => {
    const on = shuffleOn(at(list(8), 2), seeded(3));
    const current = on.items[5]!;
    const off = shuffleOff({ ...on, index: 5 });
    expect(off.items).toEqual(list(8));
    expect(off.ranks).toBeNull();
    expect(off.items[off.index]).toBe(current);
  });

  it('off keeps what was added, moved and removed while shuffled, in the order it would have had', () => {
    let o = shuffleOn(at(list(5), 1), seeded(11));
    // Play next: right after the current one both ways.
    o = insertItems(o, o.index + 1, ['x', 'y'], true);
    expect(o.items.slice(0, 4)).toEqual(['a', 'b', 'x', 'y']);
    // Added to the end: last both ways.
    o = insertItems(o, o.items.length, ['z'], false);
    expect(o.items.at(-1)).toBe('z');
    // "e" moved to the front, "c" removed.
    o = moveItem(o, o.items.indexOf('e'), 0);
    expect(o.items[0]).toBe('e');
    expect(o.items[o.index]).toBe('b');
    o = removeItem(o, o.items.indexOf('c'));
    const off = shuffleOff(o);
    expect(off.items).toEqual(['a', 'b', 'x', 'y', 'd', 'e', 'z']);
    expect(off.items[off.index]).toBe('b');
  });

  it('a single track or the last one current: nothing to shuffle, nothing breaks', () => {
    expect(shuffleOn(at(['a'], 0)).items).toEqual(['a']);
    expect(shuffleOn(at(list(3), 2)).items).toEqual(list(3));
    expect(shuffleOff(shuffleOn(at([], -1)))).toEqual({ items: [], index: -1, ranks: null });
    // Nothing chosen yet: everything is what is left.
    expect([...shuffleOn(at(list(5), -1), seeded(5)).items].sort()).toEqual(list(5));
  });

  it('limiting the length keeps ranks beside the items', () => {
    const o = limitItems(shuffleOn(at(list(6), 0), seeded(2)), 4);
    expect(o.items).toHaveLength(4);
    expect(o.ranks).toHaveLength(4);
    expect(shuffleOff(o).items).toEqual([...o.items].sort());
  });
});

describe('repeat', () => {
  it('steps off → all → one → off', () => {
    expect([nextRepeat('off'), nextRepeat('all'), nextRepeat('one')]).toEqual(['all', 'one', 'off']);
  });

  it('Next: the following track; past the last, nowhere (off) or the first (all, one)', () => {
    expect(nextIndex(1, 3, 'off')).toBe(2);
    expect(nextIndex(2, 3, 'off')).toBe(-1);
    expect(nextIndex(2, 3, 'all')).toBe(0);
    expect(nextIndex(2, 3, 'one')).toBe(0);
    expect(nextIndex(-1, 0, 'all')).toBe(-1);
  });

  it('the end of a track: the same track again under repeat one, else as Next', () => {
    expect(endedIndex(1, 3, 'one')).toBe(1);
    expect(endedIndex(2, 3, 'one')).toBe(2);
    expect(endedIndex(2, 3, 'all')).toBe(0);
    expect(endedIndex(2, 3, 'off')).toBe(-1);
    expect(endedIndex(0, 3, 'off')).toBe(1);
  });

  it('Previous from the start of a track: the one before; before the first, the last under repeat', () => {
    expect(previousIndex(2, 3, 'off')).toBe(1);
    expect(previousIndex(0, 3, 'off')).toBe(-1);
    expect(previousIndex(0, 3, 'all')).toBe(2);
    expect(previousIndex(0, 3, 'one')).toBe(2);
  });
});
