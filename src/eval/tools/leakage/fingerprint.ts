/**
 * Tier 2, behavioural fingerprint: a content field that parses as a graph-predicate DSL
 * expression is fingerprinted by the SHA-256 of its truth values on every labelled graph with
 * 1..max_n vertices. Equal fingerprints mean the two expressions behave identically on all
 * of them (`a and b` vs `b and a`): the same item in disguise. Truth tables are computed
 * once per distinct expression (canonical form) per request.
 *
 * A fingerprint that is constant (true on every graph, or false on every graph) says nothing
 * about identity: `n <= 5` and `true` agree on every graph of at most 5 vertices, as do all
 * claims about larger graphs. Such fingerprints are recorded but never matched.
 */
import { createHash } from 'node:crypto';
import {
  canonicalForm,
  FEATURE_NAMES,
  MAX_DEPTH,
  MAX_EXPRESSION_LENGTH,
  tryParseExpression,
  type DslError,
} from '../../dsl/index.js';
import { labelledGraphCount } from '../../graph/enumerate.js';
import { foldText } from '../../text/normalize.js';
import { vectorTruthTable } from './vector-truth-table.js';

export interface Fingerprint {
  sha256: string;
  canonical: string;
  /** true or false when the expression has that value on every graph; null otherwise. */
  constant: boolean | null;
}

export interface FingerprintStats {
  max_n: number;
  graphs: number;
  /** Rows whose content parsed as a DSL expression. */
  expression_rows: number;
  /** Distinct expressions (canonical forms) whose truth table was computed. */
  truth_tables: number;
  /** Rows whose expression is constant on every graph, so never matched. */
  constant_rows: number;
}

/** Only these characters occur in DSL expressions; anything else is prose, not worth a parse. */
const DSL_CHARS = /^[a-z0-9_\s().<>=!+\-*]+$/;
const IDENTIFIER = /[a-z_][a-z0-9_]*/g;
/** Every word of an expression is a feature or a keyword; a text with any other word cannot parse. */
const DSL_WORDS: ReadonlySet<string> = new Set([...FEATURE_NAMES, 'and', 'or', 'not', 'true', 'false']);

function onlyDslWords(text: string): boolean {
  for (const m of text.matchAll(IDENTIFIER)) if (!DSL_WORDS.has(m[0])) return false;
  return true;
}

export function graphsUpTo(maxN: number): number {
  let total = 0;
  for (let n = 1; n <= maxN; n++) total += labelledGraphCount(n);
  return total;
}

/**
 * Why an expression the DSL would otherwise take falls back to text similarity: it breaks one
 * of the parser's limits. Syntax and type errors are not listed; such text is simply not an
 * expression.
 */
function limitBroken(error: DslError): string | null {
  switch (error.kind) {
    case 'too_deep':
      return `nested deeper than ${MAX_DEPTH} levels (column ${error.column})`;
    case 'too_long':
      return `longer than ${MAX_EXPRESSION_LENGTH} characters`;
    case 'too_large':
      return `its arithmetic could exceed 2^53 - 1 (column ${error.column})`;
    case 'syntax':
    case 'type':
    case 'unknown_feature':
      return null;
  }
}

export class FingerprintTier {
  private readonly byContent = new Map<string, Fingerprint | null>();
  /** Contents written in the DSL that break a parser limit, with the limit. */
  private readonly overLimit = new Map<string, string>();
  private readonly byCanonical = new Map<string, Fingerprint>();
  readonly stats: FingerprintStats;

  constructor(private readonly maxN: number) {
    this.stats = {
      max_n: maxN,
      graphs: graphsUpTo(maxN),
      expression_rows: 0,
      truth_tables: 0,
      constant_rows: 0,
    };
  }

  /** The fingerprint of a content field, or null when it is not a DSL expression. */
  of(content: string): Fingerprint | null {
    let fp = this.byContent.get(content);
    if (fp === undefined) {
      fp = this.compute(content);
      this.byContent.set(content, fp);
    }
    if (fp) {
      this.stats.expression_rows++;
      if (fp.constant !== null) this.stats.constant_rows++;
    }
    return fp;
  }

  /**
   * For a content field `of` returned null for: why it is text only although it is written in
   * the DSL (e.g. "nested deeper than 64 levels (column 65)"); null when it is simply not an
   * expression. Receipts state it so a reader sees why tier 2 did not apply.
   */
  textOnlyReason(content: string): string | null {
    return this.overLimit.get(content) ?? null;
  }

  private compute(content: string): Fingerprint | null {
    const folded = foldText(content).trim();
    if (folded.length === 0 || !DSL_CHARS.test(folded) || !onlyDslWords(folded)) return null;
    // The parser enforces the length bound itself; past it the text is still reported as DSL.
    const parsed = tryParseExpression(folded);
    if (!parsed.ok) {
      const why = limitBroken(parsed.error);
      if (why !== null) this.overLimit.set(content, why);
      return null;
    }
    const canonical = canonicalForm(parsed.expr);
    const hit = this.byCanonical.get(canonical);
    if (hit) return hit;
    const table = vectorTruthTable(parsed.expr, this.maxN);
    let ones = 0;
    for (const v of table) ones += v;
    const fp: Fingerprint = {
      sha256: createHash('sha256')
        .update(`dsl-truth-table/v1;max_n=${this.maxN};`)
        .update(table)
        .digest('hex'),
      canonical,
      constant: ones === 0 ? false : ones === table.length ? true : null,
    };
    this.byCanonical.set(canonical, fp);
    this.stats.truth_tables++;
    return fp;
  }
}
