import { describe, expect, it } from 'vitest';
import { fromGraph6, toGraph6 } from './graph6.js';
import { GraphError, edgeList, emptyGraph, sameGraph } from './graph.js';
import { complete, path, petersen } from './testing-graphs.js';
import { randomGraph, xorshift } from './brute-force.testing.js';

describe('graph6', () => {
  it('matches the encodings nauty and networkx give', () => {
    // networkx.to_graph6_bytes(nx.petersen_graph(), header=False) with its own labelling
    // (outer cycle 0..4, spokes i-(i+5), inner 5-7-9-6-8) equals ours.
    expect(toGraph6(petersen())).toBe('IheA@GUAo');
    expect(toGraph6(complete(4))).toBe('C~');
    expect(toGraph6(path(2))).toBe('A_');
    expect(toGraph6(emptyGraph(1))).toBe('@');
    expect(toGraph6(emptyGraph(5))).toBe('D??');
  });

  it('round-trips random graphs', () => {
    const rnd = xorshift(7);
    for (let i = 0; i < 300; i++) {
      const g = randomGraph(1 + (i % 12), 0.4, rnd);
      const back = fromGraph6(toGraph6(g));
      expect(sameGraph(g, back)).toBe(true);
      expect(edgeList(back)).toEqual(edgeList(g));
    }
  });

  it('accepts the >>graph6<< header', () => {
    expect(edgeList(fromGraph6('>>graph6<<A_'))).toEqual([[0, 1]]);
  });

  it('rejects malformed strings with a reason', () => {
    expect(() => fromGraph6('')).toThrow(GraphError);
    expect(() => fromGraph6('C')).toThrow(/must be 2 characters/);
    expect(() => fromGraph6('C~~')).toThrow(/must be 2 characters/);
    expect(() => fromGraph6('M' + '?'.repeat(11))).toThrow(/14 vertex count/);
    expect(() => fromGraph6('A ')).toThrow(/out of range/);
    expect(() => fromGraph6('Ao')).toThrow(/padding/);
  });
});
