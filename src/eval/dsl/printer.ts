/**
 * Canonical form: one space around binary operators, lower-case keywords, normalised
 * numbers, `and`/`or` chains flattened, and only the parentheses precedence requires.
 * Parsing the canonical form gives an expression that evaluates identically.
 */
import type { Expr } from './ast.js';

function precedence(e: Expr): number {
  switch (e.kind) {
    case 'implies':
      return 1;
    case 'or':
      return 2;
    case 'and':
      return 3;
    case 'not':
      return 4;
    case 'compare':
      return 5;
    case 'sum':
      return 6;
    case 'product':
      return 7;
    case 'neg':
      return 8;
    case 'bool':
    case 'num':
    case 'feature':
      return 9;
  }
}

function print(e: Expr, min: number): string {
  const s = raw(e);
  return precedence(e) < min ? `(${s})` : s;
}

function raw(e: Expr): string {
  switch (e.kind) {
    case 'bool':
      return e.value ? 'true' : 'false';
    case 'num':
      return e.text;
    case 'feature':
      return e.name;
    case 'not':
      return `not ${print(e.arg, 4)}`;
    case 'and':
      return e.args.map((a) => print(a, 4)).join(' and ');
    case 'or':
      return e.args.map((a) => print(a, 3)).join(' or ');
    case 'implies':
      return `${print(e.left, 2)} => ${print(e.right, 1)}`;
    case 'compare': {
      let out = print(e.args[0]!, 6);
      for (let i = 0; i < e.ops.length; i++) out += ` ${e.ops[i]!} ${print(e.args[i + 1]!, 6)}`;
      return out;
    }
    case 'sum':
      return print(e.first, 6) + e.rest.map((r) => ` ${r.op} ${print(r.arg, 7)}`).join('');
    case 'product':
      return e.args.map((a, i) => print(a, i === 0 ? 7 : 8)).join(' * ');
    case 'neg':
      return `-${print(e.arg, 9)}`;
  }
}

export function canonicalForm(e: Expr): string {
  return print(e, 0);
}
