/**
 * The graph-predicate DSL of the counterexample tool (docs/dsl-grammar.md): parse and
 * type-check once, compile once, evaluate fast on bitset graphs. The leakage tool reuses it
 * for behavioural fingerprints.
 */
export type { Expr, CompareOp } from './ast.js';
export { featuresUsed, typeOf } from './ast.js';
export { DslError } from './errors.js';
export { parseExpression, tryParseExpression, MAX_DEPTH, MAX_EXPRESSION_LENGTH } from './parser.js';
export { canonicalForm } from './printer.js';
export { compileExpression } from './compile.js';
export { FEATURE_NAMES } from '../graph/features.js';
export { truthTable } from './truth-table.js';
