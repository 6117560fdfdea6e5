/**
 * Lowers a claim's ASTs into the flat program the native kernel interprets. Layout of the
 * Int32Array (all indices are into the same array or into `constants`):
 *   [0] claim kind (0 implication, 1 greedy colouring)  [1] root A  [2] root B (-1 if none)
 *   [3] node count  [4..7] reserved
 *   nodes from 8, four words each: kind, a, b, c (see NodeKind)
 *   then a pool of child indices, comparison operators and signs referenced by the nodes.
 */
import type { CompareOp, Expr } from '../../dsl/ast.js';
import type { Claim } from './claim.js';

export const NodeKind = {
  bool: 0, // a = 0/1
  num: 1, // a = constant index
  feature: 2, // a = feature id, b = 1 when true/false
  not: 3, // a = child
  and: 4, // a = pool start of children, b = count
  or: 5, // a = pool start, b = count
  implies: 6, // a = left, b = right
  compare: 7, // a = pool start of operands, b = operand count, c = pool start of operators
  neg: 8, // a = child
  sum: 9, // a = pool start of operands, b = count, c = pool start of signs (1 '+', 0 '-') for operands 1..
  product: 10, // a = pool start, b = count
} as const;

export const COMPARE_CODES: Record<CompareOp, number> = {
  '==': 0,
  '!=': 1,
  '<': 2,
  '<=': 3,
  '>': 4,
  '>=': 5,
};

const HEADER = 8;

export interface LoweredProgram {
  program: Int32Array;
  constants: Float64Array;
}

export function lowerClaim(claim: Claim): LoweredProgram {
  const nodes: number[][] = [];
  const pool: number[] = [];
  const constants: number[] = [];

  const emit = (rec: number[]): number => {
    nodes.push(rec);
    return nodes.length - 1;
  };
  const list = (xs: number[]): number => {
    const start = pool.length;
    pool.push(...xs);
    return start;
  };
  const lower = (e: Expr): number => {
    switch (e.kind) {
      case 'bool':
        return emit([NodeKind.bool, e.value ? 1 : 0, 0, 0]);
      case 'num':
        constants.push(e.value);
        return emit([NodeKind.num, constants.length - 1, 0, 0]);
      case 'feature':
        return emit([NodeKind.feature, e.id, e.type === 'bool' ? 1 : 0, 0]);
      case 'not':
        return emit([NodeKind.not, lower(e.arg), 0, 0]);
      case 'neg':
        return emit([NodeKind.neg, lower(e.arg), 0, 0]);
      case 'and':
      case 'or':
      case 'product': {
        const kids = e.args.map(lower);
        return emit([NodeKind[e.kind], list(kids), kids.length, 0]);
      }
      case 'implies': {
        const l = lower(e.left);
        const r = lower(e.right);
        return emit([NodeKind.implies, l, r, 0]);
      }
      case 'compare': {
        const kids = e.args.map(lower);
        const start = list(kids);
        const ops = list(e.ops.map((o) => COMPARE_CODES[o]));
        return emit([NodeKind.compare, start, kids.length, ops]);
      }
      case 'sum': {
        const kids = [lower(e.first), ...e.rest.map((r) => lower(r.arg))];
        const start = list(kids);
        const signs = list(e.rest.map((r) => (r.op === '+' ? 1 : 0)));
        return emit([NodeKind.sum, start, kids.length, signs]);
      }
    }
  };

  let kind: number;
  let rootA: number;
  let rootB = -1;
  if (claim.kind === 'implication') {
    kind = 0;
    rootA = lower(claim.antecedent);
    rootB = lower(claim.consequent);
  } else {
    kind = 1;
    rootA = lower(claim.cls);
  }
  const poolStart = HEADER + nodes.length * 4;
  const program = new Int32Array(poolStart + pool.length);
  program.set([kind, rootA, rootB, nodes.length, poolStart, 0, 0, 0]);
  nodes.forEach((rec, i) => {
    // Pool references become absolute indices into `program`.
    const [k, a, b, c] = rec as [number, number, number, number];
    const abs = (x: number): number => poolStart + x;
    const fixed =
      k === NodeKind.and || k === NodeKind.or || k === NodeKind.product
        ? [k, abs(a), b, c]
        : k === NodeKind.compare || k === NodeKind.sum
          ? [k, abs(a), b, abs(c)]
          : [k, a, b, c];
    program.set(fixed, HEADER + i * 4);
  });
  program.set(pool, poolStart);
  return { program, constants: Float64Array.from(constants) };
}
