import { describe, expect, it } from 'vitest';
import { compileExpression, parseExpression, truthTable } from '../../dsl/index.js';
import { FEATURES } from '../../graph/features.js';
import { vectorTruthTable } from './vector-truth-table.js';

const names = (type: 'bool' | 'num'): string[] => FEATURES.filter((f) => f.type === type).map((f) => f.name);
/** Every feature of the catalogue, and constants. */
const BOOLS = [...names('bool'), 'true', 'false'];
const NUMS = [...names('num'), '0', '1', '2', '3.5', '0.25', '999'];
const OPS = ['==', '!=', '<', '<=', '>', '>='];

/** Seeded random expressions over every node kind: and/or/not/=>, chains, bool ==, + - *, negation. */
function generator(seed: number): (depth: number) => string {
  let s = seed >>> 0;
  const rnd = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const num = (d: number): string => {
    const u = rnd();
    if (d <= 0 || u < 0.5) return pick(NUMS);
    if (u < 0.65) return `-${num(d - 1)}`;
    if (u < 0.85) return `(${num(d - 1)} ${pick(['+', '-'])} ${num(d - 1)})`;
    return `${num(d - 1)} * ${num(d - 1)}`;
  };
  const bool = (d: number): string => {
    const u = rnd();
    if (d <= 0 || u < 0.25) return pick(BOOLS);
    if (u < 0.45)
      return `${num(d - 1)} ${pick(OPS)} ${num(d - 1)}${rnd() < 0.3 ? ` ${pick(OPS)} ${num(d - 1)}` : ''}`;
    if (u < 0.55) return `not (${bool(d - 1)})`;
    if (u < 0.7) return `(${bool(d - 1)} and ${bool(d - 1)})`;
    if (u < 0.85) return `(${bool(d - 1)} or ${bool(d - 1)})`;
    if (u < 0.93) return `(${bool(d - 1)} => ${bool(d - 1)})`;
    return `(${pick(BOOLS)} ${pick(['==', '!='])} ${pick(BOOLS)})`;
  };
  return bool;
}

describe('vectorTruthTable', () => {
  it('equals the DSL truth table on 600 random expressions for max_n 3, 4 and 5', () => {
    const gen = generator(2024);
    let checked = 0;
    for (let k = 0; k < 600; k++) {
      const text = gen(4);
      let expr;
      try {
        expr = parseExpression(text);
      } catch {
        continue; // the generator may write something the type checker refuses
      }
      const maxN = 3 + (k % 3);
      expect(
        Buffer.from(vectorTruthTable(expr, maxN)).equals(
          Buffer.from(truthTable(compileExpression(expr), maxN)),
        ),
        text,
      ).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('has one entry per graph: 11, 75, 1099', () => {
    const e = parseExpression('is_tree');
    expect([3, 4, 5].map((n) => vectorTruthTable(e, n).length)).toEqual([11, 75, 1099]);
  });
});
