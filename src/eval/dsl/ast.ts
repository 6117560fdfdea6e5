/** The DSL's abstract syntax tree. Every node remembers the column where it starts. */

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';
export type ValueType = 'bool' | 'num';

interface Base {
  column: number;
}

export interface BoolLit extends Base {
  kind: 'bool';
  value: boolean;
}
export interface NumLit extends Base {
  kind: 'num';
  value: number;
  /** Normalised literal text, printed as is in canonical form. */
  text: string;
}
export interface FeatureRef extends Base {
  kind: 'feature';
  name: string;
  id: number;
  type: ValueType;
}
export interface Not extends Base {
  kind: 'not';
  arg: Expr;
}
/** `and`/`or` are n-ary: `a and (b and c)` and `a and b and c` are the same node. */
export interface Junction extends Base {
  kind: 'and' | 'or';
  args: Expr[];
}
export interface Implies extends Base {
  kind: 'implies';
  left: Expr;
  right: Expr;
}
/** A comparison chain: args[0] ops[0] args[1] ops[1] args[2] ... (each adjacent pair). */
export interface Compare extends Base {
  kind: 'compare';
  ops: CompareOp[];
  args: Expr[];
}
export interface Neg extends Base {
  kind: 'neg';
  arg: Expr;
}
/**
 * `a + b - c` as one node, evaluated left to right. Sums are not merged across
 * parentheses: floating-point addition is not associative, and canonical form must keep
 * the order of evaluation the user wrote.
 */
export interface Sum extends Base {
  kind: 'sum';
  first: Expr;
  rest: { op: '+' | '-'; arg: Expr }[];
}
export interface Product extends Base {
  kind: 'product';
  args: Expr[];
}

export type Expr = BoolLit | NumLit | FeatureRef | Not | Junction | Implies | Compare | Neg | Sum | Product;

export function typeOf(e: Expr): ValueType {
  switch (e.kind) {
    case 'bool':
    case 'not':
    case 'and':
    case 'or':
    case 'implies':
    case 'compare':
      return 'bool';
    case 'num':
    case 'neg':
    case 'sum':
    case 'product':
      return 'num';
    case 'feature':
      return e.type;
  }
}

/** Ids of the features an expression reads, ascending. */
export function featuresUsed(e: Expr): number[] {
  const seen = new Set<number>();
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    switch (x.kind) {
      case 'feature':
        seen.add(x.id);
        break;
      case 'not':
      case 'neg':
        stack.push(x.arg);
        break;
      case 'and':
      case 'or':
      case 'compare':
      case 'product':
        stack.push(...x.args);
        break;
      case 'implies':
        stack.push(x.left, x.right);
        break;
      case 'sum':
        stack.push(x.first, ...x.rest.map((r) => r.arg));
        break;
      case 'bool':
      case 'num':
        break;
    }
  }
  return [...seen].sort((a, b) => a - b);
}
