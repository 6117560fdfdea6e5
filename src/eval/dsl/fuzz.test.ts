import { describe, expect, it } from 'vitest';
import { tabulatedSmallGraphs } from '../graph/enumerate.js';
import { xorshift } from '../graph/brute-force.testing.js';
import { FEATURES } from '../graph/features.js';
import { DslError, canonicalForm, compileExpression, parseExpression, tryParseExpression } from './index.js';

function generator(seed: number): { bool: (d: number) => string; num: (d: number) => string } {
  const rnd = xorshift(seed);
  const pick = <T>(xs: readonly T[]): T => xs[rnd() % xs.length]!;
  const bools = FEATURES.filter((f) => f.type === 'bool').map((f) => f.name);
  const nums = FEATURES.filter((f) => f.type === 'num').map((f) => f.name);
  const num = (d: number): string => {
    const k = d <= 0 ? rnd() % 3 : rnd() % 7;
    switch (k) {
      case 0:
        return pick(nums);
      case 1:
        return String(rnd() % 12);
      case 2:
        return `${rnd() % 3}.${rnd() % 100}`;
      case 3:
        return `${num(d - 1)} ${pick(['+', '-', '*'])} ${num(d - 1)}`;
      case 4:
        return `-${num(d - 1)}`;
      default:
        return `(${num(d - 1)})`;
    }
  };
  const bool = (d: number): string => {
    const k = d <= 0 ? rnd() % 3 : rnd() % 9;
    switch (k) {
      case 0:
        return pick(bools);
      case 1:
        return `${num(0)} ${pick(['==', '!=', '<', '<=', '>', '>='])} ${num(0)}`;
      case 2:
        return pick(['true', 'false']);
      case 3:
        return `not ${bool(d - 1)}`;
      case 4:
        return `${bool(d - 1)} and ${bool(d - 1)}`;
      case 5:
        return `${bool(d - 1)} or ${bool(d - 1)}`;
      case 6:
        return `${bool(d - 1)} => ${bool(d - 1)}`;
      case 7:
        return `${num(d - 1)} <= ${num(d - 1)} < ${num(d - 1)}`;
      default:
        return `(${bool(d - 1)})`;
    }
  };
  return { bool, num };
}

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
