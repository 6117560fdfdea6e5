import { describe, expect, it } from 'vitest';
import { forEachLabelledGraph, labelledGraphCount, tabulatedSmallGraphs } from './enumerate.js';
import { featureRecord, FEATURES } from './features.js';
import { toGraph6 } from './graph6.js';
import { edgeCount } from './structure.js';

describe('labelled graph enumeration', () => {
  it('visits every labelled graph on n vertices exactly once', () => {
    for (let n = 1; n <= 5; n++) {
      const seen = new Set<string>();
      const visited = forEachLabelledGraph(n, (g) => {
        seen.add(toGraph6(g));
      });
      expect(visited).toBe(labelledGraphCount(n));
      expect(seen.size).toBe(labelledGraphCount(n));
    }
    expect([1, 2, 3, 4, 5].map(labelledGraphCount)).toEqual([1, 2, 8, 64, 1024]);
  });

  it('counts edges binomially on 4 vertices', () => {
    const byM = new Array<number>(7).fill(0);
    forEachLabelledGraph(4, (g) => {
      byM[edgeCount(g)]!++;
    });
    expect(byM).toEqual([1, 6, 15, 20, 15, 6, 1]);
  });

  it('stops when the callback returns false', () => {
    expect(forEachLabelledGraph(5, (_g, i) => i < 9)).toBe(10);
  });

  it('tabulates 1, 3, 11, 75, 1099 graphs with exact features', () => {
    expect([1, 2, 3, 4, 5].map((k) => tabulatedSmallGraphs(k).length)).toEqual([1, 3, 11, 75, 1099]);
    const t = tabulatedSmallGraphs(5);
    expect(tabulatedSmallGraphs(5)).toBe(t);
    for (const i of [0, 10, 74, 500, 1098]) {
      const row = t[i]!;
      const rec = featureRecord(row.graph);
      for (const f of FEATURES) expect(row.values[f.id]).toBe(Number(rec[f.name]));
    }
    // 34 isomorphism classes on 5 vertices, 21 of them connected: 728 connected labelled graphs.
    expect(t.filter((r) => r.graph.n === 5 && r.values[5] === 1).length).toBe(728);
  });
});
