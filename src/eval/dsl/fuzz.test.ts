import { describe, expect, it } from 'vitest';
import { tabulatedSmallGraphs } from '../graph/enumerate.js';
import { xorshift } from '../graph/brute-force.testing.js';
import { generator } from './random-expressions.testing.js';
import { DslError, canonicalForm, compileExpression, parseExpression, tryParseExpression } from './index.js';

describe('random expressions', () => {
  it('canonical form is stable and evaluates like the original on every graph with <= 4 vertices', () => {
    const gen = generator(99);
    const graphs = tabulatedSmallGraphs(4);
    let checked = 0;
    for (let i = 0; i < 400; i++) {
      const src = gen.bool(4);
      const r = tryParseExpression(src);
      if (!r.ok) {
        // Only the length bound may reject a generated expression.
        expect(r.error.kind).toBe('too_long');
        continue;
      }
      const canon = canonicalForm(r.expr);
      const again = parseExpression(canon);
      expect(canonicalForm(again)).toBe(canon);
      const a = compileExpression(r.expr);
      const b = compileExpression(again);
      for (const row of graphs) expect(b.onValues(row.values)).toBe(a.onValues(row.values));
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('garbage never throws anything but a DslError', () => {
    const rnd = xorshift(5);
    const alphabet = [
      'n',
      'm',
      'is_tree',
      'and',
      'or',
      'not',
      '(',
      ')',
      '=>',
      '==',
      '<',
      '+',
      '-',
      '*',
      '1',
      '0.5',
      ' ',
      '/',
      '.',
      'x',
      'é',
      '\u0007',
    ];
    for (let i = 0; i < 3000; i++) {
      const len = 1 + (rnd() % 12);
      const src = Array.from({ length: len }, () => alphabet[rnd() % alphabet.length]!).join(' ');
      try {
        parseExpression(src);
      } catch (e) {
        expect(e).toBeInstanceOf(DslError);
        const err = e as DslError;
        expect(err.column).toBeGreaterThanOrEqual(1);
        expect(err.column).toBeLessThanOrEqual(src.length + 1);
      }
    }
  });
});
