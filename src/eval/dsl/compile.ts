/**
 * Compiles an AST once into nested closures over a FeatureCache, so evaluating a predicate
 * on a graph computes only the features it reaches (with short-circuit `and`/`or`/`=>`),
 * each at most once.
 */
import { FeatureCache } from '../graph/features.js';
import type { Graph } from '../graph/graph.js';
import type { CompareOp, Expr } from './ast.js';
import { featuresUsed, typeOf } from './ast.js';

type BoolFn = (c: FeatureCache) => boolean;
type NumFn = (c: FeatureCache) => number;

export interface CompiledPredicate {
  /** Evaluates on a graph (computing the features it needs). */
  (g: Graph): boolean;
  /** Evaluates on a cache the caller manages (reset/invalidate it when the graph changes). */
  onCache: (cache: FeatureCache) => boolean;
  /** Evaluates on precomputed feature values (all of them, FeatureCache order). */
  onValues: (values: Float64Array) => boolean;
  /** Ids of the features the expression reads. */
  readonly features: readonly number[];
  readonly expr: Expr;
}

export function compareNumbers(op: CompareOp, a: number, b: number): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

function compileBool(e: Expr): BoolFn {
  switch (e.kind) {
    case 'bool': {
      const v = e.value;
      return () => v;
    }
    case 'feature': {
      const id = e.id;
      return (c) => c.get(id) !== 0;
    }
    case 'not': {
      const a = compileBool(e.arg);
      return (c) => !a(c);
    }
    case 'and': {
      const fs = e.args.map(compileBool);
      if (fs.length === 2) {
        const [a, b] = fs as [BoolFn, BoolFn];
        return (c) => a(c) && b(c);
      }
      return (c) => {
        for (const f of fs) if (!f(c)) return false;
        return true;
      };
    }
    case 'or': {
      const fs = e.args.map(compileBool);
      if (fs.length === 2) {
        const [a, b] = fs as [BoolFn, BoolFn];
        return (c) => a(c) || b(c);
      }
      return (c) => {
        for (const f of fs) if (f(c)) return true;
        return false;
      };
    }
    case 'implies': {
      const a = compileBool(e.left);
      const b = compileBool(e.right);
      return (c) => !a(c) || b(c);
    }
    case 'compare':
      return compileCompare(e.ops, e.args);
    case 'num':
    case 'neg':
    case 'sum':
    case 'product':
      throw new TypeError(`internal: ${e.kind} is not a predicate`);
  }
}

function compileCompare(ops: readonly CompareOp[], args: readonly Expr[]): BoolFn {
  const steps: BoolFn[] = [];
  // Each operand is evaluated once even when it is shared by two links of the chain;
  // evaluation is pure, so evaluating it per link gives the same result.
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const l = args[i]!;
    const r = args[i + 1]!;
    if (typeOf(l) === 'bool') {
      const a = compileBool(l);
      const b = compileBool(r);
      steps.push(op === '==' ? (c) => a(c) === b(c) : (c) => a(c) !== b(c));
    } else {
      const a = compileNum(l);
      const b = compileNum(r);
      steps.push((c) => compareNumbers(op, a(c), b(c)));
    }
  }
  if (steps.length === 1) return steps[0]!;
  return (c) => {
    for (const s of steps) if (!s(c)) return false;
    return true;
  };
}

function compileNum(e: Expr): NumFn {
  switch (e.kind) {
    case 'num': {
      const v = e.value;
      return () => v;
    }
    case 'feature': {
      const id = e.id;
      return (c) => c.get(id);
    }
    case 'neg': {
      const a = compileNum(e.arg);
      return (c) => -a(c);
    }
    case 'sum': {
      const first = compileNum(e.first);
      const rest = e.rest.map((r) => ({ sign: r.op === '+' ? 1 : -1, f: compileNum(r.arg) }));
      return (c) => {
        let s = first(c);
        for (const r of rest) s = r.sign > 0 ? s + r.f(c) : s - r.f(c);
        return s;
      };
    }
    case 'product': {
      const fs = e.args.map(compileNum);
      return (c) => {
        let p = fs[0]!(c);
        for (let i = 1; i < fs.length; i++) p *= fs[i]!(c);
        return p;
      };
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

/** Compiles a parsed (and so type-checked) predicate. */
export function compileExpression(expr: Expr): CompiledPredicate {
  const f = compileBool(expr);
  let scratch: FeatureCache | null = null;
  const run = ((g: Graph): boolean => {
    if (scratch === null) scratch = new FeatureCache(g);
    else scratch.reset(g);
    return f(scratch);
  }) as CompiledPredicate;
  const loaded = new FeatureCache({ n: 1, adj: new Uint16Array(1) });
  Object.assign(run, {
    onCache: f,
    onValues: (values: Float64Array): boolean => {
      loaded.load(values);
      return f(loaded);
    },
    features: featuresUsed(expr),
    expr,
  });
  return run;
}
