/** Typed errors of the graph-predicate DSL: each names a 1-based column and what was expected. */

export type DslErrorKind = 'syntax' | 'unknown_feature' | 'type' | 'too_deep' | 'too_long' | 'too_large';

export class DslError extends Error {
  readonly kind: DslErrorKind;
  /** 1-based column of the offending character in the expression. */
  readonly column: number;
  /** What would have been accepted there, e.g. ["a feature", "a number", "'('"]. */
  readonly expected: readonly string[];

  constructor(kind: DslErrorKind, column: number, message: string, expected: readonly string[] = []) {
    super(message);
    this.name = 'DslError';
    this.kind = kind;
    this.column = column;
    this.expected = expected;
  }
}

/** "a, b or c" */
export function humanList(items: readonly string[], conj = 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conj} ${items[items.length - 1]!}`;
}
