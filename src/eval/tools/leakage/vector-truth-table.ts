/**
 * Truth tables evaluated column-wise: each AST node is evaluated once over all tabulated
 * graphs (typed arrays, one element per graph) instead of once per graph through closures.
 * Same operations in the same order as src/eval/dsl/compile.ts, so the same doubles and the
 * same booleans; vector-truth-table.test.ts checks it against the DSL's own truthTable.
 */
import { compareNumbers } from '../../dsl/compile.js';
import { typeOf, type CompareOp, type Expr } from '../../dsl/index.js';
import { tabulatedFeatureColumns } from '../../graph/enumerate.js';

type Bools = Uint8Array;
type Nums = Float64Array;

class Evaluator {
  constructor(
    private readonly cols: readonly Float64Array[],
    private readonly size: number,
  ) {}

  bool(e: Expr): Bools {
    const n = this.size;
    switch (e.kind) {
      case 'bool':
        return new Uint8Array(n).fill(e.value ? 1 : 0);
      case 'feature': {
        const col = this.cols[e.id]!;
        const out = new Uint8Array(n);
        for (let i = 0; i < n; i++) out[i] = col[i] !== 0 ? 1 : 0;
        return out;
      }
      case 'not': {
        const a = this.bool(e.arg);
        for (let i = 0; i < n; i++) a[i] = a[i] ? 0 : 1;
        return a;
      }
      case 'and':
      case 'or': {
        const acc = this.bool(e.args[0]!);
        for (let k = 1; k < e.args.length; k++) {
          const b = this.bool(e.args[k]!);
          if (e.kind === 'and') for (let i = 0; i < n; i++) acc[i] = acc[i]! & b[i]!;
          else for (let i = 0; i < n; i++) acc[i] = acc[i]! | b[i]!;
        }
        return acc;
      }
      case 'implies': {
        const a = this.bool(e.left);
        const b = this.bool(e.right);
        for (let i = 0; i < n; i++) a[i] = !a[i] || b[i] ? 1 : 0;
        return a;
      }
      case 'compare':
        return this.compare(e.ops, e.args);
      case 'num':
      case 'neg':
      case 'sum':
      case 'product':
        throw new TypeError(`internal: ${e.kind} is not a predicate`);
    }
  }

  private compare(ops: readonly CompareOp[], args: readonly Expr[]): Bools {
    const n = this.size;
    const out = new Uint8Array(n).fill(1);
    for (let k = 0; k < ops.length; k++) {
      const op = ops[k]!;
      const l = args[k]!;
      const r = args[k + 1]!;
      if (typeOf(l) === 'bool') {
        // As compile.ts: booleans compare by == or, for any other operator, by !=.
        const a = this.bool(l);
        const b = this.bool(r);
        for (let i = 0; i < n; i++) if ((a[i] === b[i]) !== (op === '==')) out[i] = 0;
      } else {
        const a = this.num(l);
        const b = this.num(r);
        for (let i = 0; i < n; i++) if (!compareNumbers(op, a[i]!, b[i]!)) out[i] = 0;
      }
    }
    return out;
  }

  num(e: Expr): Nums {
    const n = this.size;
    switch (e.kind) {
      case 'num':
        return new Float64Array(n).fill(e.value);
      case 'feature':
        return this.cols[e.id]!.slice();
      case 'neg': {
        const a = this.num(e.arg);
        for (let i = 0; i < n; i++) a[i] = -a[i]!;
        return a;
      }
      case 'sum': {
        const s = this.num(e.first);
        for (const r of e.rest) {
          const b = this.num(r.arg);
          if (r.op === '+') for (let i = 0; i < n; i++) s[i] = s[i]! + b[i]!;
          else for (let i = 0; i < n; i++) s[i] = s[i]! - b[i]!;
        }
        return s;
      }
      case 'product': {
        const p = this.num(e.args[0]!);
        for (let k = 1; k < e.args.length; k++) {
          const b = this.num(e.args[k]!);
          for (let i = 0; i < n; i++) p[i] = p[i]! * b[i]!;
        }
        return p;
      }
      case 'bool':
      case 'not':
      case 'and':
      case 'or':
      case 'implies':
      case 'compare':
        throw new TypeError(`internal: ${e.kind} is not a number`);
    }
  }
}

/** One byte per graph (1 true, 0 false) on every labelled graph with 1..maxN vertices. */
export function vectorTruthTable(expr: Expr, maxN: number): Uint8Array {
  const cols = tabulatedFeatureColumns(maxN);
  return new Evaluator(cols, cols[0]!.length).bool(expr);
}
