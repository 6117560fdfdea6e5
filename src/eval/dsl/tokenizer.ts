/** Tokens of the graph-predicate DSL, each with its 1-based column. */
import { DslError } from './errors.js';

export type TokenKind = 'ident' | 'number' | 'op' | 'lparen' | 'rparen' | 'end';

export interface Token {
  kind: TokenKind;
  /** Source text (operators and identifiers as written; numbers normalised, see below). */
  text: string;
  column: number;
  /** Numeric value of a number token. */
  value?: number;
}

const OPERATORS = ['=>', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*'] as const;

/** Characters people try that are not in the language, with what to write instead. */
const MISTAKES: readonly [string, string][] = [
  ['&&', "'&&' is not an operator here; write 'and'"],
  ['||', "'||' is not an operator here; write 'or'"],
  ['->', "'->' is not an operator here; write '=>' for implication"],
  ['<=>', "'<=>' is not an operator here; write (A => B) and (B => A)"],
  ['=', "'=' is not an operator here; write '==' to compare"],
  ['!', "'!' is not an operator here; write 'not'"],
  ['&', "'&' is not an operator here; write 'and'"],
  ['|', "'|' is not an operator here; write 'or'"],
  ['/', "'/' (division) is not supported: the language has + - * only; multiply both sides instead"],
  ['%', "'%' (remainder) is not supported: the language has + - * only"],
  ['^', "'^' is not supported: the language has + - * only; write the product out"],
];

/** Largest integer literal accepted: beyond it doubles stop being exact. */
export const MAX_LITERAL = 2 ** 53 - 1;

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isIdentStart = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isIdentPart = (c: string): boolean => isIdentStart(c) || isDigit(c);

/**
 * Normalises a numeric literal so equal values print equally: leading zeros of the integer
 * part and trailing zeros of the fraction go ("007.50" -> "7.5", "1.0" -> "1").
 */
export function normaliseNumber(text: string): string {
  const [intPart = '', frac = ''] = text.split('.');
  const i = intPart.replace(/^0+(?=\d)/, '');
  const f = frac.replace(/(?<!0)0+$/, '');
  return f === '' ? i : `${i}.${f}`;
}

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    const column = i + 1;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      let j = i;
      while (j < src.length && isDigit(src[j]!)) j++;
      if (src[j] === '.') {
        j++;
        if (!isDigit(src[j] ?? ''))
          throw new DslError(
            'syntax',
            j + 1,
            `a decimal point must be followed by digits (column ${j + 1})`,
            ['a digit'],
          );
        while (j < src.length && isDigit(src[j]!)) j++;
      }
      if (c === '.')
        throw new DslError('syntax', column, `write a leading zero: 0${src.slice(i, j)} (column ${column})`, [
          'a digit',
        ]);
      if (j < src.length && (isIdentStart(src[j]!) || src[j] === '.'))
        throw new DslError(
          'syntax',
          j + 1,
          `unexpected '${src[j]!}' right after the number ${src.slice(i, j)} (column ${j + 1}); numbers are written like 3 or 0.5`,
          ['an operator', "')'", 'the end of the expression'],
        );
      const text = normaliseNumber(src.slice(i, j));
      const value = Number(text);
      if (value > MAX_LITERAL)
        throw new DslError(
          'syntax',
          column,
          `the number ${src.slice(i, j)} is too large (column ${column}); at most ${MAX_LITERAL}`,
        );
      out.push({ kind: 'number', text, column, value });
      i = j;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < src.length && isIdentPart(src[j]!)) j++;
      out.push({ kind: 'ident', text: src.slice(i, j), column });
      i = j;
      continue;
    }
    if (c === '(') {
      out.push({ kind: 'lparen', text: '(', column });
      i++;
      continue;
    }
    if (c === ')') {
      out.push({ kind: 'rparen', text: ')', column });
      i++;
      continue;
    }
    for (const [bad, message] of MISTAKES) {
      // '<=>' must win over '<=', '->' over '-': checked before the real operators.
      if (
        src.startsWith(bad, i) &&
        !(bad === '=' && src[i + 1] === '=') &&
        !(bad === '!' && src[i + 1] === '=')
      ) {
        if (bad === '=' && src[i + 1] === '>') break;
        throw new DslError('syntax', column, `${message} (column ${column})`);
      }
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      out.push({ kind: 'op', text: op, column });
      i += op.length;
      continue;
    }
    const shown = c.codePointAt(0)! < 32 ? `U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}` : `'${c}'`;
    throw new DslError('syntax', column, `unexpected character ${shown} at column ${column}`, [
      'a feature',
      'a number',
      'an operator',
      "'('",
      "')'",
    ]);
  }
  out.push({ kind: 'end', text: '', column: src.length + 1 });
  return out;
}
