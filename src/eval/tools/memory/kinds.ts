/**
 * Memory kinds (salience weights) and question kinds (how relevance is shaped). Both are
 * matched case-insensitively with `-` and spaces read as `_`; the tables are the documented
 * contract (docs/memory-ranking.md).
 */

/** Salience weight per memory kind: durable knowledge outranks a passing episode. */
export const KIND_WEIGHTS: Readonly<Record<string, number>> = {
  semantic: 1.0,
  preference: 1.0,
  procedural: 0.95,
  reflection: 0.9,
  summary: 0.9,
  episodic: 0.85,
};
/** Weight of a kind not in the table (stated per memory in the receipt). */
export const UNKNOWN_KIND_WEIGHT = 0.8;

export interface QuestionShape {
  /** Weight of the normalised BM25 term score. */
  terms: number;
  /** Weight of the entity score; terms + entities = 1. */
  entities: number;
  /** How much the query-free prior may scale a match (0: not at all). */
  priorStrength: number;
  /** Which prior: full salience, or recency alone for questions about time. */
  prior: 'salience' | 'recency';
  /** Multiplier per memory kind (1 when absent). */
  kindBoost: Readonly<Record<string, number>>;
  description: string;
}

export const QUESTION_KINDS: Readonly<Record<string, QuestionShape>> = {
  generic: {
    terms: 0.55,
    entities: 0.45,
    priorStrength: 0.25,
    prior: 'salience',
    kindBoost: {},
    description: 'balanced terms and entities; salience breaks near-ties',
  },
  factual: {
    terms: 0.45,
    entities: 0.55,
    priorStrength: 0.25,
    prior: 'salience',
    kindBoost: { semantic: 1.25, summary: 1.1, episodic: 0.9 },
    description: 'what/who questions: entities weigh more; semantic facts are boosted',
  },
  procedural: {
    terms: 0.65,
    entities: 0.35,
    priorStrength: 0.25,
    prior: 'salience',
    kindBoost: { procedural: 1.3, episodic: 0.9 },
    description: 'how-to questions: wording weighs more; procedures are boosted',
  },
  temporal: {
    terms: 0.5,
    entities: 0.5,
    priorStrength: 0.5,
    prior: 'recency',
    kindBoost: { episodic: 1.2, summary: 1.1 },
    description: 'when/what-happened questions: recency is the prior and counts double; episodes are boosted',
  },
  causal: {
    terms: 0.55,
    entities: 0.45,
    priorStrength: 0.25,
    prior: 'salience',
    kindBoost: { reflection: 1.25, episodic: 1.1 },
    description: 'why questions: reflections and episodes are boosted',
  },
  preference: {
    terms: 0.45,
    entities: 0.55,
    priorStrength: 0.25,
    prior: 'salience',
    kindBoost: { preference: 1.35, semantic: 1.05 },
    description: 'what-does-the-user-want questions: stated preferences are boosted',
  },
};

export const QUESTION_KIND_ALIASES: Readonly<Record<string, string>> = {
  fact: 'factual',
  what: 'factual',
  who: 'factual',
  how: 'procedural',
  how_to: 'procedural',
  howto: 'procedural',
  procedure: 'procedural',
  when: 'temporal',
  recent: 'temporal',
  time: 'temporal',
  why: 'causal',
  cause: 'causal',
  preferences: 'preference',
};

/**
 * The table's own entry for `key`, never an inherited one: kinds are request text, and
 * `constructor` or `__proto__` would otherwise read Object.prototype members.
 */
function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Salience weight of a normalised memory kind; undefined for a kind not in the table. */
export function kindWeight(kind: string): number | undefined {
  return ownEntry(KIND_WEIGHTS, kind);
}

/** Relevance multiplier of a normalised memory kind under a question shape (1 when absent). */
export function kindBoost(shape: QuestionShape, kind: string): number {
  return ownEntry(shape.kindBoost, kind) ?? 1;
}

export function normalizeKind(kind: string): string {
  return kind
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

export interface ResolvedQuestionKind {
  requested: string;
  applied: string;
  known: boolean;
  shape: QuestionShape;
}

/** Unknown question kinds are ranked as generic, and the receipt says so (they are not a 400). */
export function resolveQuestionKind(requested: string): ResolvedQuestionKind {
  const key = normalizeKind(requested);
  const applied = Object.hasOwn(QUESTION_KINDS, key) ? key : ownEntry(QUESTION_KIND_ALIASES, key);
  const shape = applied === undefined ? undefined : ownEntry(QUESTION_KINDS, applied);
  if (applied && shape) return { requested, applied, known: true, shape };
  return { requested, applied: 'generic', known: false, shape: QUESTION_KINDS.generic! };
}
