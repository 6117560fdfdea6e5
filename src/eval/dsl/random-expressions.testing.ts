/** Random well-typed DSL expressions, for property tests of the parser and the kernels. */
import { xorshift } from '../graph/brute-force.testing.js';
import { FEATURES } from '../graph/features.js';

export function generator(seed: number): { bool: (d: number) => string; num: (d: number) => string } {
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
