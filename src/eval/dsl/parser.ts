/**
 * Recursive-descent parser and type checker of the graph-predicate DSL (docs/dsl-grammar.md).
 * Precedence, loosest first: `=>` (right-associative), `or`, `and`, `not`, comparisons
 * (chainable), `+ -`, `*`, unary `-`. Nesting is bounded so no input can overflow the stack.
 */
import { FEATURE_NAMES, featureByName } from '../graph/features.js';
import { MAX_VERTICES } from '../graph/graph.js';
import type { CompareOp, Expr, ValueType } from './ast.js';
import { typeOf } from './ast.js';
import { DslError, humanList } from './errors.js';
import { MAX_MAGNITUDE, formatBound, magnitudeBound } from './magnitude.js';
import { tokenize, type Token } from './tokenizer.js';

/** Deepest nesting of parentheses, `not`, unary minus and `=>` accepted. */
export const MAX_DEPTH = 64;
/** Longest expression accepted (the API's bound; the parser enforces it for every caller). */
export const MAX_EXPRESSION_LENGTH = 500;

const KEYWORDS = new Set(['and', 'or', 'not', 'true', 'false']);
const COMPARE_OPS = new Set<string>(['==', '!=', '<', '<=', '>', '>=']);
const START_EXPECTED = ['a feature', 'a number', "'true'", "'false'", "'not'", "'-'", "'('"];
const AFTER_OPERAND = ["'=>'", "'or'", "'and'", 'a comparison', "'+'", "'-'", "'*'"];

function describe(t: Token): string {
  if (t.kind === 'end') return 'the end of the expression';
  return `'${t.text}'`;
}

function typeName(t: ValueType): string {
  return t === 'bool' ? 'true/false' : 'a number';
}

/** Levenshtein distance, for "did you mean" suggestions. */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

function suggestion(name: string): string {
  const lower = name.toLowerCase();
  if (KEYWORDS.has(lower) || FEATURE_NAMES.includes(lower))
    return ` Did you mean '${lower}'? Names are lower case.`;
  let best = '';
  let bestD = Infinity;
  for (const f of FEATURE_NAMES) {
    const d = distance(lower, f);
    if (d < bestD) {
      bestD = d;
      best = f;
    }
  }
  return bestD <= Math.max(2, Math.floor(best.length / 4)) ? ` Did you mean '${best}'?` : '';
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos]!;
  }

  private next(): Token {
    return this.tokens[this.pos++]!;
  }

  private isWord(t: Token, word: string): boolean {
    return t.kind === 'ident' && t.text === word;
  }

  private isOp(t: Token, op: string): boolean {
    return t.kind === 'op' && t.text === op;
  }

  private enter(t: Token): void {
    if (++this.depth > MAX_DEPTH)
      throw new DslError(
        'too_deep',
        t.column,
        `the expression nests deeper than ${MAX_DEPTH} levels at column ${t.column}; simplify it`,
      );
  }

  private fail(t: Token, expected: readonly string[], extra = ''): never {
    const lower = t.text.toLowerCase();
    if (t.kind === 'ident' && lower !== t.text && KEYWORDS.has(lower))
      extra += `; did you mean '${lower}'? Names are lower case`;
    throw new DslError(
      'syntax',
      t.column,
      `unexpected ${describe(t)} at column ${t.column}; expected ${humanList(expected)}${extra}`,
      expected,
    );
  }

  private need(e: Expr, want: ValueType, context: string): void {
    const got = typeOf(e);
    if (got === want) return;
    const hint = want === 'bool' ? ', e.g. compare it: n >= 3' : '';
    throw new DslError(
      'type',
      e.column,
      `${context} needs ${typeName(want)}, but the operand at column ${e.column} is ${typeName(got)}${hint}`,
      [typeName(want)],
    );
  }

  /**
   * Rejects an operator whose running result could exceed MAX_MAGNITUDE on some graph: every
   * partial result of `a op b op c ...` is at most the running bound, so accepted expressions
   * evaluate exactly (no rounding of integers, no Infinity, no NaN) in both kernels.
   */
  private bounded(bound: number, opTok: Token, what: string): number {
    if (bound <= MAX_MAGNITUDE) return bound;
    throw new DslError(
      'too_large',
      opTok.column,
      `the ${what} at column ${opTok.column} can reach ${formatBound(bound)} on a graph with at most ${MAX_VERTICES} vertices, ` +
        `beyond ${MAX_MAGNITUDE} (2^53 - 1) where numbers stop being exact; use smaller numbers`,
    );
  }

  parseTop(): Expr {
    const e = this.implication();
    const t = this.peek();
    if (t.kind === 'rparen')
      this.fail(t, [...AFTER_OPERAND, 'the end of the expression'], " (this ')' has no matching '(')");
    if (t.kind !== 'end') this.fail(t, [...AFTER_OPERAND, 'the end of the expression']);
    if (typeOf(e) !== 'bool')
      throw new DslError(
        'type',
        1,
        'the expression must be true or false for each graph, but it is a number; compare it, e.g. n >= 3',
        ['true/false'],
      );
    return e;
  }

  private implication(): Expr {
    const left = this.disjunction();
    const t = this.peek();
    if (!this.isOp(t, '=>')) return left;
    this.next();
    this.enter(t);
    const right = this.implication();
    this.depth--;
    this.need(left, 'bool', "'=>'");
    this.need(right, 'bool', "'=>'");
    return { kind: 'implies', column: left.column, left, right };
  }

  private junction(kind: 'and' | 'or', operand: () => Expr): Expr {
    const first = operand();
    if (!this.isWord(this.peek(), kind)) return first;
    const args: Expr[] = [];
    const add = (e: Expr): void => {
      this.need(e, 'bool', `'${kind}'`);
      if (e.kind === kind) args.push(...e.args);
      else args.push(e);
    };
    add(first);
    while (this.isWord(this.peek(), kind)) {
      this.next();
      add(operand());
    }
    return { kind, column: first.column, args };
  }

  private disjunction(): Expr {
    return this.junction('or', () => this.conjunction());
  }

  private conjunction(): Expr {
    return this.junction('and', () => this.negation());
  }

  private negation(): Expr {
    const t = this.peek();
    if (!this.isWord(t, 'not')) return this.comparison();
    this.next();
    this.enter(t);
    const arg = this.negation();
    this.depth--;
    this.need(arg, 'bool', "'not'");
    return { kind: 'not', column: t.column, arg };
  }

  private comparison(): Expr {
    const first = this.additive();
    if (!(this.peek().kind === 'op' && COMPARE_OPS.has(this.peek().text))) return first;
    const args: Expr[] = [first];
    const ops: CompareOp[] = [];
    while (this.peek().kind === 'op' && COMPARE_OPS.has(this.peek().text)) {
      const opTok = this.next();
      const op = opTok.text as CompareOp;
      const right = this.additive();
      const left = args[args.length - 1]!;
      const lt = typeOf(left);
      const rt = typeOf(right);
      if (op === '==' || op === '!=') {
        if (lt !== rt)
          throw new DslError(
            'type',
            opTok.column,
            `'${op}' at column ${opTok.column} compares ${typeName(lt)} with ${typeName(rt)}; both sides must be numbers or both true/false`,
            [typeName(lt)],
          );
      } else {
        this.need(left, 'num', `'${op}' at column ${opTok.column}`);
        this.need(right, 'num', `'${op}' at column ${opTok.column}`);
      }
      ops.push(op);
      args.push(right);
    }
    return { kind: 'compare', column: first.column, ops, args };
  }

  private additive(): Expr {
    const first = this.term();
    const t = this.peek();
    if (!(this.isOp(t, '+') || this.isOp(t, '-'))) return first;
    this.need(first, 'num', `'${t.text}' at column ${t.column}`);
    const rest: { op: '+' | '-'; arg: Expr }[] = [];
    let bound = magnitudeBound(first);
    while (this.isOp(this.peek(), '+') || this.isOp(this.peek(), '-')) {
      const opTok = this.next();
      const arg = this.term();
      this.need(arg, 'num', `'${opTok.text}' at column ${opTok.column}`);
      bound = this.bounded(bound + magnitudeBound(arg), opTok, `'${opTok.text}'`);
      rest.push({ op: opTok.text as '+' | '-', arg });
    }
    return { kind: 'sum', column: first.column, first, rest };
  }

  private term(): Expr {
    const first = this.unary();
    const t = this.peek();
    if (!this.isOp(t, '*')) return first;
    this.need(first, 'num', `'*' at column ${t.column}`);
    const args = [first];
    let bound = magnitudeBound(first);
    while (this.isOp(this.peek(), '*')) {
      const opTok = this.next();
      const arg = this.unary();
      this.need(arg, 'num', `'*' at column ${opTok.column}`);
      bound = this.bounded(bound * magnitudeBound(arg), opTok, "'*'");
      args.push(arg);
    }
    return { kind: 'product', column: first.column, args };
  }

  private unary(): Expr {
    const t = this.peek();
    if (!this.isOp(t, '-')) return this.primary();
    this.next();
    this.enter(t);
    const arg = this.unary();
    this.depth--;
    this.need(arg, 'num', `unary '-' at column ${t.column}`);
    return { kind: 'neg', column: t.column, arg };
  }

  private primary(): Expr {
    const t = this.next();
    switch (t.kind) {
      case 'number':
        return { kind: 'num', column: t.column, value: t.value!, text: t.text };
      case 'lparen': {
        this.enter(t);
        const inner = this.implication();
        this.depth--;
        const close = this.peek();
        if (close.kind !== 'rparen')
          this.fail(close, [...AFTER_OPERAND, "')'"], ` (to close the '(' at column ${t.column})`);
        this.next();
        return inner;
      }
      case 'ident': {
        if (t.text === 'true' || t.text === 'false')
          return { kind: 'bool', column: t.column, value: t.text === 'true' };
        if (t.text === 'not')
          throw new DslError(
            'syntax',
            t.column,
            `'not' at column ${t.column} cannot stand inside a comparison or sum; put it in parentheses: (not ...)`,
            ["'('"],
          );
        if (KEYWORDS.has(t.text))
          this.fail(
            t,
            START_EXPECTED.filter((x) => x !== "'not'"),
          );
        const f = featureByName(t.text);
        if (!f)
          throw new DslError(
            'unknown_feature',
            t.column,
            `unknown feature '${t.text}' at column ${t.column}.${suggestion(t.text)} Known features: ${FEATURE_NAMES.join(', ')}`,
            FEATURE_NAMES,
          );
        return { kind: 'feature', column: t.column, name: f.name, id: f.id, type: f.type };
      }
      case 'op':
      case 'rparen':
      case 'end':
        return this.fail(t, START_EXPECTED);
    }
  }
}

/** Parses and type-checks a predicate; throws DslError. */
export function parseExpression(src: string): Expr {
  if (src.length > MAX_EXPRESSION_LENGTH)
    throw new DslError(
      'too_long',
      MAX_EXPRESSION_LENGTH + 1,
      `the expression is ${src.length} characters long; at most ${MAX_EXPRESSION_LENGTH} are accepted`,
    );
  const tokens = tokenize(src);
  if (tokens.length === 1)
    throw new DslError(
      'syntax',
      1,
      'the expression is empty; write a predicate such as is_connected and n >= 4',
      START_EXPECTED,
    );
  return new Parser(tokens).parseTop();
}

export type ParseResult = { ok: true; expr: Expr } | { ok: false; error: DslError };

export function tryParseExpression(src: string): ParseResult {
  try {
    return { ok: true, expr: parseExpression(src) };
  } catch (error) {
    if (error instanceof DslError) return { ok: false, error };
    throw error;
  }
}
