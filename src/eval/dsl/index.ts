/**
 * The graph-predicate DSL of the counterexample tool (docs/dsl-grammar.md): parse and
 * type-check once, compile once, evaluate fast on bitset graphs. The leakage tool reuses it
 * for behavioural fingerprints.
 */
export type { Expr, CompareOp, ValueType } from './ast.js';
export { featuresUsed, typeOf } from './ast.js';
export { DslError, type DslErrorKind } from './errors.js';
export {
  parseExpression,
  tryParseExpression,
  MAX_DEPTH,
  MAX_EXPRESSION_LENGTH,
  type ParseResult,
} from './parser.js';
export { canonicalForm } from './printer.js';
export { compileExpression, type CompiledPredicate } from './compile.js';
export { FEATURE_NAMES, FEATURES, type FeatureInfo } from '../graph/features.js';
export { truthTable } from './truth-table.js';
